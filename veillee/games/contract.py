"""The game contract as types: what every registered game offers the other layers.

Three ``typing.Protocol``\\ s, held by mypy against each game's modules (``veillee.games``
assigns every game's modules to them), and one declaration of facts as data:

- :class:`Engine` — the rules of one deal (DESIGN.md §2): ``deal``, ``deal_random``,
  ``legal_actions``, ``why_illegal``, ``apply``, ``view``, ``observation``, ``outcome``,
  ``to_json`` / ``from_json``, ``Action`` and ``REASONS``;
- :class:`MatchRules` — the match around the deals (best of 3/5, first team to 32): the same
  verbs on a match value, plus ``new_match``, ``next_deal`` and the match's own state;
- :class:`Player` — a computer player: ``choose(observation, legal_actions, rng)``;
- :class:`GameInfo` — the game's name, seat count, seat names and table options with their
  allowed values. The table and web layers read these; they never name a game;
- :class:`MatchReason` — the reason codes every match adds to its engine's (each game's
  ``REASONS`` lists them too).

The whole contract is documented once in ``docs/game-contract.md``.

>>> info = GameInfo("demo", 2, ("A", "B"), {"best_of": Option((3, 5), 5)})
>>> info.table_options({"best_of": 3})
{'best_of': 3}
>>> info.table_options({})
{'best_of': 5}
>>> info.table_options({"best_of": 4})
Traceback (most recent call last):
...
veillee.games.contract.BadOptions: best_of
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from veillee.games.match import Match, MatchReason, Phase

__all__ = ["BadOptions", "Engine", "GameInfo", "MatchReason", "MatchRules", "Option", "Player"]


class BadOptions(ValueError):
    """Table options a game does not offer: an unknown name, or a value outside its allowed
    values (a strict int; ``"5"``, ``5.0`` and ``True`` are refused). ``args[0]`` names the
    first offending option."""


@dataclass(frozen=True)
class Option:
    """One option a table may be made with: its allowed ``values`` (ints) and its ``default``."""

    values: tuple[int, ...]
    default: int


@dataclass(frozen=True)
class GameInfo:
    """What the table and web layers know of a game, declared by the game as data.

    ``name`` is the registry name (also the URL segment ``/{name}``); ``seats`` the number of
    seats (seats are ints ``0 .. seats - 1``); ``seat_names`` a short stable name per seat
    (``"N" "E" "S" "W"``); ``options`` the table options a person may choose, by name;
    ``partners`` each seat's partner where the game plays in partnerships (seat -> seat), ``()``
    where every seat plays for itself; ``levels`` the computer's levels a table may be made
    with, the usual one (the default) first: the game's computer player's ``LEVELS``.
    """

    name: str
    seats: int
    seat_names: tuple[str, ...]
    options: Mapping[str, Option]
    partners: tuple[int, ...] = ()
    levels: tuple[str, ...] = ("usual",)

    def table_options(self, chosen: Mapping[str, object]) -> dict[str, int]:
        """The full options of a new table: ``chosen`` checked against :attr:`options` (each
        value one of its allowed values), every option not chosen at its default. Raises
        :class:`BadOptions`. The one place the values a person may choose are checked."""
        full = self.match_options(chosen)
        for name, value in full.items():
            if value not in self.options[name].values:
                raise BadOptions(name)
        return full

    def match_options(self, given: Mapping[str, object]) -> dict[str, int]:
        """The options a match is made with: ``given`` (known names, strict ints) with every
        option not given at its default. Which values make a playable match is the match's own
        rule (a test may shorten a match); which a person may choose, :meth:`table_options`.
        Raises :class:`BadOptions`.

        >>> GameInfo("demo", 4, ("N", "E", "S", "W"), {"target": Option((32,), 32)}).match_options(
        ...     {"target": 10})
        {'target': 10}
        """
        for name, value in given.items():
            if name not in self.options or type(value) is not int:
                raise BadOptions(name)
        return {
            name: int(given[name]) if name in given else option.default  # type: ignore[call-overload]
            for name, option in self.options.items()
        }


class Engine(Protocol):
    """The rules of one deal (a Chouine partie, a Charlemagne hand): DESIGN.md §2.

    States are immutable values with a ``to_act`` attribute (seat or ``None`` once the deal is
    over); actions are the module's ``Action`` values, with a text notation both ways
    (docs/notation.md).
    """

    @property
    def INFO(self) -> GameInfo:
        """The game's declaration."""
        ...

    @property
    def REASONS(self) -> Mapping[str, str]:
        """Every reason code the engine and its match give (:class:`MatchReason` included),
        with an English gloss."""
        ...

    @property
    def Action(self) -> Any:
        """The action class: ``Action.parse(text)`` (raises ValueError) and ``str(action)``."""
        ...

    def deal(self, deck: Sequence[str], *, dealer: int) -> Any:
        """The first state of a deal from ``deck`` (card codes, top first). Raises ValueError."""
        ...

    def deal_random(self, rng: random.Random, *, dealer: int) -> Any:
        """A deal shuffled with ``rng`` only."""
        ...

    def legal_actions(self, state: Any) -> list[Any]:
        """The actions ``state.to_act`` may take, in a stable order (``[]`` when over)."""
        ...

    def why_illegal(self, state: Any, seat: int, action: Any) -> str | None:
        """``None`` if ``seat`` may take ``action`` now, else a reason code."""
        ...

    def apply(self, state: Any, action: Any) -> Any:
        """The next state; raises ``IllegalAction(reason)`` and changes nothing."""
        ...

    def view(self, state: Any, seat: int) -> dict[str, Any]:
        """Everything ``seat``'s screen may show, JSON-ready; nothing more."""
        ...

    def observation(self, state: Any, seat: int) -> dict[str, Any]:
        """Everything ``seat`` has witnessed, JSON-ready (what a computer player decides from)."""
        ...

    def outcome(self, state: Any) -> dict[str, Any] | None:
        """The result of a finished deal, ``None`` while it runs."""
        ...

    def to_json(self, state: Any) -> dict[str, Any]:
        """The state as plain JSON types (server side: hidden cards included)."""
        ...

    def from_json(self, data: dict[str, Any]) -> Any:
        """The inverse of :meth:`to_json`, exactly."""
        ...


