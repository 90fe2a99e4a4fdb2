"""The match shell: a match of any game, deal after deal, until one side has won it.

Every game's match has one shape (docs/game-contract.md): the current deal (a Chouine partie, a
Charlemagne hand) is played through the game's engine; a finished deal is scored at once; who
deals next follows from it; the match is over the moment a side has reached what the game asks.
:class:`MatchShell` is that shape, written once; a game supplies only its own parts as a
:class:`Parties` value: the engine and views of one deal, the options a match takes, what a
finished deal scores and records, who deals next, and when a side has won. A game's ``match``
module is its :class:`Parties` and one :class:`MatchShell` of them (``MATCH``), which the
registry holds as the game's match contract.

A match value (:class:`Match`) is immutable and plain: its options, the score per side, the
current deal's number, its dealer, the finished deals' records, the deal's state and the winner.
Its JSON and the ``"match"`` part of every view carry the game's own names for the score and
the deal's number (``"wins"`` and ``"partie"`` at Chouine; ``"scores"`` and ``"hand"`` at
Charlemagne), so that stored tables and pages read them as before.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, Protocol

from veillee.games import IllegalAction


class MatchReason(StrEnum):
    """The reason codes a match gives of its own (:meth:`MatchShell.why_illegal`,
    :meth:`MatchShell.apply`, :meth:`MatchShell.next_deal`), beside its engine's (``deal_over``,
    ``not_your_turn`` …): every game's ``REASONS`` lists them too."""

    MATCH_OVER = "match_over"
    """The match is won: nobody acts any more, and no deal follows."""
    DEAL_NOT_OVER = "deal_not_over"
    """The next deal was asked for while the current one is still being played."""


Phase = str | int
"""What a deal is at, in its game's own words (Charlemagne: ``"auction"`` … ``"play"``,
``"over"``; Chouine: 1 while the talon lasts, then 2)."""


@dataclass(frozen=True)
class Match:
    """A match: its ``options`` (as the game checked them), ``scores`` per side, the current
    deal's ``number`` (1-based; ties count), its ``dealer``, the finished deals' ``results``
    (the game's records, JSON-ready), the current deal's state ``deal``, and the ``winner``
    side once the match is over (else None)."""

    options: Mapping[str, int]
    scores: tuple[int, int]
    number: int
    dealer: int
    deal: Any
    results: tuple[dict[str, Any], ...] = ()
    winner: int | None = None


class DealRules(Protocol):
    """What the shell uses of a game's rules of one deal (its ``rules`` module; the whole engine
    contract is :class:`veillee.games.contract.Engine`)."""

    def deal(self, deck: Sequence[str], *, dealer: int) -> Any: ...
    def deal_random(self, rng: random.Random, *, dealer: int) -> Any: ...
    def legal_actions(self, state: Any) -> list[Any]: ...
    def why_illegal(self, state: Any, seat: int, action: Any) -> str | None: ...
    def apply(self, state: Any, action: Any) -> Any: ...
    def outcome(self, state: Any) -> dict[str, Any] | None: ...
    def to_json(self, state: Any) -> dict[str, Any]: ...
    def from_json(self, data: dict[str, Any]) -> Any: ...


class DealViews(Protocol):
    """What the shell uses of a game's views of one deal (its ``views`` module)."""

    def view(self, state: Any, seat: int) -> dict[str, Any]: ...
    def observation(self, state: Any, seat: int) -> dict[str, Any]: ...
    def spectator_view(self, state: Any) -> dict[str, Any]: ...


class Parties(Protocol):
    """A game's own parts of its match (the rules file's section on the match)."""

    @property
    def score_name(self) -> str:
        """The score's name in the match's JSON and views (``"wins"``, ``"scores"``)."""
        ...

    @property
    def number_name(self) -> str:
        """The deal number's name in the match's JSON and views (``"partie"``, ``"hand"``)."""
        ...

    def options(self, given: Mapping[str, int]) -> dict[str, int]:
        """The options of a match made with ``given`` (the declared ones, every option not
        given at its default). Raises :class:`~veillee.games.contract.BadOptions`."""
        ...

    def side(self, seat: int) -> int:
        """The side (0 or 1) ``seat`` plays for."""
        ...

    def scored(self, outcome: dict[str, Any]) -> tuple[int, int]:
        """What a finished deal with ``outcome`` adds to each side's score."""
        ...

    def result(self, number: int, dealer: int, outcome: dict[str, Any]) -> dict[str, Any]:
        """The record kept of deal ``number`` (dealt by ``dealer``) once it finished."""
        ...

    def next_dealer(self, m: Match) -> int:
        """Who deals the deal after ``m``'s current one (finished)."""
        ...

    def winner(self, m: Match) -> int | None:
        """The side that has won the match ``m`` (its score reached what the game asks), or
        None while it runs."""
        ...

    def phase(self, state: Any) -> Phase:
        """What the deal ``state`` is at, as its views name it (``view["phase"]``)."""
        ...

    def trick_gathered(self, state: Any) -> bool:
        """Whether a trick of ``state`` has just been gathered and no card of the next one is
        played yet (the computer pauses then, so that people see the trick go)."""
        ...


