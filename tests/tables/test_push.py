"""'Your turn' pushes (issue 26), against the tests' own push service (tests/push_endpoint.py):
whole matches of both games with one seat's page closed get a push at each of that seat's turns
and none while its page is open; what a push carries, decrypted with the subscription's keys,
holds no card, score or token; a 404 or 410 forgets the subscription, a 503 is tried again; a
push never holds up the move's acknowledgement. The pushes are sent by a real worker process
(the embedded pool the computer's decisions use)."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.push_endpoint import Browser, PushEndpoint, push_endpoint
from tests.tables.test_service import Clock
from veillee.bus import InProcessBus
from veillee.config import Settings
from veillee.games import find
from veillee.live import Refusal
from veillee.store import PushSubscription, Store
from veillee.tables import TableService
from veillee.tables.notices import TURN, Pushes, awaited_seats
from veillee.tables.records import Table
from veillee.tables.table import HUMAN, TableDoc
from veillee.web import i18n
from veillee.workers import PoolDeciders, vapid_keys

CARD = re.compile(r"\b(?:[6-9TJQKA2-5]|10)[HSDC]\b|\b[BR]J\b")
"""A card code in a text (the piquet and Spanish packs' codes, the jokers)."""
SHORT = {"chouine": {"best_of": 3}, "charlemagne": {"target": 10}}
"""The shortest matches (Charlemagne's target lowered as the browser tests' scripted tables
do)."""


@dataclass(eq=False)
class Page:
    """A seat's page open at a table, as presence sees it (the socket skeleton's part)."""

    record_id: str
    key: int

    def push_presence(self, here: list[Any]) -> None:
        pass


@pytest.fixture(scope="module")
async def workers() -> AsyncIterator[PoolDeciders]:
    pool = PoolDeciders(1)
    await pool.start()
    yield pool
    await pool.close()


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    with push_endpoint() as running:
        yield running


@pytest.fixture
async def service(
    store: Store, tmp_path: Path, workers: PoolDeciders, clock: Clock
) -> AsyncIterator[TableService]:
    settings = Settings(
        data_dir=tmp_path, bot_delay_ms=0, trick_pause_ms=0, push_retry_s=(0.05, 0.05)
    )
    pushes = Pushes(vapid_keys(None, tmp_path), "mailto:push@veillee.test", i18n.t, True)
    tables = TableService(
        store, InProcessBus(), settings, clock=clock, seed=7, deciders=workers, pushes=pushes
    )
    yield tables
    await tables.settled()
    await tables.close()


async def seated_table(service: TableService, game: str) -> tuple[str, dict[int, str]]:
    """A full table of people of ``game`` (its shortest match): its id and each seat's token."""
    found = find(game)
    m = found.match.new_match(random.Random(5), SHORT[game])
    grant = await service.create_shared_table(game, SHORT[game], match=m)
    tokens = {0: grant.token}
    for _ in range(found.info.seats - 1):
        joined = await service.join(grant.table_id)
        tokens[joined.seat] = joined.token
    await service.settled()
    return grant.table_id, tokens


async def subscribe(
    service: TableService, endpoint: PushEndpoint, table_id: str, seat: int, lang: str = "en"
) -> Browser:
    browser = Browser()
    sub = endpoint.subscription(f"{table_id}-{seat}", browser)
    await service.subscribe(
        PushSubscription(
            table_id, seat, sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], lang
        )
    )
    return browser


def awaited(service: TableService, record: Any) -> list[int]:
    """The people's seats the table waits for (the seat to act, or those not ready yet)."""
    table = service.table(record)
    m = table.game.match
    seat = m.to_act(table.match)
    if seat is not None:
        return [seat]
    return [s for s in table.doc.humans if s not in table.doc.ready]


async def move(service: TableService, table_id: str, seat: int, rng: random.Random) -> None:
    """``seat`` makes a move (a card, a bid), or says it is ready for the next deal."""
    record = await service.load(table_id)
    table = service.table(record)
    client = f"c{rng.getrandbits(48):x}"
    match = table.game.match
    if match.to_act(table.match) == seat:
        # The computer player's choice: matches of a usual length (a random bid ends one at once).
        observation = match.observation(table.match, seat)
        action = table.game.player.choose(observation, match.legal_actions(table.match), rng)
        await service.act(table_id, seat, client, str(action), record.version)
    else:
        await service.next_deal(table_id, seat, client)


def assert_says_no_secret(said: dict[str, Any], tokens: dict[int, str]) -> None:
    assert set(said) == {"title", "body", "url", "tag"}
    text = " ".join(str(v) for v in said.values())
    assert CARD.search(said["title"] + " " + said["body"]) is None, said
    assert not re.search(r"\d", said["title"] + said["body"]), said  # no score, no count
    assert all(token not in text for token in tokens.values())


