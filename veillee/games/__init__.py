"""The rules engines, registered by name.

Every game module follows the engine contract of DESIGN.md §2 (``deal``, ``deal_random``,
``legal_actions``, ``why_illegal``, ``apply``, ``view``, ``observation``, ``outcome``, ``Action``,
``to_json`` / ``from_json``) and a ``match`` module. Nothing here knows about HTTP, SQL or asyncio.

>>> sorted(GAMES)
['charlemagne', 'chouine']
"""

from __future__ import annotations

import importlib
from types import ModuleType


class IllegalAction(Exception):
    """An action refused by the rules; ``reason`` is a stable reason code such as
    ``"must_follow_suit"``, translated by the web layer. The state is left unchanged."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


GAMES: dict[str, str] = {
    "chouine": "veillee.games.chouine",
    "charlemagne": "veillee.games.charlemagne",
}
"""Game name -> module path. The only place that lists the games."""


def find_game(name: str) -> ModuleType:
    """The engine module registered as ``name``. Raises KeyError for an unknown game."""
    return importlib.import_module(GAMES[name])


def find_match(name: str) -> ModuleType:
    """The match module (``<game>.match``) of the game registered as ``name``."""
    return importlib.import_module(GAMES[name] + ".match")
