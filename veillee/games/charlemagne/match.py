"""A Charlemagne match: hands until a team reaches the target (32), the deal passing left.

Implements rules §2 (random first dealer, deal passes one seat left after every hand, first team
to 32 or more wins at once) and §11, under the match contract of docs/game-contract.md. Teams:
0 = NS, 1 = EW.

>>> import random
>>> m = new_match(random.Random(7), {})
>>> m.scores, m.target, m.hand, is_over(m)
((0, 0), 32, 1, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from veillee.games import IllegalAction
from veillee.games.contract import BadOptions

from . import INFO, rules, views
from .rules import Action, State

seats = INFO.seats
"""Number of seats at a Charlemagne table."""


@dataclass(frozen=True)
class Match:
    """The match value: ``scores`` [NS, EW], ``target``, ``dealer`` of the current hand,
    ``hand`` number (1-based), ``results`` of finished hands (dicts, see :func:`view`),
    ``winner`` team or None, and ``deal`` the current hand's state."""

    target: int
    scores: tuple[int, int]
    dealer: int
    hand: int
    deal: State
    results: tuple[dict[str, Any], ...] = ()
    winner: int | None = None


def new_match(
    rng: random.Random, options: Mapping[str, int], *, first_dealer: int | None = None
) -> Match:
    """A new match with ``options`` (``{"target": 32}``, the default): first dealer drawn with
    ``rng`` (unless ``first_dealer`` is given, for tests), first hand dealt with ``rng``. Raises
    :class:`~veillee.games.contract.BadOptions` (a ``ValueError``) for an unknown option or a
    target below 1 (tables offer 32 only: ``INFO.table_options``; tests shorten matches)."""
    target = _target(options)
    dealer = rng.randrange(seats) if first_dealer is None else first_dealer
    return Match(target, (0, 0), dealer, 1, rules.deal_random(rng, dealer=dealer))


def _target(options: Mapping[str, int]) -> int:
    # Any positive target makes a match (tests play shortened ones); tables offer 32 (rules §2).
    target = INFO.match_options(options)["target"]
    if target < 1:
        raise BadOptions("target")
    return target


def start_match(state: State, options: Mapping[str, int]) -> Match:
    """A match whose current hand is ``state`` (its dealer deals; a finished hand is scored at
    once); for tests and tools. Raises ``BadOptions`` like :func:`new_match`."""
    target = _target(options)
    return _settle(Match(target, (0, 0), state.dealer, 1, state))


def to_act(m: Match) -> int | None:
    """Seat to act in the current hand, None when it is over."""
    return m.deal.to_act


def legal_actions(m: Match) -> list[Action]:
    """``rules.legal_actions`` of the current hand ([] when it is over)."""
    return rules.legal_actions(m.deal)


def deal_over(m: Match) -> bool:
    """True once the current hand has stopped (§10)."""
    return m.deal.phase == "over"


def is_over(m: Match) -> bool:
    """True once a team has reached the target."""
    return m.winner is not None


def winner(m: Match) -> int | None:
    """The winning team (0 = NS, 1 = EW), or None while the match runs."""
    return m.winner


def why_illegal(m: Match, seat: int, action: Action) -> str | None:
    """Reason code why ``seat`` may not take ``action`` now (``"match_over"``, ``"deal_over"``,
    ``"not_your_turn"`` or a rules reason), or ``None``."""
    if is_over(m):
        return "match_over"
    return rules.why_illegal(m.deal, seat, action)


def _settle(m: Match) -> Match:
    """Score the current hand once it is over and not yet scored (§11); the match ends when a
    team reaches the target."""
    result = rules.outcome(m.deal)
    if result is None or len(m.results) >= m.hand:
        return m
    scores = list(m.scores)
    scores[result["scoring_team"]] += result["points"]
    record = {"hand": m.hand, "dealer": m.dealer, **result}
    won = result["scoring_team"] if scores[result["scoring_team"]] >= m.target else None
    return replace(m, scores=(scores[0], scores[1]), results=(*m.results, record), winner=won)


