"""The sheet websocket's and API's own messages (documented in ``docs/sheets-protocol.md``); the
ones every live socket shares (``hello``, ``ping``, ``ack``, ``error``, ``pong``) are in
``live_protocol``.

>>> SHEET_CHANGES.parse('{"type": "add", "client_id": "c1", "side": 0, "outcome": "won"}')
AddIn(type='add', client_id='c1', side=0, outcome='won')
>>> SHEET_CHANGES.parse('{"type": "add", "client_id": "c1", "side": 0}')
Traceback (most recent call last):
...
veillee.web.live_protocol.BadMessage: bad_message
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StrictBool, StrictInt

from veillee import sheets
from veillee.scores import Change
from veillee.web.live_protocol import ClientId, Hello, In, Messages, Out, Ping, Version

Side = Annotated[StrictInt, Field(ge=0, le=1)]
Index = Annotated[StrictInt, Field(ge=0, le=9999)]
Name = Annotated[str, Field(min_length=1, max_length=32)]
SettingValue = StrictBool | StrictInt | Annotated[str, Field(max_length=32)]


class AddIn(In):
    """Enter a row: ``outcome`` for ``side`` (spec §A1). ``client_id`` is made by the phone, so
    an entry kept offline and sent twice is stored once."""

    type: Literal["add"]
    client_id: ClientId
    side: Side
    outcome: Name


class EditIn(In):
    """Replace row ``index`` (from 0) with ``outcome`` for ``side``. ``row_version`` is the
    row's own version as the page showed it (the view's ``rows[index].version``): refused as
    ``row_changed`` if the row has changed, moved or gone since."""

    type: Literal["edit"]
    client_id: ClientId
    index: Index
    row_version: Version
    side: Side
    outcome: Name


class DeleteIn(In):
    """Delete row ``index`` (from 0); later rows move up. ``row_version`` as for
    :class:`EditIn`."""

    type: Literal["delete"]
    client_id: ClientId
    index: Index
    row_version: Version


class SettingIn(In):
    """Change setting ``name`` (spec §A2; race to ten while rows exist) of the sheet at
    ``version`` (refused as ``version_conflict`` if it has moved on)."""

    type: Literal["setting"]
    client_id: ClientId
    name: Name
    value: SettingValue
    version: Version


class EndIn(In):
    """End match: bank the result of the sheet at ``version``, the one the page showed when it
    asked for confirmation (refused as ``version_conflict`` if it has moved on)."""

    type: Literal["end"]
    client_id: ClientId
    version: Version


class UndoIn(In):
    """Undo the last change to the sheet at ``version`` (refused as ``version_conflict`` if it
    has moved on: the last change is then not the one the page showed)."""

    type: Literal["undo"]
    client_id: ClientId
    version: Version


ChangeIn = AddIn | EditIn | DeleteIn | SettingIn | EndIn | UndoIn
SHEET_CHANGES = Messages(AddIn, EditIn, DeleteIn, SettingIn, EndIn, UndoIn)
"""The changes a scorer may send (the body of ``POST /api/sheets/<id>/changes``)."""
SHEET_MESSAGES = Messages(Hello, Ping, AddIn, EditIn, DeleteIn, SettingIn, EndIn, UndoIn)
"""Everything a sheet page may send on its socket."""


class CreateIn(In):
    """Start a sheet: the preset, the two sides' names, settings (others default), first dealer
    (seat 0–3 clockwise; side 0 = seats 0 and 2)."""

    preset: Name = sheets.DEFAULT_PRESET
    sides: tuple[Annotated[str, Field(max_length=80)], Annotated[str, Field(max_length=80)]] = (
        sheets.DEFAULT_SIDES
    )
    settings: dict[Name, SettingValue] = Field(default_factory=dict, max_length=16)
    first_dealer: StrictInt = 0


class SheetOut(Out):
    """The sheet as this page may see it (``sheet_view``): sent on hello and on every change.
    ``version`` is the sheet's (also ``sheet["version"]``)."""

    type: Literal["sheet"] = "sheet"
    version: int
    sheet: dict[str, Any]


def to_change(message: ChangeIn) -> Change:
    """The service's :class:`Change` for a validated message."""
    if isinstance(message, AddIn):
        return Change("add", side=message.side, outcome=message.outcome)
    if isinstance(message, EditIn):
        return Change(
            "edit",
            index=message.index,
            row_version=message.row_version,
            side=message.side,
            outcome=message.outcome,
        )
    if isinstance(message, DeleteIn):
        return Change("delete", index=message.index, row_version=message.row_version)
    if isinstance(message, SettingIn):
        return Change("setting", name=message.name, value=message.value, version=message.version)
    if isinstance(message, EndIn):
        return Change("end", version=message.version)
    return Change("undo", version=message.version)