class MatchRules(Protocol):
    """The match around the deals (a best-of manche, a race to 32): docs/game-contract.md.

    A match value is immutable (:class:`~veillee.games.match.Match`) and holds the current
    deal's state as ``m.deal``. Every game's is a :class:`~veillee.games.match.MatchShell` of
    its own parts; the table layer uses nothing of a match but these functions.
    """

    def new_match(
        self, rng: random.Random, options: Mapping[str, int], *, first_dealer: int | None = None
    ) -> Match:
        """A new match with ``options`` (as :meth:`GameInfo.table_options` gives them); the first
        dealer drawn from ``rng`` unless given; the first deal dealt with ``rng``. Raises
        ValueError for options the game does not know."""
        ...

    def start_match(self, state: Any, options: Mapping[str, int]) -> Match:
        """A match whose first deal is ``state`` (tests and tools)."""
        ...

    def to_act(self, m: Match) -> int | None:
        """Seat to act now, ``None`` when the deal or the match is over."""
        ...

    def legal_actions(self, m: Match) -> list[Any]:
        """The current deal's legal actions (``[]`` when it or the match is over)."""
        ...

    def why_illegal(self, m: Match, seat: int, action: Any) -> str | None:
        """Reason code or ``None``; adds ``match_over`` (:class:`MatchReason`)."""
        ...

    def apply(self, m: Match, action: Any) -> Match:
        """Apply to the current deal; a deal that ends is scored at once. Raises IllegalAction."""
        ...

    def next_deal(self, m: Match, rng: random.Random) -> Match:
        """Deal the next deal with ``rng``. Raises IllegalAction (deal_not_over, match_over)."""
        ...

    def next_deal_from(self, m: Match, deck: Sequence[str]) -> Match:
        """Like :meth:`next_deal` with an explicit deck (tests and tools)."""
        ...

    def deal_over(self, m: Match) -> bool:
        """True once the current deal is over."""
        ...

    def outcome(self, m: Match) -> dict[str, Any] | None:
        """The current deal's outcome (the engine's ``outcome``), None while it runs."""
        ...

    def phase(self, m: Match) -> Phase:
        """What the current deal is at, in the game's words (its view's ``phase``): the table
        layer tells the resume list what the seat to act is doing."""
        ...

    def trick_gathered(self, m: Match) -> bool:
        """Whether a trick has just been gathered and the next not begun (its view's
        ``trick`` is empty and it has a ``last_trick``): the computer's move then waits
        ``trick_pause_ms`` more, so that people see the trick go."""
        ...

    def is_over(self, m: Match) -> bool:
        """True once the match is decided."""
        ...

    def winner(self, m: Match) -> int | None:
        """The winning seat (Chouine) or team (Charlemagne), ``None`` while the match runs."""
        ...

    def score(self, m: Match, seat: int) -> tuple[int, int]:
        """The match score as ``seat``'s side counts it: (its side's, the other side's), in the
        match's own unit (Chouine: parties won by the seat and by its opponent; Charlemagne:
        points of the seat's team and of the other team). Public: any seat may be told it."""
        ...

    def view(self, m: Match, seat: int) -> dict[str, Any]:
        """``{"match": {...}, "deal": engine.view(m.deal, seat)}``, JSON-ready."""
        ...

    def observation(self, m: Match, seat: int) -> dict[str, Any]:
        """``{"match": {...}, "deal": engine.observation(m.deal, seat)}``, JSON-ready."""
        ...

    def spectator_view(self, m: Match) -> dict[str, Any]:
        """``{"match": {...}, "deal": {...}}`` with every hand face up, for a table the computer
        plays on every seat (a demonstration, "watch a partie go by") and nobody else: the table
        service sends it only to the spectator of such a table."""
        ...

    def to_json(self, m: Match) -> dict[str, Any]:
        """The match as plain JSON types (server side)."""
        ...

    def from_json(self, data: dict[str, Any]) -> Match:
        """The inverse of :meth:`to_json`, exactly."""
        ...


class Player(Protocol):
    """A computer player: decides from one seat's observation only (never the state)."""

    LEVELS: tuple[str, ...]
    """The levels it plays at, the usual one first: the game's ``GameInfo.levels``."""

    def choose(
        self,
        observation: dict[str, Any],
        legal_actions: Sequence[Any],
        rng: random.Random,
        *,
        level: str = "usual",
        budget: int | None = None,
    ) -> Any:
        """One of ``legal_actions`` at ``level`` (one of :attr:`LEVELS`; ``budget``: the size
        of its search, None for its default), from ``match.observation(m, seat)`` (the match's
        public part and the seat's observation of the current deal). The same ``rng`` gives
        the same choice. Raises ValueError for an unknown level."""
        ...