def apply(m: Match, action: Action) -> Match:
    """Apply ``action`` to the current hand; when that ends it, score it at once (§11).

    Raises :class:`veillee.games.IllegalAction` (``"match_over"`` or a rules reason); ``m`` is a
    value and never changes.
    """
    if is_over(m):
        raise IllegalAction("match_over")
    return _settle(replace(m, deal=rules.apply(m.deal, action)))


def _check_next(m: Match) -> int:
    """The next dealer (one seat left, §2), once the current hand is over and the match is not."""
    if is_over(m):
        raise IllegalAction("match_over")
    if not deal_over(m):
        raise IllegalAction("deal_not_over")
    return rules.left(m.dealer)


def next_deal(m: Match, rng: random.Random) -> Match:
    """Deal the next hand with ``rng``, the deal passing one seat left (§2).

    Raises IllegalAction ``deal_not_over`` or ``match_over``.
    """
    dealer = _check_next(m)
    return replace(m, dealer=dealer, hand=m.hand + 1, deal=rules.deal_random(rng, dealer=dealer))


def next_deal_from(m: Match, deck: Sequence[str]) -> Match:
    """Like :func:`next_deal` with an explicit deck (tests and tools). Raises ``ValueError`` for
    a deck that is not the pack."""
    dealer = _check_next(m)
    return replace(m, dealer=dealer, hand=m.hand + 1, deal=rules.deal(deck, dealer=dealer))


def score(m: Match, seat: int) -> tuple[int, int]:
    """(points of ``seat``'s team, points of the other team): the match score as ``seat``
    counts it, toward ``m.target`` (rules §2, §11).

    >>> m = replace(new_match(random.Random(7), {}), scores=(12, 20))
    >>> score(m, 0), score(m, 1), score(m, 2)
    ((12, 20), (20, 12), (12, 20))
    """
    mine = rules.team(seat)
    return m.scores[mine], m.scores[1 - mine]


def _match_part(m: Match) -> dict[str, Any]:
    return {
        "target": m.target,
        "scores": list(m.scores),
        "hand": m.hand,
        "dealer": m.dealer,
        "over": is_over(m),
        "winner": m.winner,
        "results": [dict(r) for r in m.results],
    }


def view(m: Match, seat: int) -> dict[str, Any]:
    """``{"match": {...}, "deal": views.view(current hand, seat)}`` (JSON-ready).

    The match part: ``target``, ``scores`` [NS, EW], ``hand`` number, ``dealer``, ``over``,
    ``winner`` (team or null), ``results`` (per finished hand: ``hand``, ``dealer`` and the
    hand's outcome keys).
    """
    return {"match": _match_part(m), "deal": views.view(m.deal, seat)}


def observation(m: Match, seat: int) -> dict[str, Any]:
    """``{"match": {...}, "deal": views.observation(current hand, seat)}``."""
    return {"match": _match_part(m), "deal": views.observation(m.deal, seat)}


def spectator_view(m: Match) -> dict[str, Any]:
    """``{"match": {...}, "deal": views.spectator_view(current hand)}``: every hand face up, for
    a table the computer plays on every seat (a demonstration) and nobody else."""
    return {"match": _match_part(m), "deal": views.spectator_view(m.deal)}


def to_json(m: Match) -> dict[str, Any]:
    """The match as plain JSON types (server side: the deal part holds hidden cards)."""
    return {
        "target": m.target,
        "scores": list(m.scores),
        "dealer": m.dealer,
        "hand": m.hand,
        "deal": rules.to_json(m.deal),
        "results": [dict(r) for r in m.results],
        "winner": m.winner,
    }


def from_json(data: dict[str, Any]) -> Match:
    """The inverse of :func:`to_json`."""
    return Match(
        target=int(data["target"]),
        scores=(int(data["scores"][0]), int(data["scores"][1])),
        dealer=int(data["dealer"]),
        hand=int(data["hand"]),
        deal=rules.from_json(data["deal"]),
        results=tuple(dict(r) for r in data["results"]),
        winner=data["winner"],
    )
