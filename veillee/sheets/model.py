"""The sheet: two sides, one row per hand, settings, and the match state (DESIGN.md §6).

A sheet is an immutable value that round-trips through plain JSON. Every change is a function
returning a new sheet or raising :class:`InvalidEntry` with a reason code, leaving the old one as it
was. The game's rules come from the preset registry (``veillee.sheets.presets``).

>>> s = new_sheet("aluette", sides=("North & South", "East & West"))
>>> s = add_row(s, 0, "won")
>>> s = add_row(s, 1, "mordienne")
>>> status(s)["totals"]
[1, 2]
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from veillee.sheets.presets import (
    InvalidEntry,
    Preset,
    Result,
    Room,
    SettingValue,
    SheetReason,
    find_preset,
)

DEFAULT_SIDES = ("North & South", "East & West")
"""Column labels when the table names nobody (rules/aluette-scoresheet.md §A1)."""

MAX_SIDE_NAME = 40
"""Longest side name accepted, in characters."""


@dataclass(frozen=True)
class Row:
    """One hand: the side that scored it (0 or 1) and the outcome entered for it."""

    side: int
    outcome: str


@dataclass(frozen=True)
class Sheet:
    """A score sheet. Build with :func:`new_sheet`; change with the module's functions."""

    preset: str
    sides: tuple[str, str]
    settings: tuple[tuple[str, SettingValue], ...]
    first_dealer: int
    rows: tuple[Row, ...] = ()
    banked: bool = False
    ended_early: bool = False

    @property
    def setting(self) -> dict[str, SettingValue]:
        """The settings as a dict (name → value)."""
        return dict(self.settings)

    def to_json(self) -> dict[str, Any]:
        """A plain-JSON dict; :func:`from_json` gives the same sheet back."""
        return {
            "preset": self.preset,
            "sides": list(self.sides),
            "settings": self.setting,
            "first_dealer": self.first_dealer,
            "rows": [[r.side, r.outcome] for r in self.rows],
            "banked": self.banked,
            "ended_early": self.ended_early,
        }


def from_json(data: Mapping[str, Any]) -> Sheet:
    """The sheet written by :meth:`Sheet.to_json`. Raises KeyError/TypeError on other input."""
    sides = data["sides"]
    return Sheet(
        preset=str(data["preset"]),
        sides=(str(sides[0]), str(sides[1])),
        settings=tuple(sorted(dict(data["settings"]).items())),
        first_dealer=int(data["first_dealer"]),
        rows=tuple(Row(int(side), str(outcome)) for side, outcome in data["rows"]),
        banked=bool(data["banked"]),
        ended_early=bool(data["ended_early"]),
    )


# Control characters (NUL, newlines …), format characters (the bidirectional overrides such as
# U+202E, which would turn the rest of a line around), surrogates, private-use and unassigned
# code points: none belongs in a name shown to other players.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def _side_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_SIDE_NAME:
        raise InvalidEntry(SheetReason.BAD_SIDE_NAME)
    if any(unicodedata.category(ch) in _REFUSED_CATEGORIES for ch in name):
        raise InvalidEntry(SheetReason.SIDE_NAME_CHARACTERS)
    return name.strip()


def new_sheet(
    preset: str,
    sides: tuple[str, str] = DEFAULT_SIDES,
    settings: Mapping[str, object] | None = None,
    first_dealer: int = 0,
) -> Sheet:
    """An empty sheet of ``preset`` (e.g. ``"aluette"``).

    ``settings`` may name any of the preset's settings; the others take their defaults (§A2).
    ``first_dealer`` is the seat (0–3 clockwise, side 0 = seats 0 and 2) dealing hand 1.
    Raises InvalidEntry: ``unknown_preset``, ``unknown_setting``, ``bad_setting_value``,
    ``bad_first_dealer``, ``bad_side_name`` (empty or over 40 characters),
    ``side_name_characters`` (a control or format character, e.g. NUL or U+202E).

    >>> new_sheet("aluette", settings={"hands": 0})
    Traceback (most recent call last):
    ...
    veillee.sheets.presets.InvalidEntry: bad_setting_value
    """
    rules = find_preset(preset)
    if len(sides) != 2:
        raise InvalidEntry(SheetReason.BAD_SIDE_NAME)
    names = (_side_name(sides[0]), _side_name(sides[1]))
    chosen: dict[str, SettingValue] = dict(rules.defaults)
    for name, value in (settings or {}).items():
        reason = rules.why_bad_setting(name, value)
        if reason:
            raise InvalidEntry(reason)
        chosen[name] = value  # type: ignore[assignment]  # checked by why_bad_setting
    if type(first_dealer) is not int or not 0 <= first_dealer < rules.seats:
        raise InvalidEntry(SheetReason.BAD_FIRST_DEALER)
    return Sheet(rules.name, names, tuple(sorted(chosen.items())), first_dealer)


