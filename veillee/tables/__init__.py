"""Live records and their services (DESIGN.md §3): the one live-record core (``live``), tables
(seats and seat tokens, moves, computer seats, lifetimes) and score sheets (``sheets``)."""

from veillee.tables.live import Fanout, LiveRecords, Refusal, sweep_forever
from veillee.tables.service import (
    DemoGrant,
    SeatGrant,
    TableService,
    seat_summary,
    seat_view,
    spectator_view,
)
from veillee.tables.table import COMPUTER, HUMAN, KIND, SPECTATOR, TableDoc

__all__ = [
    "COMPUTER",
    "HUMAN",
    "KIND",
    "SPECTATOR",
    "DemoGrant",
    "Fanout",
    "LiveRecords",
    "Refusal",
    "SeatGrant",
    "TableDoc",
    "TableService",
    "seat_summary",
    "seat_view",
    "spectator_view",
    "sweep_forever",
]
