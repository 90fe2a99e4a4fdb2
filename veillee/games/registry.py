"""The registry: every game Veillée deals, by name, in the home page's order.

A new game is a package under ``veillee/games/`` with the modules of the contract and one line
here. Assigning the modules to :class:`~veillee.games.Game`'s Protocol-typed fields is what lets
mypy hold each game to :mod:`veillee.games.contract`.
"""

from __future__ import annotations

from veillee.games import Game, charlemagne, chouine
from veillee.games.charlemagne import bot as charlemagne_bot
from veillee.games.charlemagne.match import MATCH as charlemagne_match
from veillee.games.chouine import bot as chouine_bot
from veillee.games.chouine.match import MATCH as chouine_match

GAMES: dict[str, Game] = {
    "chouine": Game(chouine.INFO, chouine, chouine_match, chouine_bot),
    "charlemagne": Game(charlemagne.INFO, charlemagne, charlemagne_match, charlemagne_bot),
}
"""Game name -> :class:`~veillee.games.Game`. The only place that lists the games."""
