"""Computer players for Charlemagne, deciding from a seat's observation only.

``choose(observation, legal_actions, rng)`` is the computer player of the product page: it bids
by adding up the tricks it expects from jokers, jacks and high cards, keeps 8 and Charlemagne for
a hand holding both jokers, both jacks of a colour and the ace of that suit, never bids Gros Mulot,
passes a joker, then a jack, then an ace when asked for a blind card, and plays simple sound
card-play (cheapest winning card, never overtaking a winning partner, trumps led when strong,
losing every trick in Mulot, winning every trick in Charlemagne).

``greedy_choose`` is the plain baseline it is measured against (``veillee selfplay``): it bids by
counting jokers, jacks and aces, and plays the cheapest winning card unless its partner is winning.

Both read only the dict of ``views.observation(state, seat)`` (rules §12) and the list of legal
actions; neither can reach the state.

Why one module of this length: the usual level's advice for every phase (bid, discard,
trump, play) and the greedy baseline, whose helpers the strong level's playouts reuse
(:mod:`.search`), so that each heuristic exists once.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Collection, Sequence
from typing import Any

from veillee.cards import PIQUET_JOKERS_34, SUITS, is_joker, rank, same_colour, suit

from .rules import (
    LADDER,
    NUMBER_BIDS,
    TRUMPLESS,
    Action,
    effective_suit,
    strength,
    team,
    trick_winner,
)

Observation = dict[str, Any]

MULOT_DANGER = 2.0
"""Highest :func:`_mulot_danger` at which the computer bids Mulot."""

_RANK_VALUE: dict[str, int] = {"A": 7, "K": 6, "Q": 5, "J": 4, "T": 3, "9": 2, "8": 1, "7": 0}


# --- what the seat knows ---------------------------------------------------------------------


def _trick(obs: Observation) -> list[tuple[int, str]]:
    return [(p["seat"], p["card"]) for p in obs["trick"]]


def _unseen(obs: Observation) -> set[str]:
    """Cards this seat has not seen: possibly in another hand, the kitty or a discard."""
    seen = set(obs["hand"])
    seen |= {p["card"] for p in obs["plays"]}
    for key in ("kitty", "discards", "spread"):
        if obs.get(key):
            seen |= set(obs[key])
    if obs.get("blind_card"):
        seen.add(obs["blind_card"])
    return set(PIQUET_JOKERS_34) - seen


def _trump_of(obs: Observation) -> str | None:
    trump: str | None = obs["trump"]
    return trump


def _is_boss(card: str, trump: str | None, unseen: set[str]) -> bool:
    """True if no unseen card of the same effective suit is stronger. (An unseen trump may
    still ruff a plain-suit boss; callers weigh that.)"""
    eff = effective_suit(card, trump)
    mine = strength(card, trump)
    return not any(effective_suit(c, trump) == eff and strength(c, trump) > mine for c in unseen)


def _cost(card: str, trump: str | None) -> tuple[int, int]:
    """How dear a card is to give up: trumps (or jokers) last, then by strength."""
    top = trump if trump is not None else "JOKER"
    return (1 if effective_suit(card, trump) == top else 0, strength(card, trump))


def _wins_now(trick: list[tuple[int, str]], seat: int, card: str, trump: str | None) -> bool:
    return trick_winner([*trick, (seat, card)], trump) == seat


def _seats_after(obs: Observation, trick_len: int) -> int:
    players = 3 if obs["sitting_out"] is not None else 4
    return players - trick_len - 1


# --- hand evaluation ---------------------------------------------------------------------------


_TRUMP_ORDER: dict[str, tuple[str, ...]] = {
    t: tuple(
        sorted(
            (c for c in PIQUET_JOKERS_34 if effective_suit(c, t) == t),
            key=lambda c: -strength(c, t),
        )
    )
    for t in SUITS
}
"""The eleven trumps of each trump suit, strongest first (§6.1)."""


def _trump_estimate(hand: Collection[str], t: str) -> float:
    """Tricks this hand should take alone with ``t`` as trump (a rough count)."""
    trumps = [c for c in hand if effective_suit(c, t) == t]
    est = 0.0
    # a held trump is worth more the fewer stronger trumps are missing above it
    order = _TRUMP_ORDER[t]
    held = set(trumps)
    missing_above = 0
    for c in order:
        if c in held:
            if missing_above == 0:
                est += 1.0
            elif missing_above == 1:
                est += 0.6 if len(trumps) >= 3 else 0.35
            elif missing_above == 2:
                est += 0.35 if len(trumps) >= 4 else 0.15
            else:
                est += 0.1
        else:
            missing_above += 1
    est += 0.55 * max(0, len(trumps) - 3)
    for s in SUITS:
        if s == t:
            continue
        side = [c for c in hand if effective_suit(c, t) == s]
        ranks = {rank(c) for c in side}
        if "A" in ranks:
            est += 0.85 if len(side) <= 4 else 0.6
            if "K" in ranks and len(side) <= 3:
                est += 0.5
        elif "K" in ranks and len(side) >= 2:
            est += 0.25
        if not side and len(trumps) >= 3:
            est += 0.3
    return est


def _best_trump(hand: Sequence[str]) -> tuple[str, float]:
    return _best_trump_of(frozenset(hand))


@functools.lru_cache(maxsize=4096)
def _best_trump_of(hand: frozenset[str]) -> tuple[str, float]:
    """:func:`_best_trump` of a set of cards, kept: the strong level's playouts ask it of the
    same hands again and again."""
    estimates = {t: _trump_estimate(hand, t) for t in SUITS}
    best = max(SUITS, key=lambda t: (estimates[t], -SUITS.index(t)))
    return best, estimates[best]


def _has_top_five(hand: Sequence[str]) -> bool:
    """Both jokers, both jacks of a colour and the ace of a suit of that colour."""
    if "BJ" not in hand or "LJ" not in hand:
        return False
    return any({"J" + t, "J" + same_colour(t), "A" + t} <= set(hand) for t in SUITS)


def _mulot_danger(hand: Sequence[str]) -> float:
    """How likely this hand is to be forced to win a trick with no trumps (0 = safe)."""
    if any(is_joker(c) for c in hand):
        return 99.0
    danger = 0.0
    voids = 0
    for s in SUITS:
        mine = sorted(_RANK_VALUE[rank(c)] for c in hand if suit(c) == s)
        if not mine:
            voids += 1
            continue
        for i, v in enumerate(mine):
            # others can lead under a card as often as they hold cards below it, and we can
            # duck only with our own lower cards
            lower_elsewhere = v - i
            danger += max(0, lower_elsewhere - 2 * i - 1)
    return max(0.0, danger - 1.5 * voids)


# --- the computer player ---------------------------------------------------------------------


def _ladder_index(bid: str | None) -> int:
    return -1 if bid is None else LADDER.index(bid)


def _choose_bid(obs: Observation, legal: Sequence[Action]) -> Action:
    hand = obs["hand"]
    seat = obs["seat"]
    bids = [b for b in obs["bids"] if b["bid"] != "pass"]
    highest = bids[-1]["bid"] if bids else None
    partner_high = bool(bids) and team(bids[-1]["seat"]) == team(seat)
    _, own = _best_trump(hand)
    team_est = own + 2.0  # the partner's help and the two kitty cards, on average
    wanted: list[str] = []
    if _has_top_five(hand) and own >= 6.3:
        wanted.append("charlemagne")
    if _has_top_five(hand) and own >= 7.8:
        wanted.append("gros-charlemagne")
    if _mulot_danger(hand) <= MULOT_DANGER:
        wanted.append("mulot")
    if _has_top_five(hand) and team_est >= 8.5:
        wanted.append("8")
    number = min(7, int(team_est))
    if number >= 5:
        wanted += [str(n) for n in range(5, number + 1)]
    # the best we would play that still outbids; over a partner only with a solo bid
    legal_bids = {a.value: a for a in legal if a.kind == "bid"}
    options = [b for b in wanted if b in legal_bids and _ladder_index(b) > _ladder_index(highest)]
    if partner_high:
        options = [b for b in options if b not in NUMBER_BIDS]
    if options:
        return legal_bids[max(options, key=LADDER.index)]
    if any(a.kind == "pass" for a in legal):
        return Action.pass_()
    # dealer stuck: the cheapest failure, or Mulot when the hand is low
    if "mulot" in legal_bids and _mulot_danger(hand) <= MULOT_DANGER + 1.0:
        return legal_bids["mulot"]
    return legal_bids["5"]


def _keep_value(card: str, hand: Sequence[str], t: str) -> float:
    if effective_suit(card, t) == t:
        return 100.0 + strength(card, t)
    s = suit(card)
    side = [c for c in hand if effective_suit(c, t) == s]
    r = rank(card)
    value = _RANK_VALUE[r] * 0.5
    if r == "A":
        value = 20.0
    elif r == "K" and ("A" + s) in side:
        value = 12.0
    # cards of short side suits go first so as to make voids
    return value + len(side) * 0.8


def _plan_discard(hand: Sequence[str], n: int) -> tuple[tuple[str, ...], str]:
    best: tuple[float, tuple[str, ...], str] | None = None
    for t in SUITS:
        ordered = sorted(hand, key=lambda c: _keep_value(c, hand, t))
        drop = tuple(ordered[:n])
        keep = [c for c in hand if c not in drop]
        est = _trump_estimate(keep, t)
        if best is None or est > best[0]:
            best = (est, drop, t)
    assert best is not None
    return best[1], best[2]


def _give(hand: Sequence[str]) -> str:
    for wanted in (("BJ", "LJ"), tuple(c for c in hand if rank(c) == "J")):
        for c in wanted:
            if c in hand:
                return c
    aces = [c for c in hand if rank(c) == "A"]
    if aces:
        return aces[0]
    return max(hand, key=lambda c: _RANK_VALUE.get(rank(c), 8))


def _play_to_win(obs: Observation, cards: list[str]) -> str:
    """Card play when tricks are wanted (number contracts both sides; Charlemagne both sides)."""
    seat = obs["seat"]
    trump = _trump_of(obs)
    trick = _trick(obs)
    unseen = _unseen(obs)
    hand = obs["hand"]
    bidder = obs["bidder"]
    solo_bidder = obs["contract"] not in NUMBER_BIDS and seat == bidder
    my_side = team(bidder) == team(seat)
    if not trick:
        trumps = sorted(
            (c for c in cards if effective_suit(c, trump) == trump),
            key=lambda c: -strength(c, trump),
        )
        trumps_out = any(effective_suit(c, trump) == trump for c in unseen)
        if (
            (solo_bidder or my_side)
            and trumps
            and trumps_out
            and (_is_boss(trumps[0], trump, unseen) or solo_bidder or len(trumps) >= 4)
        ):
            return trumps[0]
        bosses = [
            c for c in cards if effective_suit(c, trump) != trump and _is_boss(c, trump, unseen)
        ]
        if bosses:
            return max(bosses, key=lambda c: strength(c, trump))
        if solo_bidder:
            return max(cards, key=lambda c: _cost(c, trump))
        side = [c for c in cards if effective_suit(c, trump) != trump]
        pool = side or cards

        # a low card from the shortest side suit, to get void for ruffing later
        def lead_key(c: str) -> tuple[int, int]:
            length = sum(1 for h in hand if effective_suit(h, trump) == effective_suit(c, trump))
            return (length, strength(c, trump))

        return min(pool, key=lead_key)
    winner = trick_winner(trick, trump)
    after = _seats_after(obs, len(trick))
    if team(winner) == team(seat) and not solo_bidder:
        # never overtake a winning partner: give it the cheapest card
        return min(cards, key=lambda c: _cost(c, trump))
    winners = [c for c in cards if _wins_now(trick, seat, c, trump)]
    if winners:
        if after > 0:
            bosses = [c for c in winners if _is_boss(c, trump, unseen)]
            if bosses:
                return min(bosses, key=lambda c: _cost(c, trump))
        return min(winners, key=lambda c: _cost(c, trump))
    return min(cards, key=lambda c: _cost(c, trump))


def _play_mulot(obs: Observation, cards: list[str]) -> str:
    """Card play in Mulot / Gros Mulot: the bidder ducks, the opponents try to make it win."""
    seat = obs["seat"]
    trick = _trick(obs)
    unseen = _unseen(obs)
    bidder = obs["bidder"]
    if seat == bidder:
        if not trick:
            if "LJ" in cards and "BJ" in unseen:
                return "LJ"

            # lead the card with the fewest unseen cards below it: others cannot duck under
            def lead_key(c: str) -> tuple[int, int]:
                same = [u for u in unseen if not is_joker(u) and suit(u) == suit(c)]
                lower = sum(1 for u in same if strength(u, None) < strength(c, None))
                higher = len(same) - lower
                return (lower, -higher)

            return min(cards, key=lead_key)
        losers = [c for c in cards if not _wins_now(trick, seat, c, None)]
        if losers:
            return max(losers, key=lambda c: _cost(c, None))
        if _seats_after(obs, len(trick)) > 0:
            return min(cards, key=lambda c: _cost(c, None))
        return max(cards, key=lambda c: _cost(c, None))
    spread: list[str] = obs.get("spread") or []
    if not trick:
        # lead low into a suit the bidder holds (known from the spread), else our lowest card
        plain = [c for c in cards if not is_joker(c)] or cards
        if spread:

            def exposure(c: str) -> tuple[int, int]:
                theirs = [s for s in spread if not is_joker(s) and suit(s) == suit(c)]
                above = sum(1 for s in theirs if strength(s, None) > strength(c, None))
                below = len(theirs) - above
                return (-(above > 0 and below == 0), strength(c, None))

            return min(plain, key=exposure)
        return min(plain, key=lambda c: strength(c, None))
    bidder_played = any(p == bidder for p, _ in trick)
    winner = trick_winner(trick, None)
    if bidder_played:
        if winner == bidder:
            ducks = [c for c in cards if not _wins_now(trick, seat, c, None)]
            if ducks:
                return max(ducks, key=lambda c: _cost(c, None))
            return min(cards, key=lambda c: _cost(c, None))
        return max(cards, key=lambda c: _cost(c, None))
    # the bidder plays after us: stay low so its card may be forced over ours
    return min(cards, key=lambda c: _cost(c, None))


LEVELS: tuple[str, ...] = ("usual", "strong")
"""The computer's levels, the usual one first (issue 24; docs/charlemagne-views.md)."""


