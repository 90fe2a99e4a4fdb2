"""The strong Chouine computer: a determinized search of the talon phase (issue 24).

Perfect-information Monte Carlo: while the talon lasts (tricks 1–10, rules §4.2) the seat to act
does not know the other hand nor the talon's order. :func:`world` samples them, ``budget``
times, among the cards the observation says are unseen (docs/chouine-views.md: never a card the
seat has not the right to know), keeping what it has seen: its hand, the tricks played, the
turn-up and who took it (by the seven swap or the trick-11 draw), the cards the other seat has
shown by declaring (``opponent_known``), and the partner cards of a declaration just led (the
other seat holds them). Each candidate card is then played in every world (the same worlds for
each, so that their differences are not noise of the sampling) and the partie played out:

- tricks up to 11 by :func:`playout_action`, the usual advice read from the engine's ints (throw
  low non-trumps, keep brisques, trumps and live kings and queens, take a trick cheaply when
  points are on it, declare the best combination, swap the seven under a jack or better): the
  usual level's own action in 99.6 % of the decisions of tricks 1–10;
- tricks 12–16 exactly (:class:`veillee.games.chouine.solver.Trick12`, whose tables serve every
  world of one decision: in a sampled world both hands are known, as they are once the talon is
  gone).

Each result is worth :func:`utility`: a won partie counts by what it changes to the match (from
the match score, best of 3 or 5, rules §2: the partie that wins the match is worth the most),
the point margin a little (rules §7 count: card points, declarations, dix de der; a chouine
wins, §9). :func:`rate` gives each candidate's average over the worlds. The bot keeps the usual
move unless another is better by a clear margin (:func:`clearly_better`): the issue's first
measure found that safeguard decided whether the search beat the usual level at all.

Every card fact (points, who wins a trick, declarations and their points) is the engine's
(:mod:`veillee.games.chouine.rules`), and the worlds are engine states built by
:func:`veillee.games.chouine.positions.position`.

Why one module of this length: the strong level's one search (worlds, playouts, rating,
safeguard), each part used only by the next.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from veillee.games.chouine import solver
from veillee.games.chouine.positions import position
from veillee.games.chouine.rules import (
    BEATEN_BY,
    CHOUINE,
    HOW,
    KIND_INDEX,
    POINTS,
    QUINTE,
    SUIT_COMBINATIONS,
    SUIT_LETTERS,
    SWAP_ACTION,
    Action,
    State,
    apply,
    cards_in,
    code_list,
    declaration_points,
    declaration_totals,
)

STRONG_BUDGET = 100
"""Sampled worlds per decision by default (each candidate card is played out in each)."""

MARGIN_WEIGHT = 0.1
"""What a margin of ``MARGIN_CAP`` points or more adds to a won partie's worth (1 for a partie
that decides the match): the margin breaks near ties, winning the partie comes first."""
MARGIN_CAP = 30
"""Margins beyond this many points count as this many."""

CLEAR_GAIN = 0.02
"""A candidate replaces the usual move only when it is better on average by this much..."""
CLEAR_SIGMAS = 2.0
"""...and by this many standard errors of the paired differences over the same worlds."""


# --- the match: what a partie is worth ------------------------------------------------------


@cache
def match_chance(mine: int, theirs: int, target: int) -> float:
    """Chance to win the match from ``mine`` to ``theirs`` wins, ``target`` wins needed, each
    partie an even chance (ties, which score nothing, left out: rules §2)."""
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return 0.5 * (match_chance(mine + 1, theirs, target) + match_chance(mine, theirs + 1, target))


def partie_stake(observation: Mapping[str, Any], seat: int) -> float:
    """What winning rather than losing this partie changes to the chance of winning the match,
    from ``observation["match"]`` (``best_of``, ``wins``); 1 when the observation has no match
    part or at the partie that decides it (e.g. 2–2 in a best of 5), 0.25 at 2–0."""
    summary = observation.get("match")
    if not isinstance(summary, Mapping):
        return 1.0
    wins = summary.get("wins")
    best_of = summary.get("best_of")
    if not isinstance(wins, Sequence) or not isinstance(best_of, int) or len(wins) != 2:
        return 1.0
    target = best_of // 2 + 1
    mine, theirs = int(wins[seat]), int(wins[1 - seat])
    if max(mine, theirs) >= target:
        return 1.0
    return match_chance(mine + 1, theirs, target) - match_chance(mine, theirs + 1, target)


def utility(difference: int, stake: float) -> float:
    """Worth of a final point difference (mine minus theirs; a chouine ±``solver.CHOUINE``):
    ``±stake`` for a won or lost partie, 0 for a tie, plus up to ``±MARGIN_WEIGHT`` for the
    margin, in proportion up to ``MARGIN_CAP`` points."""
    margin = max(-MARGIN_CAP, min(MARGIN_CAP, difference)) / MARGIN_CAP * MARGIN_WEIGHT
    if difference > 0:
        return stake + margin
    if difference < 0:
        return -stake + margin
    return 0.0


# --- the worlds -----------------------------------------------------------------------------


def _declarations(
    deal: Mapping[str, Any],
) -> list[tuple[int, str, str | None, int, list[str], int, str]]:
    """The declarations made so far, as :func:`position` takes them: each seat's in the order of
    ``plays`` (its trick and card), with the cards ``declarations`` shows of it."""
    shown = [list(deal["declarations"][0]), list(deal["declarations"][1])]
    out = []
    for play in deal["plays"]:
        d = play.get("declaration")
        if d is None:
            continue
        seat = play["seat"]
        cards = shown[seat].pop(0)["cards"] if shown[seat] else [play["card"]]
        out.append(
            (seat, d["kind"], d["suit"], d["points"], list(cards), play["trick"], play["card"])
        )
    return out


def _held_by_declaration(deal: Mapping[str, Any], unseen: set[str]) -> list[str]:
    """Unseen cards the other seat must hold: the rest of the suit combination it has just
    declared with the card it led to the open trick (shown only once the trick is complete,
    rules §5.2)."""
    trick = deal["trick"]
    if not trick or trick[0].get("declaration") is None:
        return []
    d = trick[0]["declaration"]
    kind = KIND_INDEX[d["kind"]]
    if kind == QUINTE or d["suit"] is None:
        return []
    byte = next(b for k, b, _ in SUIT_COMBINATIONS if k == kind)
    combination = code_list(byte << 8 * SUIT_LETTERS.index(d["suit"]))
    return sorted(unseen.intersection(combination))


@dataclass(frozen=True)
class Known:
    """What a talon-phase observation fixes of every world: the seat, what the other hand holds
    for sure, the unseen cards and how many of them the other hand holds."""

    deal: Mapping[str, Any]
    seat: int
    theirs_known: tuple[str, ...]
    unseen: tuple[str, ...]
    theirs_unknown: int


def known(observation: Mapping[str, Any]) -> Known:
    """The :class:`Known` of a match or partie observation (docs/chouine-views.md) of the seat
    to act while the talon lasts. Raises ValueError when the talon is not in play (two or more
    face-down cards and the turn-up) or the counts do not add up."""
    deal = observation.get("deal")
    deal = deal if isinstance(deal, Mapping) else observation
    if deal["talon_count"] < 2 or deal.get("turn_up") is None or deal["prompt"] is not None:
        raise ValueError("not a talon-phase card play")
    seat = deal["seat"]
    them = 1 - seat
    unseen = set(deal["unseen"])
    held = _held_by_declaration(deal, unseen)
    theirs_known = tuple(deal["opponent_known"]) + tuple(held)
    theirs_unknown = deal["hand_counts"][them] - len(theirs_known)
    if theirs_unknown < 0 or theirs_unknown + deal["talon_count"] != len(unseen) - len(held):
        raise ValueError("the unseen cards do not fill the other hand and the talon")
    rest = tuple(sorted(unseen.difference(held)))
    return Known(deal, seat, theirs_known, rest, theirs_unknown)


def world(k: Known, rng: random.Random) -> State:
    """One engine state the observation cannot tell from the real one: the unseen cards dealt at
    random between the other hand and the talon."""
    deal = k.deal
    cards = list(k.unseen)
    rng.shuffle(cards)
    theirs = [*k.theirs_known, *cards[: k.theirs_unknown]]
    talon = cards[k.theirs_unknown :]
    hands = (deal["hand"], theirs) if k.seat == 0 else (theirs, deal["hand"])
    trick = deal["trick"]
    piles: tuple[list[str], list[str]] = ([], [])
    for t in deal["tricks"]:
        piles[t["winner"]].extend(c["card"] for c in t["cards"])
    return position(
        deal["trump"],
        hands,
        trick_number=deal["trick_number"],
        leader=trick[0]["seat"] if trick else k.seat,
        trick=[c["card"] for c in trick],
        turn_up=deal["turn_up"],
        talon=talon,
        piles=piles,
        trick_winners=[t["winner"] for t in deal["tricks"]],
        dealer=deal["dealer"],
        declarations=_declarations(deal),
        to_act=k.seat,
        taken_turn_ups=[
            (t["seat"], t["card"], HOW.index(t["how"])) for t in deal["taken_turn_ups"]
        ],
    )


# --- the playouts ---------------------------------------------------------------------------


def _keep_values(trump: int) -> tuple[float, ...]:
    """What keeping each card is worth beyond its points while the talon lasts, before the
    bonus of its combinations: the usual advice's discard order (``bot._Memory.keep_value``):
    non-trump sevens to nines least, then jacks, kings and queens, brisques, and trumps most."""
    out = []
    for card in range(32):
        rank, suit = card & 7, card >> 3
        if suit == trump:
            value = (7.0, 8.0, 9.0, 10.0, 10.0, 10.0, 20.0, 25.0)[rank]
        else:
            value = (0.1, 0.2, 0.3, 1.0, 1.0, 1.0, 3.0, 4.0)[rank]
        out.append(value)
    return tuple(out)


def _declared_values(trump: int) -> tuple[float, ...]:
    """What a card is still worth keeping once it has declared its combination (the usual
    advice's ``after_declaring``)."""
    out = []
    for card in range(32):
        rank, suit = card & 7, card >> 3
        if suit == trump:
            out.append({3: 10.0, 4: 10.0, 5: 10.0, 6: 20.0, 7: 25.0}.get(rank, 8.0))
        else:
            out.append(1.0)
    return tuple(out)


_KEEP: tuple[tuple[float, ...], ...] = tuple(_keep_values(t) for t in range(4))
_KEEP_DECLARED: tuple[tuple[float, ...], ...] = tuple(_declared_values(t) for t in range(4))
_JACK, _QUEEN, _KING = 3, 4, 5
"""Rank indexes of the jack, the queen and the king (rules: ``RANK_LETTERS``)."""
_SWAP_UNDER = 3
"""Turn-up ranks from the jack up (J Q K T A): the seven is swapped under them at once."""


def playout_action(state: State) -> Action:
    """The action a playout takes for ``state.to_act`` up to trick 11: the usual advice
    (``bot._talon_play``) read from the engine's ints, with the seat's memory taken as the cards
    played (those shown by declarations still in the other hand are not remembered). A chouine at
    once; the seven swap at once under a jack or better, else at the prompt or before leading
    trick 11. A lead scores its declaration's points, less what the card is worth keeping and
    what it exposes; an answer also scores the trick's points, won or lost. The best score is
    played; on a tie the card least worth keeping, then the weakest, as the advice does."""
    actions = state.actions
    seat, trump, trick = state.to_act, state.trump, state.trick
    assert seat is not None
    hand = state.hand_1 if seat else state.hand_0
    swap: Action | None = None
    plays = []
    for action in actions:
        facts = action.play_facts
        if facts is None:
            if action is SWAP_ACTION:
                swap = action
            else:
                plays.append((0, 0, action))  # "continue", answering the prompt
            continue
        if facts[1] == CHOUINE:
            return action
        plays.append((facts[0], facts[1], action))
    if swap is not None and (
        state.prompt or state.turn_up & 7 >= _SWAP_UNDER or (state.trick_number == 11 and not trick)
    ):
        return swap
    if state.prompt:
        return plays[0][2]
    keep = _KEEP[trump]
    declared = state.declared_suits[seat]
    piles = state.piles
    played = piles[0] | piles[1]
    for c in trick:
        played |= 1 << c
    best: Action | None = None
    best_key = (-1e9, 0.0, 0, 0)
    for card, kind, action in plays:
        rank, suit = card & 7, card >> 3
        worth = keep[card]
        if rank >= _JACK and rank <= _KING and not declared >> suit & 1:
            if rank == _JACK:
                if not played >> (card + 1) & 1 and not played >> (card + 2) & 1:
                    worth += 3.0
            else:
                partner = card + 1 if rank == _QUEEN else card - 1
                if not played >> partner & 1:
                    bonus = 12.0 if hand >> partner & 1 else 8.0
                    worth += 2 * bonus if suit == trump else bonus
        if kind:
            score = declaration_points(kind, suit, trump) - _KEEP_DECLARED[trump][card]
        else:
            score = -worth
        if trick:
            lead = trick[0]
            points = POINTS[lead] + POINTS[card]
            score += points + 0.5 if BEATEN_BY[trump][lead] >> card & 1 else -points
        else:
            score -= POINTS[card] * (0.4 if suit == trump else 0.9)
        key = (score, -worth, -rank, suit)  # (suit: C, D, H, S as the advice's card codes)
        if key > best_key:
            best, best_key = action, key
    assert best is not None
    return best


def _declared_mask(state: State, seat: int) -> int:
    mask = state.declared_suits[seat]
    return mask | solver.QUINTE_BIT if state.quinte_declared[seat] else mask


def final_difference(state: State, seat: int, endings: solver.Trick12) -> int:
    """``seat``'s final point difference (its total minus the other's, rules §7) when ``state``
    is played out: :func:`playout_action` for both seats up to trick 11, then exact play from
    trick 12 on (``endings``, of the partie's trump: in a sampled world both hands are known);
    ``±solver.CHOUINE`` when a chouine ends the partie (§9). Exact only as far as
    :func:`utility` tells differences apart: beyond a margin of ``MARGIN_CAP`` points it is a
    bound on the same side."""
    while state.to_act is not None and (state.trick_number <= 11 or state.trick):
        state = apply(state, playout_action(state))
    if state.to_act is None:  # (before trick 12 only a chouine ends the partie)
        return solver.CHOUINE if state.chouine == seat else -solver.CHOUINE
    totals = state_totals(state)
    leader = state.leader
    hands = state.hands
    settled = totals[leader] - totals[1 - leader]
    future = endings.value(
        hands[leader],
        hands[1 - leader],
        _declared_mask(state, leader),
        _declared_mask(state, 1 - leader),
        -MARGIN_CAP - 1 - settled,
        MARGIN_CAP + 1 - settled,
    )
    difference = future if abs(future) >= solver.CHOUINE else settled + future
    return difference if leader == seat else -difference


def state_totals(state: State) -> tuple[int, int]:
    """Each seat's points so far in a partie still running: the card points of its pile and its
    declarations (rules §7)."""
    declared = declaration_totals(state)
    piles = state.piles
    return (
        sum(POINTS[c] for c in cards_in(piles[0])) + declared[0],
        sum(POINTS[c] for c in cards_in(piles[1])) + declared[1],
    )


# --- the choice -----------------------------------------------------------------------------


def rate(
    observation: Mapping[str, Any], candidates: Sequence[Action], budget: int, rng: random.Random
) -> list[list[float]]:
    """The :func:`utility` of each of ``candidates`` (actions of the seat to act, legal now) in
    each of ``budget`` sampled worlds: ``out[i][w]`` for candidate ``i`` in world ``w``, the same
    worlds for every candidate. Raises ValueError as :func:`known` does."""
    k = known(observation)
    stake = partie_stake(observation, k.seat)
    endings = solver.Trick12(SUIT_LETTERS.index(k.deal["trump"]))
    out: list[list[float]] = [[] for _ in candidates]
    for _ in range(budget):
        w = world(k, rng)
        for i, action in enumerate(candidates):
            difference = final_difference(apply(w, action), k.seat, endings)
            out[i].append(utility(difference, stake))
    return out


def clearly_better(gains: Sequence[float]) -> bool:
    """True when paired gains (a candidate's utility minus the usual move's, world by world) say
    the candidate is better: their mean above ``CLEAR_GAIN`` and ``CLEAR_SIGMAS`` standard
    errors."""
    n = len(gains)
    if n < 2:
        return False
    mean = sum(gains) / n
    variance = sum((g - mean) ** 2 for g in gains) / (n - 1)
    return mean > CLEAR_GAIN and mean > CLEAR_SIGMAS * math.sqrt(variance / n)


def best_candidate(
    observation: Mapping[str, Any],
    candidates: Sequence[Action],
    usual: Action,
    budget: int,
    rng: random.Random,
) -> Action:
    """The candidate with the best average over ``budget`` sampled worlds when it is
    :func:`clearly_better` than ``usual`` (one of ``candidates``), else ``usual``."""
    values = rate(observation, candidates, budget, rng)
    means = [sum(v) / len(v) for v in values]
    best = max(range(len(candidates)), key=lambda i: means[i])
    mine = values[candidates.index(usual)]
    gains = [a - b for a, b in zip(values[best], mine, strict=True)]
    return candidates[best] if clearly_better(gains) else usual
