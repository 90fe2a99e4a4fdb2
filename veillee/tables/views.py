"""What a seat, the resume list and a demonstration's spectator are sent of a table: the match
contract's views and nothing else of the match (the deck order stays on the server)."""

from __future__ import annotations

from typing import Any

from veillee.games import find
from veillee.live import Refusal
from veillee.store import Record
from veillee.tables.records import Table
from veillee.tables.table import TableDoc, TableRefusal


def seat_view(record: Record, seat: int, table: Table | None = None) -> dict[str, Any]:
    """What ``seat`` is sent about the table in ``record``: ``{"version", "seat", "game",
    "seats", "options", "level", "seated", "ready", "shared", "expires_at", "stand_in", "vacant",
    "given", "left", "view"}`` where ``level`` is the computer seats' level
    (``GameInfo.levels``) and ``view`` is ``match.view(m, seat)`` and nothing else of
    the match (the deck order stays on the server); ``seated`` says per seat whether someone
    sits there, ``ready`` which seats asked for the next deal, ``expires_at`` when the table is
    dropped unless something happens (ISO 8601, UTC); ``stand_in`` the people's seats the
    computer plays for now, ``vacant`` those of them given to someone new who has not sat yet,
    ``given`` per seat how often it was given (its seat link names it, ``&g=<n>``), ``left``
    the seats whose person left for good. ``table``: the record already read
    (:meth:`TableService.table`)."""
    table = table or Table.read(record.data)
    doc = table.doc
    return {
        "version": record.version,
        "seat": seat,
        "game": doc.game,
        "seats": list(doc.seats),
        "options": dict(doc.options),
        "level": doc.level,
        "seated": list(doc.seated),
        "ready": list(doc.ready),
        "shared": doc.shared,
        "expires_at": record.expires_at.isoformat() if record.expires_at else None,
        **comings_and_goings(doc),
        "view": table.game.match.view(table.match, seat),
    }


def comings_and_goings(doc: TableDoc) -> dict[str, list[int]]:
    """The ``stand_in``, ``vacant``, ``given`` and ``left`` of a seat's view (:func:`seat_view`)."""
    return {
        "stand_in": list(doc.stand_in),
        "vacant": [s for s in doc.open if s in doc.stand_in],
        "given": [doc.generation(s) for s in range(len(doc.seats))],
        "left": list(doc.left),
    }


def seat_summary(record: Record, seat: int) -> dict[str, Any]:
    """What the resume list shows ``seat`` of its table: ``{"table_id", "game", "url", "seat",
    "seats", "seated", "ready", "expires_at", "match", "score", "to_act", "phase",
    "seat_names", "partner", "stand_in", "left"}``: the match's public part (``view["match"]``:
    score, length, results), ``score`` as the game counts it for the seat's side (``[its
    side's, the other side's]``: the match contract's ``score``), whose turn it is, the deal's
    ``phase`` (what the seat to act is doing, in the game's words: the match contract's
    ``phase``), the
    names the game declares for its seats (``GameInfo.seat_names``) and the seat's partner
    (``GameInfo.partners``; None where every seat plays for itself), the seats the computer
    stands in for and those whose person left for good; never a card."""
    table = Table.read(record.data)
    full = seat_view(record, seat, table)
    return {
        "table_id": record.id,
        "game": full["game"],
        "url": f"/{full['game']}/table/{record.id}",
        "seat": seat,
        "seats": full["seats"],
        "seated": full["seated"],
        "ready": full["ready"],
        "expires_at": full["expires_at"],
        "match": full["view"]["match"],
        "score": list(table.game.match.score(table.match, seat)),
        "to_act": table.game.match.to_act(table.match),
        "phase": table.game.match.phase(table.match),
        "seat_names": list(table.game.info.seat_names),
        "partner": table.game.info.partners[seat] if table.game.info.partners else None,
        "stand_in": full["stand_in"],
        "left": full["left"],
    }


def spectator_view(record: Record) -> dict[str, Any]:
    """What the spectator of a demonstration table is sent: the keys of :func:`seat_view` with
    ``seat`` ``None`` and ``view`` the match's ``spectator_view`` (every hand face up). Raises
    Refusal("not_a_demo") for any table a person sits at, or that is not a demonstration: no
    table where someone plays is ever shown this way."""
    doc = TableDoc.from_data(record.data)
    if not doc.watchable:
        raise Refusal(TableRefusal.NOT_A_DEMO)
    match = find(doc.game).match
    return {
        "version": record.version,
        "seat": None,
        "game": doc.game,
        "seats": list(doc.seats),
        "options": dict(doc.options),
        "seated": list(doc.seated),
        "ready": list(doc.ready),
        "shared": doc.shared,
        "expires_at": record.expires_at.isoformat() if record.expires_at else None,
        **comings_and_goings(doc),
        "view": match.spectator_view(match.from_json(doc.match)),
    }