class MatchShell:
    """The match contract (:class:`veillee.games.contract.MatchRules`) of one game, from its
    ``parties``, the ``rules`` and ``views`` of one deal (its modules) and its number of
    ``seats`` (who deal in turn). Every method is pure: a match is a value and never changes."""

    def __init__(self, parties: Parties, *, rules: DealRules, views: DealViews, seats: int) -> None:
        self.parties = parties
        self.engine = rules
        self.views = views
        self.seats = seats

    # ---- making a match ---------------------------------------------------------------------

    def new_match(
        self, rng: random.Random, options: Mapping[str, int], *, first_dealer: int | None = None
    ) -> Match:
        """A new match with ``options`` (checked by the game: BadOptions, a ValueError), the
        first dealer drawn from ``rng`` unless ``first_dealer`` is given (tests), the first deal
        dealt with ``rng``."""
        full = self.parties.options(options)
        dealer = rng.randrange(self.seats) if first_dealer is None else first_dealer
        return Match(full, (0, 0), 1, dealer, self.engine.deal_random(rng, dealer=dealer))

    def start_match(self, state: Any, options: Mapping[str, int]) -> Match:
        """A match whose first deal is ``state`` (its dealer deals first; a finished deal is
        scored at once): tests and tools. Raises BadOptions like :meth:`new_match`."""
        full = self.parties.options(options)
        return self._settle(Match(full, (0, 0), 1, state.dealer, state))

    # ---- playing ----------------------------------------------------------------------------

    def to_act(self, m: Match) -> int | None:
        """The seat to act in the current deal; None when it (or the match) is over."""
        return None if self.is_over(m) else m.deal.to_act

    def legal_actions(self, m: Match) -> list[Any]:
        """The current deal's legal actions (``[]`` when it or the match is over)."""
        return [] if self.is_over(m) else self.engine.legal_actions(m.deal)

    def why_illegal(self, m: Match, seat: int, action: Any) -> str | None:
        """Why ``seat`` may not take ``action`` now (``"match_over"``, or the rules' reason:
        ``"not_your_turn"``, ``"deal_over"`` …), or None."""
        if self.is_over(m):
            return MatchReason.MATCH_OVER
        return self.engine.why_illegal(m.deal, seat, action)

    def apply(self, m: Match, action: Any) -> Match:
        """Apply ``action`` to the current deal; a deal that ends is scored at once. Raises
        :class:`~veillee.games.IllegalAction` (``"match_over"`` or a rules reason)."""
        if self.is_over(m):
            raise IllegalAction(MatchReason.MATCH_OVER)
        return self._settle(replace(m, deal=self.engine.apply(m.deal, action)))

    def _settle(self, m: Match) -> Match:
        """Score the current deal once it is over and not yet scored."""
        outcome = self.engine.outcome(m.deal)
        if outcome is None or len(m.results) >= m.number:
            return m
        added = self.parties.scored(outcome)
        scores = (m.scores[0] + added[0], m.scores[1] + added[1])
        record = self.parties.result(m.number, m.dealer, outcome)
        settled = replace(m, scores=scores, results=(*m.results, record))
        return replace(settled, winner=self.parties.winner(settled))

    def deal_over(self, m: Match) -> bool:
        """Whether the current deal is over."""
        return m.deal.to_act is None

    def outcome(self, m: Match) -> dict[str, Any] | None:
        """The current deal's outcome (the engine's), None while it runs."""
        return self.engine.outcome(m.deal)

    def phase(self, m: Match) -> Phase:
        """What the current deal is at (the game's words: :data:`Phase`)."""
        return self.parties.phase(m.deal)

    def trick_gathered(self, m: Match) -> bool:
        """Whether a trick has just been gathered and the next not begun."""
        return self.parties.trick_gathered(m.deal)

    def is_over(self, m: Match) -> bool:
        """Whether a side has won the match."""
        return m.winner is not None

    def winner(self, m: Match) -> int | None:
        """The side that won the match (at Chouine the seat, at Charlemagne the team), or None
        while it runs."""
        return m.winner

    def score(self, m: Match, seat: int) -> tuple[int, int]:
        """(the score of ``seat``'s side, the other side's): the match score as ``seat``
        counts it, in the game's unit (parties won, points)."""
        mine = self.parties.side(seat)
        return m.scores[mine], m.scores[1 - mine]

    def next_dealer(self, m: Match) -> int:
        """Who deals the next deal (the game's rule)."""
        return self.parties.next_dealer(m)

    def _check_next(self, m: Match) -> int:
        if self.is_over(m):
            raise IllegalAction(MatchReason.MATCH_OVER)
        if not self.deal_over(m):
            raise IllegalAction(MatchReason.DEAL_NOT_OVER)
        return self.parties.next_dealer(m)

    def next_deal(self, m: Match, rng: random.Random) -> Match:
        """Deal the next deal with ``rng`` once the current one is over. Raises IllegalAction
        ``"match_over"`` or ``"deal_not_over"``."""
        dealer = self._check_next(m)
        deal = self.engine.deal_random(rng, dealer=dealer)
        return replace(m, number=m.number + 1, dealer=dealer, deal=deal)

    def next_deal_from(self, m: Match, deck: Sequence[str]) -> Match:
        """Like :meth:`next_deal` with an explicit deck (tests and tools). Raises ValueError
        for a deck that is not the pack."""
        dealer = self._check_next(m)
        deal = self.engine.deal(deck, dealer=dealer)
        return replace(m, number=m.number + 1, dealer=dealer, deal=deal)

    # ---- what seats see ---------------------------------------------------------------------

    def summary(self, m: Match) -> dict[str, Any]:
        """The ``"match"`` part of every view, public: the options, the score and the deal's
        number under the game's names, the dealer, ``over``, ``winner`` and ``results``."""
        return {
            **m.options,
            self.parties.score_name: list(m.scores),
            self.parties.number_name: m.number,
            "dealer": m.dealer,
            "over": self.is_over(m),
            "winner": m.winner,
            "results": [dict(r) for r in m.results],
        }

    def view(self, m: Match, seat: int) -> dict[str, Any]:
        """``{"match": summary, "deal": engine.view(current deal, seat)}``, JSON-ready."""
        return {"match": self.summary(m), "deal": self.views.view(m.deal, seat)}

    def observation(self, m: Match, seat: int) -> dict[str, Any]:
        """``{"match": summary, "deal": engine.observation(current deal, seat)}``."""
        return {"match": self.summary(m), "deal": self.views.observation(m.deal, seat)}

    def spectator_view(self, m: Match) -> dict[str, Any]:
        """``{"match": summary, "deal": every hand face up}``: for a table the computer plays
        on every seat (a demonstration) and nobody else."""
        return {"match": self.summary(m), "deal": self.views.spectator_view(m.deal)}

    # ---- storing ----------------------------------------------------------------------------

    def to_json(self, m: Match) -> dict[str, Any]:
        """The match as plain JSON types (server side: the deal holds hidden cards)."""
        return {
            **m.options,
            self.parties.score_name: list(m.scores),
            self.parties.number_name: m.number,
            "dealer": m.dealer,
            "results": [dict(r) for r in m.results],
            "deal": self.engine.to_json(m.deal),
            "winner": m.winner,
        }

    def from_json(self, data: dict[str, Any]) -> Match:
        """The inverse of :meth:`to_json`, exactly (a document written before the winner was
        stored has it worked out again)."""
        names = {self.parties.score_name, self.parties.number_name}
        options = {k: int(v) for k, v in data.items() if k not in names and k not in _FIELDS}
        scores = data[self.parties.score_name]
        m = Match(
            options=options,
            scores=(int(scores[0]), int(scores[1])),
            number=int(data[self.parties.number_name]),
            dealer=int(data["dealer"]),
            deal=self.engine.from_json(data["deal"]),
            results=tuple(dict(r) for r in data["results"]),
        )
        winner = data["winner"] if "winner" in data else self.parties.winner(m)
        return replace(m, winner=winner)


_FIELDS = frozenset({"dealer", "results", "deal", "winner"})
"""The match document's own keys, beside the options and the game's two names."""