def _rules(sheet: Sheet) -> Preset:
    return find_preset(sheet.preset)


def _points(rules: Preset, rows: tuple[Row, ...]) -> list[tuple[int, int]]:
    out = []
    for row in rows:
        p = rules.points(row.outcome)
        out.append((p, 0) if row.side == 0 else (0, p))
    return out


def _check_open(sheet: Sheet) -> None:
    if sheet.banked:
        raise InvalidEntry(SheetReason.SHEET_BANKED)


def _check_row(sheet: Sheet, side: object, outcome: object) -> Row:
    if side not in (0, 1) or type(side) is not int:
        raise InvalidEntry(SheetReason.UNKNOWN_SIDE)
    if not isinstance(outcome, str):
        raise InvalidEntry(SheetReason.UNKNOWN_OUTCOME)
    reason = _rules(sheet).why_not_offered(sheet.setting, outcome)
    if reason:
        raise InvalidEntry(reason)
    return Row(side, outcome)


def _check_index(sheet: Sheet, index: object) -> int:
    if type(index) is not int or not 0 <= index < len(sheet.rows):
        raise InvalidEntry(SheetReason.BAD_ROW_INDEX)
    return index


def _check_reads_as_played(sheet: Sheet) -> Sheet:
    """§A4b: no row may follow the row that decided the match under the current settings."""
    decided = _rules(sheet).decision(_points(_rules(sheet), sheet.rows), sheet.setting)
    if decided is not None and decided.index < len(sheet.rows) - 1:
        raise InvalidEntry(SheetReason.ROWS_AFTER_DECISION)
    return sheet


def is_decided(sheet: Sheet) -> bool:
    """Whether the rules have decided the match (§A3–A4), banked or not."""
    rules = _rules(sheet)
    return rules.decision(_points(rules, sheet.rows), sheet.setting) is not None


def entries(sheet: Sheet) -> list[tuple[int, str]]:
    """The (side, outcome) pairs that :func:`add_row` accepts now (§A1, §A4b): for side 0 then
    side 1, the outcomes the settings offer; ``[]`` once the match is decided or banked.

    >>> entries(new_sheet("aluette", settings={"mordienne": False}))
    [(0, 'won'), (0, 'surrender-accepted'), (1, 'won'), (1, 'surrender-accepted')]
    """
    if sheet.banked or is_decided(sheet):
        return []
    offered = _rules(sheet).outcomes(sheet.setting)
    return [(side, outcome) for side in (0, 1) for outcome in offered]


def room(sheet: Sheet) -> Room:
    """How many more rows (``hands``) or points per side (``points``) a page may queue offline
    before the match could be decided (§A3–A4): ``Room(0, None)`` once it is decided or banked.

    >>> room(new_sheet("aluette"))
    Room(hands=5, points=None, tie_break=False)
    """
    if sheet.banked or is_decided(sheet):
        return Room(0, None)
    rules = _rules(sheet)
    return rules.room(_points(rules, sheet.rows), sheet.setting)


def add_row(sheet: Sheet, side: int, outcome: str) -> Sheet:
    """The sheet with one more row: ``outcome`` scored by ``side`` (0 for the other side).

    Raises InvalidEntry: ``sheet_banked``, ``match_decided`` (§A3: "tap End match"),
    ``unknown_side``, ``unknown_outcome``, ``mordienne_off``, ``surrender_off``.
    """
    _check_open(sheet)
    if is_decided(sheet):
        raise InvalidEntry(SheetReason.MATCH_DECIDED)
    row = _check_row(sheet, side, outcome)
    return replace(sheet, rows=(*sheet.rows, row))


