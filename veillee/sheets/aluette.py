"""The Aluette preset: rules/aluette-scoresheet.md Part A (§A1 outcomes, §A2 settings, §A3–A4 match
flow, race to ten).

>>> from veillee.sheets.presets import find_preset
>>> find_preset("aluette").outcomes(ALUETTE.defaults)
('won', 'surrender-accepted', 'mordienne', 'refused-made', 'refused-missed')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from veillee.sheets.presets import (
    Decision,
    InvalidEntry,
    Room,
    SettingValue,
    SheetReason,
    register,
)

TIE_RULES = ("stands", "one-more")
"""§A2 tie after the last hand: the tie stands (a draw), or one more hand is played."""

MAX_HANDS = 99
"""Largest hands-per-match accepted (product choice: the spec only asks for a positive integer;
a bound keeps the page's number field sane)."""

RACE_TARGET = 10
"""§A4: with race to ten on, the first side to 10 points or more wins."""

POINTS: dict[str, int] = {
    "won": 1,
    "surrender-accepted": 1,
    "mordienne": 2,
    "refused-made": 2,
    "refused-missed": 2,
}
"""§A1: what each outcome scores for the side it is entered for."""

NEEDS: dict[str, tuple[str, ...]] = {
    "won": (),
    "surrender-accepted": ("surrender",),
    "mordienne": ("mordienne",),
    "refused-made": ("mordienne", "surrender"),
    "refused-missed": ("mordienne", "surrender"),
}
"""§A1 "offered when": the settings each outcome needs switched on."""


@dataclass(frozen=True)
class AluettePreset:
    """Aluette's scoring rules for the sheet (four players, two sides of partners)."""

    name: str = "aluette"
    seats: int = 4
    defaults: Mapping[str, SettingValue] = field(
        default_factory=lambda: {
            "hands": 5,
            "tie": "stands",
            "mordienne": True,
            "surrender": True,
            "race_to_ten": False,
        }
    )
    choices: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: {"tie": TIE_RULES})
    live_settings: frozenset[str] = frozenset({"race_to_ten"})

    def why_bad_setting(self, name: str, value: object) -> SheetReason | None:
        """``unknown_setting`` or ``bad_setting_value`` (§A2 table), else None."""
        if name not in self.defaults:
            return SheetReason.UNKNOWN_SETTING
        if name == "hands":
            ok = type(value) is int and 1 <= value <= MAX_HANDS
        elif name == "tie":
            ok = value in TIE_RULES
        else:
            ok = type(value) is bool
        return None if ok else SheetReason.BAD_SETTING_VALUE

    def outcomes(self, settings: Mapping[str, SettingValue]) -> tuple[str, ...]:
        """§A1: the outcomes whose settings are on, in the order of the spec's table."""
        return tuple(o for o in POINTS if self.why_not_offered(settings, o) is None)

    def why_not_offered(
        self, settings: Mapping[str, SettingValue], outcome: str
    ) -> SheetReason | None:
        """``unknown_outcome``, ``mordienne_off`` or ``surrender_off``, else None (§A1)."""
        if outcome not in NEEDS:
            return SheetReason.UNKNOWN_OUTCOME
        for needed in NEEDS[outcome]:
            if not settings[needed]:
                return SheetReason(f"{needed}_off")
        return None

    def points(self, outcome: str) -> int:
        """§A1: 1 for won / surrender accepted, 2 for the mordienne entries."""
        return POINTS[outcome]

    def decision(
        self, rows: Sequence[tuple[int, int]], settings: Mapping[str, SettingValue]
    ) -> Decision | None:
        """§A3–A4: the first row after which the match is decided.

        Race to ten: a side reaching 10 or more wins, no hand limit. Otherwise after the last
        hand the side ahead wins; a tie is a draw (``tie stands``) or opens one more hand, which
        always breaks it.
        """
        totals = [0, 0]
        hands = int(settings["hands"])
        for index, (a, b) in enumerate(rows):
            totals[0] += a
            totals[1] += b
            if settings["race_to_ten"]:
                if max(totals) >= RACE_TARGET:
                    return Decision(index, 0 if totals[0] > totals[1] else 1)
                continue
            if index + 1 < hands:
                continue
            if totals[0] != totals[1]:
                return Decision(index, 0 if totals[0] > totals[1] else 1)
            if settings["tie"] == "stands":
                return Decision(index, "draw")
        return None

    def room(self, rows: Sequence[tuple[int, int]], settings: Mapping[str, SettingValue]) -> Room:
        """§A3–A4 for a running match: with race to ten, the points each side needs to reach
        10 (no hand limit); otherwise the hands left to the limit (at least 1: past the limit
        only a tie is still running, and one more hand breaks it: ``tie_break``).
        """
        totals = (sum(a for a, _ in rows), sum(b for _, b in rows))
        if settings["race_to_ten"]:
            return Room(None, (RACE_TARGET - totals[0], RACE_TARGET - totals[1]))
        left = int(settings["hands"]) - len(rows)
        return Room(max(left, 1), None, tie_break=left <= 0)

    def outcome_for_points(
        self, points: tuple[int, int], settings: Mapping[str, SettingValue]
    ) -> tuple[int, str]:
        """§A1 free entry: (1, 0) → side 0 won, (0, 2) → side 1 mordienne, …

        Raises InvalidEntry("one_side_scores") unless exactly one entry is 1 or 2 and the other
        is 0, and InvalidEntry("mordienne_off") for a 2 when mordienne is off.
        """
        a, b = points
        if sorted((a, b)) not in ([0, 1], [0, 2]):
            raise InvalidEntry(SheetReason.ONE_SIDE_SCORES)
        side = 0 if a else 1
        if max(a, b) == 2:
            if not settings["mordienne"]:
                raise InvalidEntry(SheetReason.MORDIENNE_OFF)
            return side, "mordienne"
        return side, "won"


ALUETTE = register(AluettePreset())
