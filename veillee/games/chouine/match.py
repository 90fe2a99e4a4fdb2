"""The Chouine match: one manche, best of 3 (first to 2) or best of 5 (first to 3).

Implements rules/chouine.md §2 under the match contract of docs/game-contract.md: a random first
dealer; after a decided partie the deal passes to the other seat; after a tie the same seat deals
again and nothing is scored; the match ends the moment a seat reaches the target.

>>> import random
>>> m = new_match(random.Random(1), {"best_of": 3})
>>> m.wins, m.partie, to_act(m) == 1 - m.dealer
((0, 0), 1, True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from veillee.games import IllegalAction
from veillee.games.chouine import INFO, rules, views
from veillee.games.chouine.rules import Action, State
from veillee.games.contract import BadOptions

seats = INFO.seats
"""Number of seats at a Chouine table."""


class Result(NamedTuple):
    """One finished partie: its number, winner (``None`` for a tie), totals (``None`` after a
    chouine) and the seat whose chouine ended it (or ``None``)."""

    partie: int
    winner: int | None
    totals: tuple[int, int] | None
    chouine: int | None


class Match(NamedTuple):
    """An immutable match: ``best_of`` 3 or 5, ``wins`` per seat, ``partie`` (number of the
    current partie, ties included), its ``dealer``, the finished parties' ``results`` and the
    current partie's state ``deal``."""

    best_of: int
    wins: tuple[int, int]
    partie: int
    dealer: int
    results: tuple[Result, ...]
    deal: State


def target(m: Match) -> int:
    """Partie wins needed to win the match: 2 in best of 3, 3 in best of 5."""
    return m.best_of // 2 + 1


def new_match(
    rng: random.Random, options: Mapping[str, int], *, first_dealer: int | None = None
) -> Match:
    """A new match with ``options`` (``{"best_of": 3 | 5}``, best of 5 when not given) whose
    first partie is dealt with ``rng``; the first dealer is drawn from ``rng`` unless
    ``first_dealer`` is given (tests). Raises :class:`~veillee.games.contract.BadOptions` (a
    ``ValueError``) for an unknown option or an even ``best_of`` (tables offer 3 and 5:
    ``INFO.table_options``)."""
    best_of = _best_of(options)
    dealer = rng.randrange(2) if first_dealer is None else first_dealer
    return Match(best_of, (0, 0), 1, dealer, (), rules.deal_random(rng, dealer=dealer))


def _best_of(options: Mapping[str, int]) -> int:
    # A manche is won by the first to more than half its parties: an odd count (rules §2).
    best_of = INFO.match_options(options)["best_of"]
    if best_of < 1 or best_of % 2 == 0:
        raise BadOptions("best_of")
    return best_of


def start_match(state: State, options: Mapping[str, int]) -> Match:
    """A match whose first partie is ``state`` (its dealer deals first; a finished partie is
    scored at once); for tests and tools. Raises ``BadOptions`` like :func:`new_match`."""
    best_of = _best_of(options)
    return _settle(Match(best_of, (0, 0), 1, state.dealer, (), state))


def to_act(m: Match) -> int | None:
    """Seat to act in the current partie, ``None`` when it (or the match) is over."""
    return None if is_over(m) else m.deal.to_act


def legal_actions(m: Match) -> list[Action]:
    """The current partie's legal actions (``[]`` when it or the match is over)."""
    return [] if is_over(m) else rules.legal_actions(m.deal)


def why_illegal(m: Match, seat: int, action: Action) -> str | None:
    """Reason code why ``seat`` may not take ``action`` now (``"match_over"``, ``"deal_over"``,
    ``"not_your_turn"`` or a rules reason), or ``None``."""
    if is_over(m):
        return "match_over"
    return rules.why_illegal(m.deal, seat, action)


def _settle(m: Match) -> Match:
    """Score the current partie once it is over and not yet scored (the next dealer follows from
    its result, :func:`next_dealer`)."""
    out = rules.outcome(m.deal)
    if out is None or len(m.results) >= m.partie:
        return m
    winner = out["winner"]
    totals = out["totals"]
    chouine = out["chouine"]
    assert winner is None or isinstance(winner, int)
    assert chouine is None or isinstance(chouine, int)
    result = Result(
        m.partie,
        winner,
        (totals[0], totals[1]) if isinstance(totals, list) else None,
        chouine,
    )
    wins = list(m.wins)
    if winner is not None:
        wins[winner] += 1
    return m._replace(wins=(wins[0], wins[1]), results=(*m.results, result))