def edit_row(sheet: Sheet, index: int, side: int, outcome: str) -> Sheet:
    """The sheet with row ``index`` (from 0) replaced (§A1 corrections).

    Raises InvalidEntry: ``sheet_banked``, ``bad_row_index``, the refusals of :func:`add_row`
    for the new entry, and ``rows_after_decision`` if the match would then have been decided
    before the last row (§A4b).
    """
    _check_open(sheet)
    at = _check_index(sheet, index)
    row = _check_row(sheet, side, outcome)
    rows = (*sheet.rows[:at], row, *sheet.rows[at + 1 :])
    return _check_reads_as_played(replace(sheet, rows=rows))


def delete_row(sheet: Sheet, index: int) -> Sheet:
    """The sheet without row ``index`` (from 0); later rows move up (§A1, §A4b).

    Raises InvalidEntry: ``sheet_banked``, ``bad_row_index``.
    """
    _check_open(sheet)
    at = _check_index(sheet, index)
    return replace(sheet, rows=sheet.rows[:at] + sheet.rows[at + 1 :])


def set_setting(sheet: Sheet, name: str, value: object) -> Sheet:
    """The sheet with setting ``name`` set to ``value`` (§A2).

    Settings lock while the sheet has rows, except the preset's live ones (Aluette: race to
    ten), which may change until the match is decided (§A4). Raises InvalidEntry:
    ``sheet_banked``, ``unknown_setting``, ``bad_setting_value``, ``settings_locked``,
    ``match_decided``, ``rows_after_decision``.
    """
    _check_open(sheet)
    rules = _rules(sheet)
    reason = rules.why_bad_setting(name, value)
    if reason:
        raise InvalidEntry(reason)
    if sheet.rows and name not in rules.live_settings:
        raise InvalidEntry(SheetReason.SETTINGS_LOCKED)
    if sheet.rows and is_decided(sheet):
        raise InvalidEntry(SheetReason.MATCH_DECIDED)
    settings = {**sheet.setting, name: value}  # value checked by why_bad_setting
    changed = replace(sheet, settings=tuple(sorted(settings.items())))  # type: ignore[arg-type]
    return _check_reads_as_played(changed)


def end_match(sheet: Sheet) -> Sheet:
    """The banked sheet (§A3 End match, by any player): read-only from now on.

    A decided match banks its result; otherwise the standings are banked as ended early (the
    page asks for confirmation first). Raises InvalidEntry("sheet_banked").
    """
    _check_open(sheet)
    return replace(sheet, banked=True, ended_early=not is_decided(sheet))


def status(sheet: Sheet) -> dict[str, Any]:
    """The sheet's numbers, JSON-ready (DESIGN.md §6)::

        {"rows": [[a, b], ...], "totals": [a, b], "decided": bool,
         "result": 0 | 1 | "draw" | None, "banked": bool, "ended_early": bool,
         "dealers": [seat of each hand's dealer, ...], "next_dealer": seat | None}

    ``result`` is the decided result, or after an early End match the side ahead or
    ``"draw"``; None while the match runs. ``next_dealer`` deals the next hand (None once the
    match is decided or banked). Hand *i* is dealt by ``(first_dealer + i) % seats``.
    """
    rules = _rules(sheet)
    points = _points(rules, sheet.rows)
    totals = [sum(p[0] for p in points), sum(p[1] for p in points)]
    decided = rules.decision(points, sheet.setting)
    result: Result | None = decided.result if decided else None
    if sheet.banked and decided is None:
        result = "draw" if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    running = not sheet.banked and decided is None
    return {
        "rows": [list(p) for p in points],
        "totals": totals,
        "decided": decided is not None,
        "result": result,
        "banked": sheet.banked,
        "ended_early": sheet.ended_early,
        "dealers": [(sheet.first_dealer + i) % rules.seats for i in range(len(sheet.rows))],
        "next_dealer": (sheet.first_dealer + len(sheet.rows)) % rules.seats if running else None,
    }


def outcome_for_points(sheet: Sheet, points: tuple[int, int]) -> tuple[int, str]:
    """The (side, outcome) for a row typed as two numbers (§A1, a future free-entry mode).

    Raises InvalidEntry("one_side_scores") for (1, 1), (0, 0), (3, 0), (−1, 0) …, and the
    preset's refusals (Aluette: ``mordienne_off`` for a 2 when mordienne is off).
    """
    return _rules(sheet).outcome_for_points(points, sheet.setting)


def points_of(sheet: Sheet, outcome: str) -> int:
    """What ``outcome`` scores on this sheet's preset (for labels on the page)."""
    return _rules(sheet).points(outcome)
