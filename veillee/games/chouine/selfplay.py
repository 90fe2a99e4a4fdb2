"""Self-play: the computer player against a random player and a simple greedy player.

``veillee selfplay chouine --parties N --matches M --seed S`` (issue 2 §5) plays ``N`` duplicate
deals (each deal twice, the seats swapped, so neither side gets the better cards) and ``M``
duplicate best-of-5 matches (the same deck sequence twice, seats swapped) against each opponent,
and prints the partie and match win rates and the parties played per second.

Every player decides from ``observation(state, seat)`` only, through the computer-player contract
``choose(observation, legal_actions, rng) -> Action`` (docs/game-contract.md).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from veillee.cards import PIQUET_32, shuffled
from veillee.games.chouine import bot, rules, solver
from veillee.games.chouine import views as chouine_views
from veillee.games.chouine.match import MATCH as match
from veillee.games.chouine.rules import Action, State
from veillee.games.match import Match

Player = Callable[[Mapping[str, Any], Sequence[Action], random.Random], Action]
"""A computer player: ``choose(observation, legal_actions, rng) -> Action``."""


def random_player(
    observation: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random
) -> Action:
    """Any legal action, uniformly at random."""
    return rng.choice(list(legal_actions))


def _cheapness(card: str, trump: str) -> tuple[int, int, int]:
    # Fewest points first, non-trumps before trumps, then the weakest.
    return (bot.card_points(card), card[1] == trump, bot.strength(card))


def greedy_player(
    observation: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random
) -> Action:
    """The simple greedy baseline of issue 2 §5.

    While the talon lasts it throws its lowest non-trump, non-brisque card, wins a trick cheaply
    when a brisque is on it, and declares what it can; in phase 2 it follows with the cheapest
    winning card, else plays the cheapest card. It always swaps the seven when it may, and
    declares the most valuable combination the card it plays can carry (a chouine first).
    """
    del rng
    obs = observation
    by_text = {str(a): a for a in legal_actions}
    if "swap" in by_text:
        return by_text["swap"]
    if "continue" in by_text:
        return by_text["continue"]
    trump = obs["trump"]
    best: dict[str, tuple[int, str]] = {}
    for text in by_text:
        parts = text.split()
        kind = parts[1] if len(parts) > 1 else None
        pts = bot.declaration_value(kind, parts[0], trump)
        if parts[0] not in best or pts > best[parts[0]][0]:
            best[parts[0]] = (pts, text)
    for pts, text in best.values():
        if pts >= solver.CHOUINE:
            return by_text[text]
    cards = sorted(best, key=lambda c: _cheapness(c, trump))
    trick = obs["trick"]
    lead = trick[0]["card"] if trick else None
    phase2 = obs["talon_count"] == 0 and obs.get("turn_up") is None

    def pick(card: str) -> Action:
        return by_text[best[card][1]]

    winners = [c for c in cards if lead is not None and bot.beats(lead, c, trump)]
    if phase2:
        if winners:
            return pick(winners[0])
        return pick(cards[0])
    if lead is not None and bot.is_brisque(lead) and winners:
        return pick(winners[0])
    declaring = [c for c in cards if best[c][0] > 0]
    if declaring:
        return pick(max(declaring, key=lambda c: (best[c][0], -bot.card_points(c))))
    plain = [c for c in cards if c[1] != trump and not bot.is_brisque(c)]
    return pick(plain[0] if plain else cards[0])


def computer_player(
    observation: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random
) -> Action:
    """The computer player of ``bot.py``."""
    return bot.choose(observation, legal_actions, rng)


def advice_player(
    observation: Mapping[str, Any], legal_actions: Sequence[Action], rng: random.Random
) -> Action:
    """The computer player without its trick-11 search (the talon-phase advice up to trick 11)."""
    by_text = {str(a): a for a in legal_actions}
    return by_text[bot.decide(observation, list(by_text), last_draw_search=False)]


PLAYERS: dict[str, Player] = {
    "computer": computer_player,
    "advice": advice_player,
    "random": random_player,
    "greedy": greedy_player,
}


def play_partie(state: State, players: Sequence[Player], rng: random.Random) -> State:
    """Play a partie to its end, ``players[seat]`` deciding for each seat from its observation."""
    while state.to_act is not None:
        seat = state.to_act
        legal = rules.legal_actions(state)
        player = players[seat]
        obs: Mapping[str, Any] = (
            {} if player is random_player else chouine_views.observation(state, seat)
        )
        state = rules.apply(state, player(obs, legal, rng))
    return state


def play_match(
    decks: Callable[[int], list[str]],
    first_dealer: int,
    players: Sequence[Player],
    rng: random.Random,
) -> tuple[Match, int]:
    """A best-of-5 match through the match contract, whose ``i``-th partie (0-based, ties
    included) is dealt from ``decks(i)``; returns the finished match and the parties played."""
    m = match.start_match(rules.deal(decks(0), dealer=first_dealer), {"best_of": 5})
    count = 1
    while True:
        seat = match.to_act(m)
        if seat is None:
            if match.is_over(m):
                return m, count
            m = match.next_deal_from(m, decks(count))
            count += 1
            continue
        legal = match.legal_actions(m)
        player = players[seat]
        obs: Mapping[str, Any] = (
            {} if player is random_player else chouine_views.observation(m.deal, seat)
        )
        m = match.apply(m, player(obs, legal, rng))


@dataclass
class Tally:
    """Results of the computer against one opponent."""

    parties: int = 0
    partie_wins: int = 0
    partie_losses: int = 0
    matches: int = 0
    match_wins: int = 0
    played: int = 0
    seconds: float = 0.0
    margins: list[int] = field(default_factory=list)

    def partie_rate(self) -> float:
        return self.partie_wins / self.parties if self.parties else 0.0

    def match_rate(self) -> float:
        return self.match_wins / self.matches if self.matches else 0.0


class DeckSequence:
    """The decks of one duplicate match, shuffled on demand and replayed identically."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.decks: list[list[str]] = []

    def __call__(self, k: int) -> list[str]:
        while len(self.decks) <= k:
            self.decks.append(shuffled(PIQUET_32, self.rng))
        return self.decks[k]


