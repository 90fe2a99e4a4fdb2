"""Tables (DESIGN.md §3): making and seating, changes by seats, the computer's turn, lifetimes
and demonstrations, over the one live-record core (:mod:`veillee.live`). See
:mod:`veillee.tables.service`."""

from veillee.live import Refusal
from veillee.tables.demos import DemoGrant
from veillee.tables.seating import SeatGrant
from veillee.tables.service import TableService
from veillee.tables.table import COMPUTER, HUMAN, KIND, SPECTATOR, TableDoc
from veillee.tables.views import seat_summary, seat_view, spectator_view

__all__ = [
    "COMPUTER",
    "HUMAN",
    "KIND",
    "SPECTATOR",
    "DemoGrant",
    "Refusal",
    "SeatGrant",
    "TableDoc",
    "TableService",
    "seat_summary",
    "seat_view",
    "spectator_view",
]
