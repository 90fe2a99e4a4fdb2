"""The rules engines, registered by name.

Every game offers the contract of :mod:`veillee.games.contract` (documented in
``docs/game-contract.md``): an engine module, a ``match`` module, a computer player (``bot``)
and a :class:`~veillee.games.contract.GameInfo` declaration (``INFO``). The registry of
:mod:`veillee.games.registry` lists them; the other layers find a game with :func:`find` and
never name one. Nothing here knows about HTTP, SQL or asyncio.

>>> names()
('chouine', 'charlemagne')
>>> find("charlemagne").info.seats
4
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from veillee.games.contract import Engine, GameInfo, MatchRules, Player


class IllegalAction(Exception):
    """An action refused by the rules; ``reason`` is a stable reason code such as
    ``"must_follow_suit"``, translated by the web layer. The state is left unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Game:
    """One registered game: its declaration and its three modules."""

    info: GameInfo
    engine: Engine
    match: MatchRules
    player: Player


def names() -> tuple[str, ...]:
    """The registered games' names, in the registry's order (the home page's order)."""
    from veillee.games.registry import GAMES

    return tuple(GAMES)


def find(name: str) -> Game:
    """The game registered as ``name``. Raises KeyError for an unknown game."""
    from veillee.games.registry import GAMES

    return GAMES[name]