@pytest.mark.parametrize("game", ["chouine", "charlemagne"])
async def test_push_at_each_of_a_closed_seats_turns_through_a_whole_match(
    service: TableService, endpoint: PushEndpoint, game: str
) -> None:
    table_id, tokens = await seated_table(service, game)
    closed = len(tokens) - 1
    browser = await subscribe(service, endpoint, table_id, closed, lang="fr")
    pages = {s: Page(table_id, s) for s in tokens if s != closed}
    for page in pages.values():
        await service.live.presence.enter(page)
    rng = random.Random(11)
    # fresh: the closed seat has looked at the table since it was last told (or never was).
    expected, moved_last, fresh = 0, closed, True
    while True:
        record = await service.load(table_id)
        table = service.table(record)
        await service.settled()
        over = table.game.match.is_over(table.match)
        waiting = list(tokens) if over else awaited(service, record)
        if closed in waiting and moved_last != closed and fresh:
            expected += 1  # another seat's move left the table waiting for the closed one
            fresh = False
        assert len(endpoint.received) == expected
        if over:
            break
        # The others first; the closed seat opens its page, looks, moves, and closes it.
        seat = next((s for s in waiting if s != closed), closed)
        if seat == closed:
            page = Page(table_id, closed)
            await service.live.presence.enter(page)
            await service.looked(table_id, closed)
            fresh = True
            await move(service, table_id, seat, rng)
            await service.settled()
            await service.live.presence.leave(page)
        else:
            await move(service, table_id, seat, rng)
        moved_last = seat
    said = [browser.decrypt(push) for push in endpoint.received]
    assert len(said) == expected > 3
    for each in said:
        assert_says_no_secret(each, tokens)
        assert each["url"] == f"/{game}/table/{table_id}"
    turn = i18n.t("fr", "push.turn.title", game=i18n.t("fr", f"home.{game}"))
    over = i18n.t("fr", "push.over.title", game=i18n.t("fr", f"home.{game}"))
    assert {each["title"] for each in said[:-1]} == {turn}
    assert said[-1]["title"] in (turn, over)
    assert {push.path for push in endpoint.received} == {f"/push/{table_id}-{closed}"}


@pytest.mark.parametrize("game", ["chouine", "charlemagne"])
async def test_no_push_while_the_seats_page_is_open(
    service: TableService, endpoint: PushEndpoint, game: str
) -> None:
    table_id, tokens = await seated_table(service, game)
    for seat in tokens:
        await subscribe(service, endpoint, table_id, seat)
        await service.live.presence.enter(Page(table_id, seat))
    rng = random.Random(3)
    moves = 0
    while True:
        record = await service.load(table_id)
        if service.table(record).game.match.is_over(service.table(record).match):
            break
        await move(service, table_id, awaited(service, record)[0], rng)
        moves += 1
    await service.settled()
    assert moves > 20
    assert endpoint.received == []


async def test_push_is_sent_once_until_the_seat_looks_again(
    service: TableService, endpoint: PushEndpoint
) -> None:
    table_id, _ = await seated_table(service, "charlemagne")
    record = await service.load(table_id)
    seat = awaited(service, record)[0]
    await subscribe(service, endpoint, table_id, seat)
    service.written(record, [])  # the table waits for the seat: told
    service.written(record, [])  # and again: not told twice
    await service.settled()
    assert len(endpoint.received) == 1
    await service.looked(table_id, seat)
    service.written(record, [])
    await service.settled()
    assert len(endpoint.received) == 2


async def test_the_maker_is_told_when_a_friend_takes_the_last_seat(
    service: TableService, endpoint: PushEndpoint
) -> None:
    grant = await service.create_shared_table("chouine", {"best_of": 3})
    browser = await subscribe_open_table(service, endpoint, grant.table_id)
    await service.join(grant.table_id)
    await service.settled()
    (push,) = endpoint.received
    said = browser.decrypt(push)
    assert said["title"] == i18n.t("en", "push.seated.title", game="Chouine")
    assert said["body"] == i18n.t("en", "push.seated.body", who="Your friend")


async def subscribe_open_table(
    service: TableService, endpoint: PushEndpoint, table_id: str
) -> Browser:
    """The maker subscribes while its friend's seat is still open (kept in the store as the
    page would: the seat asks once the table is full; a maker asking early is allowed)."""
    browser = Browser()
    sub = endpoint.subscription("maker", browser)
    await service.store.set_push_subscription(
        PushSubscription(table_id, 0, sub["endpoint"], browser.p256dh, browser.auth, "en")
    )
    return browser


@pytest.mark.parametrize("status", [404, 410])
async def test_a_push_service_saying_gone_forgets_the_subscription(
    service: TableService, endpoint: PushEndpoint, status: int
) -> None:
    table_id, _ = await seated_table(service, "chouine")
    record = await service.load(table_id)
    seat = awaited(service, record)[0]
    await subscribe(service, endpoint, table_id, seat)
    endpoint.script = [status]
    service.written(record, [])
    await service.settled()
    assert len(endpoint.received) == 1
    assert await service.store.push_subscriptions(table_id) == []


