"""Telling a seat of a table of people that the table waits for it, with the browser's own
Web Push (issue 26): "your turn", "your friend took a seat", "the match is over".

A seat opts in from its page (:meth:`TurnNotices.subscribe`: the browser's push subscription,
kept with the seat in the store). After each change this process writes (:meth:`written`: a
move, the computer's move, a seat taken) the table looks, in a task of its own, whether a seat
is now awaited — the seat to act, a seat the next deal waits for, every seat once the match is
over, the maker once a friend sat down — and tells each awaited seat that has a subscription,
no page of the table open (presence, across processes) and was not told since it last looked
(:meth:`looked`: its page opened the table). The push itself is a job for the workers
(:class:`~veillee.workers.PushJob`, sent by a worker process, never by the event loop),
tried again after a 5xx or no answer (``Settings.push_retry_s``); a 404 or 410 from the push
service forgets the subscription. None of it is waited for by the move: the move is
acknowledged when it is written.

What a push says is the game, who is waiting (the game's name for them: "Your friend",
"North") and the table's link, in the language of the page that subscribed; never a card, a
score, a token: the notification opens the table in the browser that holds the seat.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from prometheus_client import Counter

from veillee.live import Refusal
from veillee.store import NotFound, PushSubscription, Record
from veillee.tables.records import Table, TableRecords
from veillee.tables.table import KIND, MAKER, TableRefusal
from veillee.workers import NO_ANSWER, Deciders, InlineDeciders, PushJob, VapidKeys

log = logging.getLogger(__name__)

Words = Callable[..., str]
"""``words(lang, key, **values)``: the catalogs' string (the web layer's ``i18n.t``)."""

TURN = "turn"
SEATED = "seated"
OVER = "over"
EXPIRY = "expiry"
KINDS = (TURN, SEATED, OVER, EXPIRY)
"""What a push says: the seat is awaited, a friend took a seat at the maker's table, the match
is over, the table closes in :data:`WARN_BEFORE` (the catalogs' ``push.<kind>.title`` and
``.body``)."""
WARN_BEFORE = timedelta(hours=2)
"""How long before a table of people would expire its subscribed seats are warned, once."""

GONE = (404, 410)
"""A push service's answers that say the subscription is no more."""
PUSHES = Counter("veillee_pushes_total", "Web Push messages, by what became of them", ["outcome"])


@dataclass(frozen=True)
class Pushes:
    """What a table service needs to send pushes: the VAPID ``keys``, their ``subject``, the
    catalogs' ``words``; ``any_endpoint`` (tests only) lets a subscription name a plain
    ``http:`` push endpoint."""

    keys: VapidKeys
    subject: str
    words: Words
    any_endpoint: bool = False


