"""SquareScores: score sheets for games played with real cards (DESIGN.md §6). Pure: no I/O.

The contract, used by tests, the sheet service and outside tools::

    sheet = new_sheet("aluette", sides=("North & South", "East & West"),
                      settings={"hands": 5, "tie": "stands", "mordienne": True,
                                "surrender": True, "race_to_ten": False}, first_dealer=0)
    entries(sheet)                           # [(side, outcome), ...] that may be entered now
    sheet = add_row(sheet, side, outcome)    # raises InvalidEntry(reason_code); nothing changes
    sheet = edit_row(sheet, index, side, outcome) / delete_row(sheet, index)
    sheet = set_setting(sheet, name, value)
    sheet = end_match(sheet)
    status(sheet)

Presets are registered by name in :data:`PRESETS` (``aluette`` first).
"""

from veillee.sheets import aluette as _aluette  # noqa: F401  (registers the preset)
from veillee.sheets.model import (
    DEFAULT_SIDES,
    Row,
    Sheet,
    add_row,
    delete_row,
    edit_row,
    end_match,
    entries,
    from_json,
    is_decided,
    new_sheet,
    outcome_for_points,
    points_of,
    room,
    set_setting,
    status,
)
from veillee.sheets.presets import (
    PRESETS,
    InvalidEntry,
    Preset,
    Room,
    SheetReason,
    find_preset,
    register,
)

DEFAULT_PRESET = next(iter(PRESETS))
"""The preset a sheet is made with when none is named: the first registered."""

__all__ = [
    "DEFAULT_PRESET",
    "DEFAULT_SIDES",
    "PRESETS",
    "InvalidEntry",
    "Preset",
    "Room",
    "Row",
    "Sheet",
    "SheetReason",
    "add_row",
    "delete_row",
    "edit_row",
    "end_match",
    "entries",
    "find_preset",
    "from_json",
    "is_decided",
    "new_sheet",
    "outcome_for_points",
    "points_of",
    "register",
    "room",
    "set_setting",
    "status",
]
