"""The sheet service: SquareScores sheets in the store, their links, and live updates
(DESIGN.md §3–4, §6).

A sheet is a live record (:class:`~veillee.live.LiveRecords`, kind ``"sheet"``) whose
data is ``{"sheet": Sheet.to_json(), "undo": [earlier sheets, newest last], "row_versions":
[the sheet's version when each row last changed]}`` (:func:`row_versions`). It has two kinds
of token (≥128 random bits from ``secrets``, stored only hashed): ``scorer`` (may change the
sheet) and ``viewer`` (read-only). This module only says what a change of a sheet is: the core
writes it, acknowledges a repeated client id, re-judges it after a lost race and announces it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum
from typing import Any, Literal

from veillee import sheets
from veillee.bus import Bus
from veillee.live import Clock, Follower, LiveRecords, Refusal
from veillee.sheets import InvalidEntry, Sheet, SheetReason
from veillee.store import Commit, Record, Store

KIND = "sheet"
SCORER: Literal["scorer"] = "scorer"
VIEWER: Literal["viewer"] = "viewer"
Role = Literal["scorer", "viewer"]
UNDO_DEPTH = 50
"""How many earlier states "undo" can go back through."""


class SheetRefusal(StrEnum):
    """Every refusal of the sheet service of its own (docs/sheets-protocol.md), beside the
    sheet's reason codes (:class:`veillee.sheets.SheetReason`) and the live core's
    (``LiveRefusal``)."""

    SHEET_GONE = "sheet_gone"
    """No such sheet: never made, expired or swept (the sheet records' *gone* code)."""
    BAD_TOKEN = "bad_token"
    """The token opens no role on this sheet."""
    READ_ONLY = "read_only"
    """A viewer's link: it may not change the sheet."""
    NOTHING_TO_UNDO = "nothing_to_undo"
    ROW_CHANGED = "row_changed"
    """The row was changed, moved or deleted since the page showed it."""


@dataclass(frozen=True)
class Change:
    """One change to a sheet, as the scorer's page sends it.

    ``kind``: ``add`` (side, outcome), ``edit`` (index, row_version, side, outcome), ``delete``
    (index, row_version), ``setting`` (name, value, version), ``end`` (version), ``undo``
    (version).

    A change computed from what the page showed says what that was: ``version``, the sheet's
    version (for a change of the whole sheet), or ``row_version``, the row's own (for a change
    of one row; :func:`row_versions`). A new row (``add``) depends on nothing shown: it is
    judged on the sheet as it is when it arrives, so that entries kept offline still merge.
    """

    kind: Literal["add", "edit", "delete", "setting", "end", "undo"]
    side: int = 0
    outcome: str = ""
    index: int = 0
    name: str = ""
    value: bool | int | str = False
    version: int | None = None
    row_version: int | None = None


@dataclass(frozen=True)
class Created:
    """A new sheet and its two tokens (sent once to the creator, never stored in clear)."""

    record: Record
    scorer_token: str
    viewer_token: str


def new_token() -> str:
    """A fresh sheet token: 256 random bits, URL-safe (43 characters)."""
    return secrets.token_urlsafe(32)


def sheet_of(record: Record) -> Sheet:
    """The sheet held by a stored record."""
    return sheets.from_json(record.data["sheet"])


def row_versions(record: Record) -> list[int]:
    """The version of each row of the sheet: the sheet's version when the row was written or
    moved (an ``edit`` or ``delete`` names the row by its index and this, so that a change made
    on a row another phone has since changed, moved or removed is refused). A sheet stored
    before rows had versions: every row at the sheet's version."""
    rows = len(record.data["sheet"]["rows"])
    found = record.data.get("row_versions")
    if isinstance(found, list) and len(found) == rows:
        return [int(v) for v in found]
    return [record.version] * rows


def sheet_view(record: Record, role: Role) -> dict[str, Any]:
    """What an open page is sent about the sheet, JSON-ready; never a token.

    ``{"id", "version", "role", "preset", "sides", "settings", "first_dealer", "status"
    (sheets.status), "rows" ([{"side", "outcome", "points", "version"}], ``version`` the
    row's own, :func:`row_versions`), "entries" ([{"side",
    "outcome", "points"}] that may be added now), "outcomes" ([{"outcome", "points"}] offered
    by the settings, for corrections), "room" ({"hands": n | None, "points": [a, b] | None,
    "tie_break": bool}: what a page may queue offline before the match could be decided, and
    whether the next hand breaks a tie, ``sheets.room``),
    "locked" (settings locked), "live_settings", "can_undo"}``. ``settings`` lists the
    preset's settings in its own order (the start form's), not alphabetically.
    """
    sheet = sheet_of(record)
    rules = sheets.find_preset(sheet.preset)
    st = sheets.status(sheet)
    room = sheets.room(sheet)
    chosen = sheet.setting
    return {
        "id": record.id,
        "version": record.version,
        "role": role,
        "preset": sheet.preset,
        "sides": list(sheet.sides),
        "settings": {name: chosen[name] for name in rules.defaults if name in chosen},
        "first_dealer": sheet.first_dealer,
        "status": st,
        "rows": [
            {"side": r.side, "outcome": r.outcome, "points": rules.points(r.outcome), "version": v}
            for r, v in zip(sheet.rows, row_versions(record), strict=True)
        ],
        "entries": [
            {"side": side, "outcome": outcome, "points": rules.points(outcome)}
            for side, outcome in sheets.entries(sheet)
        ],
        "outcomes": [
            {"outcome": o, "points": rules.points(o)} for o in rules.outcomes(sheet.setting)
        ],
        "room": {
            "hands": room.hands,
            "points": list(room.points) if room.points is not None else None,
            "tie_break": room.tie_break,
        },
        "locked": bool(sheet.rows) or sheet.banked,
        "live_settings": sorted(rules.live_settings),
        "can_undo": role == SCORER and not sheet.banked and bool(record.data.get("undo")),
    }


def apply_change(sheet: Sheet, change: Change) -> Sheet:
    """The sheet after ``change`` (not ``undo``), through the pure contract. Raises InvalidEntry."""
    if change.kind == "add":
        return sheets.add_row(sheet, change.side, change.outcome)
    if change.kind == "edit":
        return sheets.edit_row(sheet, change.index, change.side, change.outcome)
    if change.kind == "delete":
        return sheets.delete_row(sheet, change.index)
    if change.kind == "setting":
        return sheets.set_setting(sheet, change.name, change.value)
    if change.kind == "end":
        return sheets.end_match(sheet)
    raise ValueError("an undo is no change of the sheet itself: see changed()")


class SheetService:
    """Creates, loads and changes sheets in ``store`` and announces changes on ``bus``.

    ``idle_s``: a sheet expires this long after its last change (``Settings.sheet_idle_s``);
    ``clock``: the current UTC time (injectable); ``follower``: as for
    :class:`~veillee.live.LiveRecords`. Refusals are
    :class:`~veillee.live.Refusal` with a sheet reason (``"match_decided"``,
    ``"mordienne_off"`` …) or ``"bad_token"``, ``"read_only"``, ``"sheet_gone"``,
    ``"nothing_to_undo"``, ``"busy"``.
    """

    def __init__(
        self,
        store: Store,
        bus: Bus,
        idle_s: float,
        clock: Clock | None = None,
        follower: Follower | None = None,
    ) -> None:
        self.live = LiveRecords(
            KIND,
            store,
            bus,
            gone=SheetRefusal.SHEET_GONE,
            lifetime=lambda _data: timedelta(seconds=idle_s),
            clock=clock,
            follower=follower,
        )

    async def close(self) -> None:
        """Stop following sheets (the process is stopping)."""
        await self.live.close()

    async def create(
        self,
        preset: str,
        sides: tuple[str, str],
        settings: dict[str, Any],
        first_dealer: int,
    ) -> Created:
        """A new empty sheet with a scorer and a viewer token. Raises Refusal with the sheet's
        reason (``unknown_preset``, ``bad_setting_value``, ``bad_first_dealer`` …)."""
        try:
            sheet = sheets.new_sheet(preset, sides, settings, first_dealer)
        except InvalidEntry as err:
            raise Refusal(err.reason_code) from None
        scorer, viewer = new_token(), new_token()
        record = await self.live.create(
            {"sheet": sheet.to_json(), "undo": []}, {scorer: SCORER, viewer: VIEWER}
        )
        return Created(record, scorer, viewer)

    async def role_of(self, sheet_id: str, token: str) -> Role | None:
        """The role ``token`` gives on sheet ``sheet_id``, or None for a token of another record
        or of none."""
        role = await self.live.role(sheet_id, token)
        if role == SCORER:
            return SCORER
        return VIEWER if role == VIEWER else None

    async def access(self, sheet_id: str, token: str) -> Role:
        """The role ``token`` gives on sheet ``sheet_id``. Raises Refusal: ``sheet_gone`` (no
        such sheet: expired and swept with its tokens, or never made), ``bad_token`` (a sheet
        this token opens nothing on), as the socket's hello is answered."""
        role = await self.role_of(sheet_id, token)
        if role is None:
            await self.load(sheet_id)  # a sheet that is gone says so, whatever the token
            raise Refusal(SheetRefusal.BAD_TOKEN)
        return role

    async def load(self, sheet_id: str) -> Record:
        """The sheet's record now. Raises Refusal("sheet_gone")."""
        return await self.live.load(sheet_id)

    async def add_viewer(self, sheet_id: str) -> str:
        """A further viewer token for the sheet (a scorer shares it from another phone)."""
        token = new_token()
        await self.live.add_role(sheet_id, token, VIEWER)
        return token

    async def apply(self, sheet_id: str, role: Role, change: Change, client_id: str) -> Commit:
        """Apply ``change`` by a holder of ``role`` to the sheet as it is now.

        A ``client_id`` applied before is acknowledged again, not applied twice (an entry
        made offline and sent again after a lost acknowledgement). A change made on a version
        the sheet has left is refused: ``version_conflict`` (``change.version``),
        ``row_changed`` (``change.row_version``); of two such changes racing, exactly one is
        applied. Raises Refusal: ``read_only`` for a viewer, ``sheet_gone``,
        ``nothing_to_undo``, ``version_conflict``, ``row_changed``, any sheet reason code,
        ``busy`` if other changes kept winning the race.
        """
        if role != SCORER:
            raise Refusal(SheetRefusal.READ_ONLY)
        return await self.live.commit(
            sheet_id,
            lambda record: changed(record, change),
            client_id=client_id,
            version=change.version,
        )

    async def sweep(self) -> list[str]:
        """Delete every sheet idle for longer than ``idle_s`` at the clock's time and tell its
        open pages (``"gone"`` on the bus). Returns the ids deleted."""
        return await self.live.sweep()


def changed(record: Record, change: Change) -> dict[str, Any]:
    """The sheet record's new document after ``change`` (``undo`` included), with each row's
    version (:func:`row_versions`). Raises Refusal: ``row_changed`` for an ``edit`` or
    ``delete`` whose row is not at the version the page showed, else the sheet's reasons."""
    sheet = sheet_of(record)
    undo: list[dict[str, Any]] = list(record.data.get("undo", []))
    versions = row_versions(record)
    now = record.version + 1
    if change.kind == "undo":
        if sheet.banked:
            raise Refusal(SheetReason.SHEET_BANKED)
        if not undo:
            raise Refusal(SheetRefusal.NOTHING_TO_UNDO)
        restored = undo[-1]
        # Every row of the sheet undone to is new to the pages: none of their row changes holds.
        return {"sheet": restored, "undo": undo[:-1], "row_versions": [now] * len(restored["rows"])}
    one_row = change.kind in ("edit", "delete") and change.index < len(versions)
    if one_row and versions[change.index] != change.row_version:
        raise Refusal(SheetRefusal.ROW_CHANGED)
    try:
        new = apply_change(sheet, change)
    except InvalidEntry as err:
        raise Refusal(err.reason_code) from None
    if change.kind == "add":
        versions = [*versions, now]
    elif change.kind == "edit":
        versions[change.index] = now
    elif change.kind == "delete":
        # The rows after it move up: a change of one of them names it by its old place.
        versions = versions[: change.index] + [now] * (len(versions) - change.index - 1)
    return {
        "sheet": new.to_json(),
        "undo": [*undo, sheet.to_json()][-UNDO_DEPTH:],
        "row_versions": versions,
    }
