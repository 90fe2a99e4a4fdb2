"""Changes by seats: a card played or a bid made, ready for the next deal, a new match, the
maker giving open seats to the computer. Each is a :data:`~veillee.tables.records.Move` judged
by the match contract and written by the live-record core."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from veillee.games import IllegalAction
from veillee.games.contract import MatchReason
from veillee.live import Refusal
from veillee.store import Commit
from veillee.tables.records import Table, TableRecords
from veillee.tables.seating import new_match, table_options
from veillee.tables.table import COMPUTER, TableDoc, TableRefusal


def _advanced(table: Table, step: Callable[[Any], Any]) -> Table:
    """``table`` with its match after ``step(match)``; an IllegalAction becomes a Refusal."""
    try:
        m = step(table.match)
    except IllegalAction as exc:
        raise Refusal(exc.reason) from None
    return table.moved(table.doc, m)


def playing(doc: TableDoc) -> None:
    """Refuse any move at a table of two that one of its people left for good: its match is
    over (Refusal("table_left"))."""
    if doc.left and not doc.stand_ins_allowed:
        raise Refusal(TableRefusal.TABLE_LEFT)


class Moves(TableRecords):
    """Changes by seats (a part of :class:`~veillee.tables.service.TableService`)."""

    async def act(
        self, table_id: str, seat: int, client_id: str, text: str, version: int | None = None
    ) -> Commit:
        """Apply the action ``text`` (the game's notation, e.g. ``"JH tierce"``) for ``seat``.

        ``version``, when given, is the version the client saw: if the table has moved on the
        action is refused with ``"version_conflict"`` (two racing actions: exactly one wins).
        Raises Refusal with ``"bad_action"`` (unparseable text) or the rules' reason code
        (``match.why_illegal``); nothing changes then."""

        def play(table: Table) -> Table:
            game = table.game
            playing(table.doc)
            if any(s not in table.doc.stand_in for s in table.doc.open):
                raise Refusal(TableRefusal.TABLE_NOT_FULL)
            try:
                action = game.engine.Action.parse(text)
            except ValueError:
                raise Refusal(TableRefusal.BAD_ACTION) from None

            def apply(m: Any) -> Any:
                reason = game.match.why_illegal(m, seat, action)
                if reason is not None:
                    raise Refusal(reason)
                return game.match.apply(m, action)

            return _advanced(table, apply)

        return await self.change(table_id, play, client_id, version)

    async def next_deal(
        self, table_id: str, seat: int, client_id: str | None, version: int | None = None
    ) -> Commit:
        """``seat`` is ready for what follows the deal that is over: the next partie/hand, or
        once the match is over a new match with the same options. It comes once every seated
        person has asked (a computer seat needs no asking); until then the table records who has
        (``ready``), so each seat sees who is waiting for whom. Asking again changes nothing;
        however the asks race, exactly one deal follows. Raises Refusal("deal_not_over")."""

        def deal(table: Table) -> Table:
            game, doc, m = table.game, table.doc, table.match
            playing(doc)
            if not game.match.deal_over(m):
                raise Refusal(MatchReason.DEAL_NOT_OVER)
            ready = tuple(sorted({*doc.ready, seat}))
            if any(s not in ready for s in doc.present_humans):
                return table.moved(replace(doc, ready=ready), m)
            if game.match.is_over(m):
                m2 = new_match(game, self._rng(), doc.options)
                return table.moved(replace(doc, ready=()), m2)
            dealt = _advanced(table, lambda m: game.match.next_deal(m, self._rng()))
            return dealt.moved(replace(dealt.doc, ready=()), dealt.match)

        return await self.change(table_id, deal, client_id, version)

    async def new_match(
        self,
        table_id: str,
        seat: int,
        client_id: str,
        options: Mapping[str, object] | None = None,
        version: int | None = None,
    ) -> Commit:
        """Abandon the match and start a new one (score 0–0, new random first dealer) with
        ``options`` chosen over the table's (those not chosen stay as the table has them).
        Raises Refusal("bad_options")."""
        chosen = dict(options or {})

        def restart(table: Table) -> Table:
            game, doc = table.game, table.doc
            if len(doc.humans) > 1:
                # Nobody throws a match away for the others: a new match is agreed (``next``).
                raise Refusal(TableRefusal.RESTART_SHARED)
            table_options(game, chosen)  # refuses what the game does not offer
            full = {**doc.options, **chosen}
            return table.moved(replace(doc, options=full), new_match(game, self._rng(), full))

        return await self.change(table_id, restart, client_id, version)

    async def fill(
        self,
        table_id: str,
        seat: int,
        client_id: str,
        seats: Sequence[int],
        version: int | None = None,
    ) -> Commit:
        """The maker of a shared table (``seat`` 0) lets the computer play the open ``seats``
        before the start; the table service then plays them as at a computer table (and starts
        at once if no seat is left open). Raises Refusal: ``not_host`` (another seat asked),
        ``seat_taken`` (one of ``seats`` is not open: someone sat there, or the computer
        already plays it, or stands in for it while it waits for someone new), ``bad_seat``
        (no such seat); nothing changes then."""
        chosen = set(seats)

        def give(table: Table) -> Table:
            doc = table.doc
            if not doc.shared or seat != 0:
                raise Refusal(TableRefusal.NOT_HOST)
            if any(not 0 <= s < len(doc.seats) for s in chosen):
                raise Refusal(TableRefusal.BAD_SEAT)
            if not chosen or not chosen <= set(doc.open) - set(doc.stand_in):
                raise Refusal(TableRefusal.SEAT_TAKEN)
            kinds = tuple(COMPUTER if i in chosen else kind for i, kind in enumerate(doc.seats))
            left = tuple(s for s in doc.open if s not in chosen)
            return table.moved(replace(doc, seats=kinds, open=left), table.match)

        return await self.change(table_id, give, client_id, version)