def apply(m: Match, action: Action) -> Match:
    """Apply ``action`` to the current partie; when that ends it, its result is recorded at once.
    Raises :class:`IllegalAction` (``"match_over"`` or a rules reason) and changes nothing."""
    if is_over(m):
        raise IllegalAction("match_over")
    return _settle(m._replace(deal=rules.apply(m.deal, action)))


def deal_over(m: Match) -> bool:
    """True when the current partie is over."""
    return m.deal.to_act is None


def is_over(m: Match) -> bool:
    """True once a seat has reached the target number of partie wins."""
    return max(m.wins) >= target(m)


def winner(m: Match) -> int | None:
    """The seat that won the match, or ``None`` while it runs."""
    if not is_over(m):
        return None
    return 0 if m.wins[0] > m.wins[1] else 1


def score(m: Match, seat: int) -> tuple[int, int]:
    """(parties won by ``seat``, parties won by its opponent): the match score as ``seat`` counts
    it (rules §2).

    >>> m = new_match(random.Random(1), {"best_of": 3})._replace(wins=(2, 1))
    >>> score(m, 0), score(m, 1)
    ((2, 1), (1, 2))
    """
    return m.wins[seat], m.wins[1 - seat]


def next_dealer(m: Match) -> int:
    """Dealer of the next partie: the other seat after a decided partie, the same after a tie."""
    if m.results and m.results[-1].partie == m.partie and m.results[-1].winner is None:
        return m.dealer
    return 1 - m.dealer


def _check_next(m: Match) -> int:
    """The next dealer, once the current partie is over and the match is not."""
    if is_over(m):
        raise IllegalAction("match_over")
    if not deal_over(m):
        raise IllegalAction("deal_not_over")
    return next_dealer(m)


def next_deal(m: Match, rng: random.Random) -> Match:
    """Deal the next partie with ``rng`` once the current one is over.

    Raises :class:`IllegalAction` ``"match_over"`` or ``"deal_not_over"``.
    """
    dealer = _check_next(m)
    return m._replace(
        partie=m.partie + 1, dealer=dealer, deal=rules.deal_random(rng, dealer=dealer)
    )


def next_deal_from(m: Match, deck: Sequence[str]) -> Match:
    """Like :func:`next_deal` with an explicit deck (tests and tools). Raises ``ValueError`` for
    a deck that is not the pack."""
    dealer = _check_next(m)
    return m._replace(partie=m.partie + 1, dealer=dealer, deal=rules.deal(deck, dealer=dealer))


def _result_json(r: Result) -> dict[str, Any]:
    return {
        "partie": r.partie,
        "winner": r.winner,
        "totals": list(r.totals) if r.totals is not None else None,
        "chouine": r.chouine,
    }


def summary(m: Match) -> dict[str, Any]:
    """The ``"match"`` part of :func:`view` (docs/chouine-views.md)."""
    return {
        "best_of": m.best_of,
        "wins": list(m.wins),
        "partie": m.partie,
        "dealer": m.dealer,
        "over": is_over(m),
        "winner": winner(m),
        "results": [_result_json(r) for r in m.results],
    }


def view(m: Match, seat: int) -> dict[str, Any]:
    """``{"match": summary, "deal": views.view(m.deal, seat)}``, JSON-ready."""
    return {"match": summary(m), "deal": views.view(m.deal, seat)}


def observation(m: Match, seat: int) -> dict[str, Any]:
    """``{"match": summary, "deal": views.observation(m.deal, seat)}``, JSON-ready."""
    return {"match": summary(m), "deal": views.observation(m.deal, seat)}


def spectator_view(m: Match) -> dict[str, Any]:
    """``{"match": summary, "deal": views.spectator_view(m.deal)}``: both hands face up, for a
    table the computer plays on every seat (a demonstration) and nobody else."""
    return {"match": summary(m), "deal": views.spectator_view(m.deal)}


def to_json(m: Match) -> dict[str, Any]:
    """The match as plain JSON types; :func:`from_json` inverts it exactly."""
    return {
        "best_of": m.best_of,
        "wins": list(m.wins),
        "partie": m.partie,
        "dealer": m.dealer,
        "results": [_result_json(r) for r in m.results],
        "deal": rules.to_json(m.deal),
    }


def from_json(d: dict[str, Any]) -> Match:
    """The match written by :func:`to_json`."""
    return Match(
        best_of=int(d["best_of"]),
        wins=(int(d["wins"][0]), int(d["wins"][1])),
        partie=int(d["partie"]),
        dealer=int(d["dealer"]),
        results=tuple(
            Result(
                int(r["partie"]),
                r["winner"],
                (int(r["totals"][0]), int(r["totals"][1])) if r["totals"] is not None else None,
                r["chouine"],
            )
            for r in d["results"]
        ),
        deal=rules.from_json(d["deal"]),
    )
