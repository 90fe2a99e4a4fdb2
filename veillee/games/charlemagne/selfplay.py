"""``veillee selfplay charlemagne --hands N --seed S``: computer players measured.

Prints, over computer-only hands, how often each contract is bid and made, the average points
per hand and hands per second; then, over duplicate deals (each deal played twice with the teams
swapped), the computer team's share of the points against the greedy team of ``bot``.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from veillee.cards import PIQUET_JOKERS_34, shuffled

from . import bot, rules, views
from .rules import LADDER, Action, State

Player = Callable[[dict[str, Any], Sequence[Action], random.Random], Action]


def play_hand(state: State, players: Sequence[Player], rng: random.Random) -> State:
    """Play ``state`` to its end, each seat's ``players[seat]`` deciding from
    ``views.observation(state, seat)`` and the legal actions only. Returns the final state."""
    while state.to_act is not None:
        seat = state.to_act
        legal = rules.legal_actions(state)
        action = players[seat](views.observation(state, seat), legal, rng)
        state = rules.apply(state, action)
    return state


@dataclass
class Tally:
    """Counts over many hands: contracts bid and made, points scored per team."""

    hands: int = 0
    bid: Counter[str] = field(default_factory=Counter)
    made: Counter[str] = field(default_factory=Counter)
    points: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, state: State) -> None:
        out = rules.outcome(state)
        assert out is not None
        self.hands += 1
        self.bid[out["contract"]] += 1
        if out["made"]:
            self.made[out["contract"]] += 1
        self.points[out["scoring_team"]] += out["points"]


def contract_stats(hands: int, seed: int) -> tuple[Tally, float]:
    """Computer players in all four seats for ``hands`` hands; (tally, hands per second)."""
    rng = random.Random(seed)
    tally = Tally()
    players = [bot.choose] * 4
    start = time.perf_counter()
    for n in range(hands):
        state = rules.deal_random(rng, dealer=n % 4)
        tally.add(play_hand(state, players, rng))
    elapsed = time.perf_counter() - start
    return tally, hands / elapsed if elapsed > 0 else float("inf")


def duplicate_share(deals: int, seed: int) -> tuple[int, int, Tally]:
    """Each deal played twice, computer team NS then EW against the greedy team.

    Returns (computer team's points, greedy team's points, tally of all hands played).
    """
    rng = random.Random(seed + 1)
    ours = theirs = 0
    tally = Tally()
    for n in range(deals):
        deck = shuffled(PIQUET_JOKERS_34, rng)
        dealer = n % 4
        for computer_team in (0, 1):
            players: list[Player] = [
                bot.choose if rules.team(seat) == computer_team else bot.greedy_choose
                for seat in range(4)
            ]
            final = play_hand(rules.deal(deck, dealer=dealer), players, rng)
            tally.add(final)
            out = rules.outcome(final)
            assert out is not None
            if out["scoring_team"] == computer_team:
                ours += out["points"]
            else:
                theirs += out["points"]
    return ours, theirs, tally


def _print_contracts(tally: Tally) -> None:
    print(f"{'contract':<18}{'bid':>8}{'bid %':>9}{'made':>8}{'made %':>9}")
    for contract in LADDER:
        bid = tally.bid[contract]
        made = tally.made[contract]
        share = 100 * bid / tally.hands if tally.hands else 0.0
        rate = f"{100 * made / bid:8.1f}%" if bid else "       -"
        print(f"{contract:<18}{bid:>8}{share:>8.1f}%{made:>8}{rate}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the self-play report; returns the exit status (0)."""
    parser = argparse.ArgumentParser(prog="veillee selfplay charlemagne")
    parser.add_argument("--hands", type=int, default=2000, help="hands of each kind to play")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(list(argv) if argv is not None else None)
    if args.hands < 1:
        parser.error("--hands must be at least 1")

    tally, rate = contract_stats(args.hands, args.seed)
    print(f"Charlemagne self-play: {args.hands} computer-only hands, seed {args.seed}")
    _print_contracts(tally)
    total = sum(tally.points)
    print(
        f"average points per hand: {total / tally.hands:.2f}  (NS {tally.points[0]}, "
        f"EW {tally.points[1]})"
    )
    print(f"hands per second: {rate:.0f}")

    ours, theirs, dup = duplicate_share(args.hands, args.seed)
    share = 100 * ours / (ours + theirs) if ours + theirs else 0.0
    print()
    print(f"Duplicate deals against the greedy team: {args.hands} deals x 2 = {dup.hands} hands")
    print(
        f"computer team points: {ours}  greedy team points: {theirs}  computer share: {share:.1f}%"
    )
    return 0
