"""The table service: every table of the store, driven by seats (through tokens) and by the
computer players (DESIGN.md §3).

:class:`TableService` is its parts put together, each a module named for what it holds:
:mod:`.seating` (making tables, taking seats, the resume list), :mod:`.moves` (changes by
seats), :mod:`.leaving` (stand-ins, coming back, giving a seat, leaving for good),
:mod:`.computer` (the computer's turn), :mod:`.demos` (watch a partie go by),
:mod:`.notices` (telling a seat that the table waits for it), on
:mod:`.records` (reading and writing a table through the live-record core) and
:mod:`.lifetimes`. It knows no game: the registry (:func:`veillee.games.find`) and the match
contract say what a change of a table is.
"""

from __future__ import annotations

from typing import Any

from veillee.tables.demos import Demos
from veillee.tables.leaving import Leaving
from veillee.tables.notices import TurnNotices


class TableService(Leaving, Demos, TurnNotices):
    """Tables in the store, driven by seats (through tokens) and by the computer players.

    ``TableService(store, bus, settings, clock=None, autoplay=True, seed=None,
    follower=None, deciders=None, pushes=None)``: ``clock`` returns the current UTC time
    (injectable for the lifetime tests); with ``autoplay=False`` the computer seats play only
    when :meth:`step` is called (the self-play tests do, to see every version); ``seed``
    (tests only) makes table ids, deals and the computer's choices reproducible;
    ``follower``: this process's listening to the bus, shared with the tables' chat and voice
    (default: one of its own);
    ``deciders``: where the computer's moves are decided (:mod:`veillee.workers`; ``veillee
    serve`` passes its worker processes, which also send the pushes); ``pushes``: the keys
    and words of the "your turn" pushes (:class:`~veillee.tables.notices.Pushes`; None sends
    none).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # A seat left for good, or given to someone new, takes its push subscription with it.
        self.on_vacated(self.seat_left)
