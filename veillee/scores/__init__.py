"""SquareScores sheets as live records (DESIGN.md §6): the sheet service (:mod:`.service`) keeps
the pure sheet model of :mod:`veillee.sheets` in the store, gives out its scorer and viewer
links, and announces every change."""

from veillee.scores.service import (
    KIND,
    SCORER,
    VIEWER,
    Change,
    Created,
    Role,
    SheetRefusal,
    SheetService,
    sheet_view,
)

__all__ = [
    "KIND",
    "SCORER",
    "VIEWER",
    "Change",
    "Created",
    "Role",
    "SheetRefusal",
    "SheetService",
    "sheet_view",
]
