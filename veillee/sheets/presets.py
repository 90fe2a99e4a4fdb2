"""The preset registry: each preset is a game's scoring rules for the sheet, registered by name.

A preset says which settings a sheet of that game has, which outcomes a row may hold and what each
is worth, and when the rules decide the match. The sheet model (``veillee.sheets.model``) and the
pages only talk to presets through :class:`Preset`, so adding a game adds a module here and
touches no page code (STYLE.md: registries, no ``if game == …``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol


class SheetReason(StrEnum):
    """Every reason code the sheet model and its presets give (stable identifiers; the web
    layer says each in words, ``scores.reason.<code>``). A new preset adds its own here."""

    UNKNOWN_PRESET = "unknown_preset"
    UNKNOWN_SETTING = "unknown_setting"
    BAD_SETTING_VALUE = "bad_setting_value"
    BAD_FIRST_DEALER = "bad_first_dealer"
    BAD_SIDE_NAME = "bad_side_name"
    """Empty, or longer than a side name may be."""
    SIDE_NAME_CHARACTERS = "side_name_characters"
    """A control or format character in a side's name (NUL, U+202E …)."""
    SHEET_BANKED = "sheet_banked"
    """The match was ended: the sheet no longer changes."""
    MATCH_DECIDED = "match_decided"
    """The rules have decided the match (§A3: "tap End match")."""
    UNKNOWN_SIDE = "unknown_side"
    UNKNOWN_OUTCOME = "unknown_outcome"
    BAD_ROW_INDEX = "bad_row_index"
    ROWS_AFTER_DECISION = "rows_after_decision"
    """A correction would decide the match before the last row (§A4b)."""
    SETTINGS_LOCKED = "settings_locked"
    ONE_SIDE_SCORES = "one_side_scores"
    """Aluette: a row typed as two numbers must give one side 1 or 2 and the other 0."""
    MORDIENNE_OFF = "mordienne_off"
    """Aluette: the mordienne setting is off."""
    SURRENDER_OFF = "surrender_off"
    """Aluette: the surrender setting is off."""


class InvalidEntry(Exception):
    """A refused change to a sheet; ``reason_code`` is a stable identifier that the web layer
    translates (e.g. ``"match_decided"``, one of :class:`SheetReason`). The sheet is left as it
    was."""

    def __init__(self, reason_code: SheetReason) -> None:
        super().__init__(reason_code)
        self.reason_code = reason_code


SettingValue = bool | int | str
"""A setting's value: a switch, a count, or one of a few named choices."""

Result = int | str
"""A match result: the winning side (0 or 1) or ``"draw"``."""


@dataclass(frozen=True)
class Decision:
    """Where the rules decided the match: after row ``index`` (from 0), with ``result``."""

    index: int
    result: Result


@dataclass(frozen=True)
class Room:
    """What a page may enter offline without the server: ``hands`` more rows at most (None: no
    hand limit) and, per side, ``points`` more at most before that side could win (None: no
    target). A row that uses up either may decide the match, so the page offers no more after
    it. ``tie_break``: the next row is one more hand played to break a tie after the hand limit
    (Aluette §A3, *one more hand*), which the page says."""

    hands: int | None
    points: tuple[int, int] | None
    tie_break: bool = False


class Preset(Protocol):
    """What the sheet model needs from a game's scoring rules."""

    @property
    def name(self) -> str:
        """The registry name (``"aluette"``)."""
        ...

    @property
    def seats(self) -> int:
        """Players round the table (for the dealer display); seats are 0.. clockwise."""
        ...

    @property
    def defaults(self) -> Mapping[str, SettingValue]:
        """Every setting with its default value; no other setting exists."""
        ...

    @property
    def choices(self) -> Mapping[str, tuple[str, ...]]:
        """For each setting that takes one of a few named values, those values in order."""
        ...

    @property
    def live_settings(self) -> frozenset[str]:
        """Settings that may still change while the sheet has rows (the others lock)."""
        ...

    def why_bad_setting(self, name: str, value: object) -> SheetReason | None:
        """A reason code if ``value`` is not allowed for setting ``name``, else None."""
        ...

    def outcomes(self, settings: Mapping[str, SettingValue]) -> tuple[str, ...]:
        """The outcomes these settings offer, in display order."""
        ...

    def why_not_offered(
        self, settings: Mapping[str, SettingValue], outcome: str
    ) -> SheetReason | None:
        """None if ``outcome`` is offered, else a reason code (unknown, or switched off)."""
        ...

    def points(self, outcome: str) -> int:
        """What ``outcome`` scores for its side (the other side scores 0)."""
        ...

    def decision(
        self, rows: Sequence[tuple[int, int]], settings: Mapping[str, SettingValue]
    ) -> Decision | None:
        """The first row after which the rules decide the match, or None while it runs."""
        ...

    def outcome_for_points(
        self, points: tuple[int, int], settings: Mapping[str, SettingValue]
    ) -> tuple[int, str]:
        """The (side, outcome) a row typed as two numbers stands for; raises InvalidEntry."""
        ...

    def room(self, rows: Sequence[tuple[int, int]], settings: Mapping[str, SettingValue]) -> Room:
        """How far a running match can go before it can be decided (for entries kept offline)."""
        ...


PRESETS: dict[str, Preset] = {}
"""Every registered preset by name."""


def register(preset: Preset) -> Preset:
    """Add ``preset`` to :data:`PRESETS` under its name and return it."""
    PRESETS[preset.name] = preset
    return preset


def find_preset(name: str) -> Preset:
    """The preset registered as ``name``. Raises InvalidEntry("unknown_preset").

    >>> find_preset("aluette").name
    'aluette'
    """
    try:
        return PRESETS[name]
    except KeyError:
        raise InvalidEntry(SheetReason.UNKNOWN_PRESET) from None