class TurnNotices(TableRecords):
    """The push subscriptions of tables' seats, and what is sent to them (a part of
    :class:`~veillee.tables.service.TableService`). ``pushes``: None sends nothing (tests and
    tools that do not ask for it)."""

    deciders: Deciders

    def __init__(self, *args: Any, pushes: Pushes | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pushes = pushes
        self._noticing: set[asyncio.Task[None]] = set()

    # ---- what a seat asks -------------------------------------------------------------------

    async def subscribe(self, subscription: PushSubscription) -> None:
        """Keep ``subscription`` for its seat (any earlier one of that seat is replaced). Raises
        Refusal: ``table_gone``, ``not_shared`` (a table without another person: nobody to wait
        for), ``bad_push_endpoint`` (not an ``https:`` URL on a named host)."""
        record = await self.load(subscription.record_id)
        doc = self.table(record).doc
        if doc.demo or len(doc.humans) < 2:
            raise Refusal(TableRefusal.NOT_SHARED)
        if not self._endpoint_allowed(subscription.endpoint):
            raise Refusal(PUSH_ENDPOINT)
        try:
            await self.store.set_push_subscription(subscription)
        except NotFound:
            raise Refusal(TableRefusal.TABLE_GONE) from None

    async def unsubscribe(self, table_id: str, seat: int) -> bool:
        """Forget ``seat``'s subscription at ``table_id`` (switched off from the menu, or the
        seat left); whether it had one."""
        return await self.store.delete_push_subscription(table_id, seat)

    async def looked(self, table_id: str, seat: int) -> None:
        """``seat`` has looked at the table (its page opened it): it may be told again."""
        await self.store.mark_push_told(table_id, seat, told=False)

    def _endpoint_allowed(self, endpoint: str) -> bool:
        """An ``https:`` URL on a named host (the push services are: an address or
        ``localhost`` would let a page make the server post to machines beside it)."""
        try:
            parts = urlsplit(endpoint)
            host = parts.hostname or ""
        except ValueError:
            return False
        if self.pushes is not None and self.pushes.any_endpoint:
            return parts.scheme in ("https", "http") and bool(host)
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return parts.scheme == "https" and "." in host and not host.endswith(".localhost")
        return False

    # ---- after each change ------------------------------------------------------------------

    def written(self, record: Record, made: list[tuple[dict[str, Any], Table]]) -> Table:
        table = super().written(record, made)
        doc = table.doc
        if self.pushes is not None and not doc.demo and len(doc.humans) > 1:
            awaited = awaited_seats(table)
            if awaited and not self._all_here(record.id, awaited):
                self._notice_soon(record, table, awaited)
        return table

    def _all_here(self, table_id: str, seats: dict[int, str]) -> bool:
        """Whether every one of ``seats`` has a page of the table open, as this process knows
        at once (it follows the table's presence): then nobody is told, and nothing is read."""
        presence = self.live.presence
        if not presence.claims.follows(table_id):
            return False
        return set(seats) <= set(presence.here(table_id))

    def _notice_soon(
        self, record: Record, table: Table, awaited: dict[int, str], who: int | None = None
    ) -> None:
        """Tell the ``awaited`` seats in a task of its own; ``who`` waits for them (default:
        :func:`waiting_seat`)."""
        task = asyncio.get_running_loop().create_task(self._notice(record, table, awaited, who))
        self._noticing.add(task)
        task.add_done_callback(self._noticing.discard)

    async def settled(self) -> None:
        """Wait until every push asked so far is sent or given up (tests and shutdown)."""
        while self._noticing:
            await asyncio.gather(*list(self._noticing), return_exceptions=True)

    async def _notice(
        self, record: Record, table: Table, awaited: dict[int, str], who: int | None
    ) -> None:
        try:
            subscriptions = [
                s for s in await self.store.push_subscriptions(record.id) if s.seat in awaited
            ]
            if not subscriptions:
                return
            here = set(await self.live.presence.look(record.id))
            for subscription in subscriptions:
                if subscription.seat in here or subscription.told:
                    continue
                # Of processes racing to tell a seat, one does.
                if await self.store.mark_push_told(record.id, subscription.seat):
                    kind = awaited[subscription.seat]
                    said = self.payload(table, record, subscription, kind, who)
                    self._send_soon(subscription, said)
        except Exception:
            log.exception("could not look whom to tell at table %s", record.id)

    def _send_soon(self, subscription: PushSubscription, payload: str) -> None:
        task = asyncio.get_running_loop().create_task(self._send(subscription, payload))
        self._noticing.add(task)
        task.add_done_callback(self._noticing.discard)

    def payload(
        self,
        table: Table,
        record: Record,
        subscription: PushSubscription,
        kind: str,
        who: int | None = None,
    ) -> str:
        """What a push to ``subscription`` says (JSON text, the service worker's to show):
        ``{"title", "body", "url", "tag"}`` in the subscription's language; ``url`` the
        table's page, ``tag`` the table (a newer notification of a table replaces the
        older). Who is waiting: ``who`` (default :func:`waiting_seat`), by the game's name for
        it."""
        assert self.pushes is not None
        words, lang, game = self.pushes.words, subscription.lang, table.doc.game
        names = table.game.info.seat_names
        waiting = waiting_seat(table, subscription.seat) if who is None else who
        name = words(lang, f"{game}.push.who", seat=words(lang, f"{game}.seat.{names[waiting]}"))
        return json.dumps(
            {
                "title": words(lang, f"push.{kind}.title", game=words(lang, f"home.{game}")),
                "body": words(lang, f"push.{kind}.body", who=name),
                "url": f"/{game}/table/{record.id}",
                "tag": f"veillee-table-{record.id}",
            },
            ensure_ascii=False,
        )

    async def _send(self, subscription: PushSubscription, payload: str) -> None:
        assert self.pushes is not None
        job = PushJob(
            subscription.endpoint,
            subscription.p256dh,
            subscription.auth,
            payload,
            self.pushes.keys.private_pem,
            self.pushes.subject,
            timeout_s=self.settings.push_timeout_s,
        )
        deciders = getattr(self, "deciders", None) or InlineDeciders()
        waits = (*self.settings.push_retry_s, None)
        for wait in waits:
            try:
                status = await deciders.push(job)
            except Exception:
                log.exception("a push could not be handed to the workers")
                status = NO_ANSWER
            if 200 <= status < 300:
                PUSHES.labels("sent").inc()
                return
            if status in GONE:
                PUSHES.labels("gone").inc()
                await self.store.delete_push_subscription(
                    subscription.record_id, subscription.seat, subscription.endpoint
                )
                return
            if status != NO_ANSWER and status < 500 and status != 429:
                break  # refused for good (a bad request, a bad signature, NOT_MADE)
            if wait is None:
                break
            PUSHES.labels("retried").inc()
            await asyncio.sleep(wait)
        PUSHES.labels("failed").inc()
        log.warning("gave up a push to seat %s of %s", subscription.seat, subscription.record_id)

    def seat_taken(self, record: Record, seat: int) -> None:
        """``seat`` of ``record`` was just taken through its link: once the table is full its
        maker is told (``seated``), and the seat to act as after any change."""
        table = self.table(record)
        doc = table.doc
        if self.pushes is None or doc.open or len(doc.humans) < 2:
            return
        awaited = {**awaited_seats(table), MAKER: SEATED}
        self._notice_soon(record, table, awaited, seat)

    async def sweep(self) -> list[str]:
        """Delete the tables whose lifetime has run out (:meth:`TableRecords.sweep`), then warn
        the seats of the tables that expire within :data:`WARN_BEFORE` (once per expiry:
        a move gives the table a new one), in a task of its own."""
        gone = await super().sweep()
        if self.pushes is not None:
            task = asyncio.get_running_loop().create_task(self._warn_expiring())
            self._noticing.add(task)
            task.add_done_callback(self._noticing.discard)
        return gone

    async def _warn_expiring(self) -> None:
        now = self.live.clock()
        try:
            expiring = await self.store.expiring_push_subscriptions(KIND, now, now + WARN_BEFORE)
            for subscription, expires_at in expiring:
                if not await self.store.mark_push_warned(
                    subscription.record_id, subscription.seat, expires_at
                ):
                    continue  # another process warns it
                try:
                    record = await self.load(subscription.record_id)
                except Refusal:
                    continue
                table = self.table(record)
                if table.doc.open or subscription.told:
                    continue  # still waiting for its seats (a short life), or told already
                if subscription.seat in set(await self.live.presence.look(record.id)):
                    continue
                if await self.store.mark_push_told(record.id, subscription.seat):
                    said = self.payload(table, record, subscription, EXPIRY)
                    self._send_soon(subscription, said)
        except Exception:
            log.exception("could not warn the seats of tables about to expire")

    async def close(self) -> None:
        """Stop sending (the pushes still out are dropped)."""
        tasks = list(self._noticing)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await super().close()


PUSH_ENDPOINT = "bad_push_endpoint"
"""The refusal of a subscription whose endpoint is no ``https:`` URL."""


def awaited_seats(table: Table) -> dict[int, str]:
    """The people's seats the table waits for now, and what they would be told: the seat to
    act (``turn``); once a deal is over, the seats not ready for the next (``turn``); once the
    match is over, every seat (``over``, only at the change that ended it: nobody is ready
    yet); while seats are open, nobody. A seat the computer stands in for waits for nobody:
    its stand-in plays (and is ready) for it."""
    doc, game, m = table.doc, table.game, table.match
    if doc.open:
        return {}
    people = set(doc.present_humans)
    if game.match.is_over(m):
        return {} if doc.ready else dict.fromkeys(sorted(people), OVER)
    seat = game.match.to_act(m)
    if seat is not None:
        return {seat: TURN} if seat in people else {}
    if game.match.deal_over(m):
        return {s: TURN for s in sorted(people) if s not in doc.ready}
    return {}


def waiting_seat(table: Table, seat: int) -> int:
    """The seat that waits for ``seat``: the one before it in play order (the seat that just
    moved, at a turn of two seats), never ``seat`` itself."""
    seats = len(table.doc.seats)
    return (seat - 1) % seats if seats > 1 else seat
