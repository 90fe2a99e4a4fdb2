"""Test hook: a computer table whose first deal is scripted, or whose match is shortened.

Browser tests need tables a random deal would rarely give (the dealer stuck after three passes;
a partner bidding a solo contract) and matches short enough to play to their end. With
``settings.test_hooks`` on (``VEILLEE_TEST_HOOKS=1``; off by default, and ``veillee serve``
refuses to start with it) this module serves::

    POST /api/test/tables  {"game": "<name>", "deck": [34 card codes, top first] | null,
                            "dealer": 3 | null, "options": {"target": 10}, "shared": false,
                            "seats": ["human", "human"] | null}
    201                    {"table_id", "seat", "token", "url",   (as POST /api/tables)
                            "tokens": [{"seat": 0, "token": "…"}, …]}

The table is made by the table service like any computer table (a person at seat 0); with
``shared`` like any shared table (its maker at seat 0, the other seats open to their links); or
with ``seats`` as given (``"human"`` or ``"computer"`` per seat: a table of people, every human
seat's token in ``tokens``; ``seat`` and ``token`` are then the first human seat's; with
``shared`` too, a table sat at through links whose seats are all taken already), seated
with the match ``start_match(deal(deck, dealer), options)`` (or ``new_match`` with ``options``
when no deck is given) instead of a random one. Later deals are random. With the setting off
every request is ``404``. Refusals: the one error shape, code ``bad_script`` (422).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from veillee.games import find, names
from veillee.tables import TableService
from veillee.tables.records import fresh_rng
from veillee.web.live_protocol import error_response
from veillee.web.table_routes import TableRequestRefusal

router = APIRouter()


class ScriptedTable(BaseModel):
    """Body of ``POST /api/test/tables``."""

    model_config = ConfigDict(extra="forbid", strict=True)
    game: Annotated[str, Field(max_length=32)]
    deck: Annotated[list[str], Field(max_length=64)] | None = None
    dealer: StrictInt | None = None
    options: Annotated[dict[str, StrictInt], Field(max_length=4)] = {}
    shared: StrictBool = False
    seats: Annotated[list[Literal["human", "computer"]], Field(max_length=8)] | None = None


def scripted_match(body: ScriptedTable) -> Any:
    """The match the body asks for. Raises ValueError (or TypeError) for a bad script."""
    game = find(body.game)
    if body.deck is None:
        return game.match.new_match(fresh_rng(), body.options)
    if body.dealer is None:
        raise ValueError("a scripted deck needs its dealer")
    state = game.engine.deal(body.deck, dealer=body.dealer)
    return game.match.start_match(state, body.options)


@router.post("/api/test/tables", status_code=201)
async def create_scripted_table(request: Request) -> JSONResponse:
    """See the module docstring; ``404`` unless ``settings.test_hooks``."""
    if not request.app.state.settings.test_hooks:
        raise HTTPException(404)
    try:
        body = ScriptedTable.model_validate_json(await request.body())
        if body.game not in names():
            raise ValueError("unknown game")
        if body.seats is not None and "human" not in body.seats:
            raise ValueError("a table needs a person to sit at it")
        m = scripted_match(body)
    except (ValidationError, ValueError, TypeError):
        return error_response(request, TableRequestRefusal.BAD_SCRIPT)
    service: TableService = request.app.state.tables
    if body.shared and body.seats is None:
        grants = [await service.create_shared_table(body.game, body.options, match=m)]
    elif body.seats is None:
        grants = [await service.create_computer_table(body.game, body.options, match=m)]
    else:
        try:
            _, grants = await service.create_table(
                body.game, tuple(body.seats), body.options, match=m, shared=body.shared or None
            )
        except ValueError:
            return error_response(request, TableRequestRefusal.BAD_SCRIPT)
    grant = grants[0]
    return JSONResponse(
        {
            "table_id": grant.table_id,
            "seat": grant.seat,
            "token": grant.token,
            "url": f"/{body.game}/table/{grant.table_id}",
            "tokens": [{"seat": g.seat, "token": g.token} for g in grants],
        },
        status_code=201,
    )
