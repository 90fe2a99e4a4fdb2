"""Table lifecycle: seats and seat tokens, actions, computer seats, lifetimes (DESIGN.md §3)."""

from veillee.tables.service import (
    SeatGrant,
    TableRefusal,
    TableService,
    channel,
    seat_view,
)
from veillee.tables.table import COMPUTER, HUMAN, KIND, GameModules, TableDoc

__all__ = [
    "COMPUTER",
    "HUMAN",
    "KIND",
    "GameModules",
    "SeatGrant",
    "TableDoc",
    "TableRefusal",
    "TableService",
    "channel",
    "seat_view",
]