async def test_a_503_is_tried_again(service: TableService, endpoint: PushEndpoint) -> None:
    table_id, _ = await seated_table(service, "chouine")
    record = await service.load(table_id)
    seat = awaited(service, record)[0]
    browser = await subscribe(service, endpoint, table_id, seat)
    endpoint.script = [503, 503]
    service.written(record, [])
    await service.settled()
    assert len(endpoint.received) == 3  # two 503s, then 201
    said = [browser.decrypt(push) for push in endpoint.received]
    assert said[0] == said[1] == said[2]
    (kept,) = await service.store.push_subscriptions(table_id)
    assert kept.told


async def test_a_push_never_holds_up_the_moves_acknowledgement(
    service: TableService, endpoint: PushEndpoint
) -> None:
    table_id, _ = await seated_table(service, "chouine")
    record = await service.load(table_id)
    mover = awaited(service, record)[0]
    await subscribe(service, endpoint, table_id, 1 - mover)
    endpoint.release.clear()  # the push service takes its time to answer
    await move(service, table_id, mover, random.Random(1))  # acknowledged: applied, committed
    while not endpoint.received:  # the push reaches the service, which holds it
        await asyncio.sleep(0.01)
    assert endpoint.answered == 0  # the move's acknowledgement did not wait for it
    endpoint.release.set()
    await service.settled()
    assert endpoint.answered == 1


async def test_a_seat_left_and_a_table_gone_forget_the_subscription(
    service: TableService, endpoint: PushEndpoint
) -> None:
    table_id, _ = await seated_table(service, "charlemagne")
    for seat in (1, 2):
        await subscribe(service, endpoint, table_id, seat)
    await service.leave(table_id, 1, "leaving-1")  # for good: the stand-in takes the seat
    assert [s.seat for s in await service.store.push_subscriptions(table_id)] == [2]
    await service.store.delete(table_id)
    assert await service.store.push_subscriptions(table_id) == []


async def test_a_push_endpoint_must_be_https_and_the_table_of_people(
    service: TableService, store: Store, tmp_path: Path
) -> None:
    strict = TableService(
        store,
        InProcessBus(),
        Settings(data_dir=tmp_path),
        pushes=Pushes(vapid_keys(None, tmp_path), "mailto:x@y", i18n.t),
    )
    table_id, _ = await seated_table(strict, "chouine")
    plain = PushSubscription(table_id, 1, "http://127.0.0.1:9/push", "k" * 87, "a" * 22, "en")
    with pytest.raises(Refusal) as refused:
        await strict.subscribe(plain)
    assert refused.value.reason == "bad_push_endpoint"
    grant = await strict.create_computer_table("chouine")
    with pytest.raises(Refusal) as refused:
        await strict.subscribe(
            PushSubscription(grant.table_id, 0, "https://p.example/x", "k", "a", "en")
        )
    assert refused.value.reason == "not_shared"
    await strict.close()


def test_the_vapid_key_is_made_once_and_kept(tmp_path: Path) -> None:
    made = vapid_keys(None, tmp_path)
    assert vapid_keys(None, tmp_path) == made
    assert (tmp_path / "vapid_private.pem").stat().st_mode & 0o077 == 0
    assert vapid_keys(made.private_pem, tmp_path / "elsewhere") == made
    assert len(made.public) == 87  # 65 bytes, base64url


async def test_the_seats_are_warned_once_two_hours_before_the_table_expires(
    service: TableService, endpoint: PushEndpoint, clock: Clock
) -> None:
    table_id, _ = await seated_table(service, "chouine")
    browser = await subscribe(service, endpoint, table_id, 1)
    await service.sweep()
    await service.settled()
    assert endpoint.received == []  # 48 hours to go
    clock.now += timedelta(hours=46, minutes=30)
    await service.sweep()
    await service.settled()
    (push,) = endpoint.received
    said = browser.decrypt(push)
    assert said["title"] == i18n.t("en", "push.expiry.title", game="Chouine")
    await service.looked(table_id, 1)
    await service.sweep()  # once per expiry, looked at or not
    await service.settled()
    assert len(endpoint.received) == 1


def test_a_seat_the_computer_stands_in_for_is_not_awaited() -> None:
    # Its person is away and the computer plays for it: nobody is told it is "their" turn.
    game = find("charlemagne")
    m = game.match.new_match(random.Random(2), {})
    seat = game.match.to_act(m)
    seats = (HUMAN,) * game.info.seats
    doc = TableDoc("charlemagne", dict(m.options), seats, game.match.to_json(m), shared=True)
    assert awaited_seats(Table(doc, game, m)) == {seat: TURN}
    stood_in = replace(doc, stand_in=(seat,))
    assert awaited_seats(Table(stood_in, game, m)) == {}