def duplicate_parties(
    opponent: Player, deals: int, seed: int, tally: Tally, player: Player = computer_player
) -> None:
    """Play ``deals`` deals twice each (``player`` in seat 0, then in seat 1) and tally."""
    deck_rng = random.Random(seed)
    play_rng = random.Random(seed + 1)
    for i in range(deals):
        deck = shuffled(PIQUET_32, deck_rng)
        dealer = i % 2
        for computer_seat in (0, 1):
            players = [opponent, opponent]
            players[computer_seat] = player
            end = play_partie(rules.deal(deck, dealer=dealer), players, play_rng)
            result = rules.outcome(end)
            assert result is not None
            tally.parties += 1
            if result["winner"] == computer_seat:
                tally.partie_wins += 1
            elif result["winner"] is not None:
                tally.partie_losses += 1


def duplicate_matches(
    opponent: Player, matches: int, seed: int, tally: Tally, player: Player = computer_player
) -> None:
    """Play ``matches`` best-of-5 matches twice each over the same deck sequence, seats swapped."""
    play_rng = random.Random(seed + 2)
    for i in range(matches):
        decks = DeckSequence(random.Random(f"{seed}/{i}"))
        for computer_seat in (0, 1):
            players = [opponent, opponent]
            players[computer_seat] = player
            m, played = play_match(decks, i % 2, players, play_rng)
            tally.matches += 1
            tally.played += played
            if match.winner(m) == computer_seat:
                tally.match_wins += 1


def main(argv: Sequence[str] | None = None) -> int:
    """``veillee selfplay chouine``: print the computer's results; returns the exit status."""
    parser = argparse.ArgumentParser(
        prog="veillee selfplay chouine",
        description="The Chouine computer player against a random and a greedy player.",
    )
    parser.add_argument("--parties", type=int, default=200, help="duplicate deals per opponent")
    parser.add_argument(
        "--matches", type=int, default=None, help="duplicate best-of-5 matches per opponent"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--opponents", default="random,greedy")
    parser.add_argument(
        "--player", default="computer", choices=sorted(PLAYERS), help="the side measured"
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    matches = args.matches if args.matches is not None else max(1, args.parties // 4)
    print(
        f"Chouine self-play, seed {args.seed}: {args.parties} deals played twice (seats swapped)"
        f" and {matches} best-of-5 matches played twice, per opponent",
        flush=True,
    )
    total_parties = 0
    total_seconds = 0.0
    total_cpu = 0.0
    for name in args.opponents.split(","):
        opponent = PLAYERS[name]
        tally = Tally()
        start = time.perf_counter()
        cpu_start = time.process_time()
        duplicate_parties(opponent, args.parties, args.seed, tally, PLAYERS[args.player])
        duplicate_matches(opponent, matches, args.seed, tally, PLAYERS[args.player])
        tally.seconds = time.perf_counter() - start
        total_cpu += time.process_time() - cpu_start
        played = tally.parties + tally.played
        total_parties += played
        total_seconds += tally.seconds
        ties = tally.parties - tally.partie_wins - tally.partie_losses
        print(
            f"{args.player} vs {name:<6}: parties won {100 * tally.partie_rate():5.1f} %"
            f" ({tally.partie_wins} won, {tally.partie_losses} lost, {ties} tied of"
            f" {tally.parties}); matches won {100 * tally.match_rate():5.1f} %"
            f" ({tally.match_wins} of {tally.matches}); {played / tally.seconds:.0f} parties/s",
            flush=True,
        )
    print(
        f"parties/s overall: {total_parties / total_seconds:.0f} wall clock,"
        f" {total_parties / max(total_cpu, 1e-9):.0f} per CPU second ({total_parties} parties)"
    )
    return 0