def choose(
    observation: Observation,
    legal_actions: Sequence[Action],
    rng: random.Random | None = None,
    *,
    level: str = "usual",
    budget: int | None = None,
) -> Action:
    """The computer player's action, one of ``legal_actions``.

    ``observation`` is ``views.observation(state, seat)`` (or the match observation
    ``{"match": …, "deal": …}``). ``level`` is one of :data:`LEVELS`: ``"usual"`` plays the
    product page's advice and is deterministic (``rng`` is accepted for the contract);
    ``"strong"`` searches sampled deals (:func:`veillee.games.charlemagne.search.choose`), its
    size ``budget`` sampled deals a decision (None: ``search.STRONG_BUDGET``), its samples drawn
    from ``rng`` only, so the same ``rng`` state gives the same choice. Raises ValueError if
    ``legal_actions`` is empty or ``level`` is not one of :data:`LEVELS`.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}; levels are {', '.join(LEVELS)}")
    if not legal_actions:
        raise ValueError("no legal action")
    if level == "strong":
        from . import search  # the search plays out with this module's usual level

        return search.choose(observation, legal_actions, rng, budget=budget)
    obs = observation.get("deal", observation)  # the match observation wraps the hand
    phase = obs["phase"]
    hand: list[str] = obs["hand"]
    if phase == "auction":
        return _choose_bid(obs, legal_actions)
    if phase == "choose":
        return Action.choose("card")
    if phase == "give":
        return Action.give(_give(hand))
    if phase == "discard":
        n = len(legal_actions[0].cards)
        drop, _ = _plan_discard(hand, n)
        return Action.discard(drop)
    if phase == "trump":
        t, _ = _best_trump(hand)
        return Action.trump(t)
    cards = [a.card for a in legal_actions]
    if len(cards) == 1:
        return legal_actions[0]
    if obs["contract"] in TRUMPLESS:
        return Action.play(_play_mulot(obs, cards))
    return Action.play(_play_to_win(obs, cards))


# --- the greedy baseline ----------------------------------------------------------------------


def greedy_choose(
    observation: Observation,
    legal_actions: Sequence[Action],
    rng: random.Random | None = None,
) -> Action:
    """The baseline: bids 5/6/7 on 4/5/6+ jokers, jacks and aces, never a solo bid; trumps its
    longest suit; leads its strongest card; plays the cheapest winning card unless its partner
    is winning, else its cheapest card."""
    if not legal_actions:
        raise ValueError("no legal action")
    obs = observation.get("deal", observation)  # the match observation wraps the hand
    phase = obs["phase"]
    hand: list[str] = obs["hand"]
    seat = obs["seat"]
    if phase == "auction":
        count = sum(1 for c in hand if is_joker(c) or rank(c) in ("J", "A"))
        want = {4: "5", 5: "6"}.get(count, "7" if count >= 6 else None)
        legal_bids = {a.value: a for a in legal_actions if a.kind == "bid"}
        if want is not None and want in legal_bids:
            return legal_bids[want]
        if any(a.kind == "pass" for a in legal_actions):
            return Action.pass_()
        return legal_bids["5"]
    if phase == "choose":
        return Action.choose("kitty")
    if phase == "give":
        return Action.give(_give(hand))
    if phase == "discard":
        n = len(legal_actions[0].cards)
        ordered = sorted(
            hand,
            key=lambda c: (is_joker(c) or rank(c) in ("J", "A"), _RANK_VALUE.get(rank(c), 9)),
        )
        return Action.discard(ordered[:n])
    if phase == "trump":
        counts = {s: sum(1 for c in hand if not is_joker(c) and suit(c) == s) for s in SUITS}
        return Action.trump(max(SUITS, key=lambda s: counts[s]))
    trump = _trump_of(obs)
    cards = [a.card for a in legal_actions]
    trick = _trick(obs)
    if not trick:
        return Action.play(max(cards, key=lambda c: _cost(c, trump)))
    winner = trick_winner(trick, trump)
    if team(winner) == team(seat):
        return Action.play(min(cards, key=lambda c: _cost(c, trump)))
    winners = [c for c in cards if _wins_now(trick, seat, c, trump)]
    pool = winners or cards
    return Action.play(min(pool, key=lambda c: _cost(c, trump)))
