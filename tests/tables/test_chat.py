"""Table chat through the service: what a line may hold, who may say it, how often, and that it
lives beside the table (never moving its version) and goes when the table is swept."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import timedelta

import pytest

from tests.tables.test_service import Clock
from veillee.live.chat import BURST, KEPT, MAX_CHARS, WINDOW, clean_text
from veillee.store import ChatLine, Store
from veillee.tables import COMPUTER, HUMAN, Refusal, TableService
from veillee.tables.chat import TableChat


class Seen:
    """A chat watcher that keeps what it is pushed."""

    def __init__(self) -> None:
        self.lines: list[ChatLine] = []

    def push_lines(self, lines: Sequence[ChatLine]) -> None:
        self.lines.extend(lines)


def test_control_and_bidi_characters_are_removed_and_line_breaks_become_spaces() -> None:
    assert clean_text("a\u202eb\u202dc") == "abc"  # right-to-left and left-to-right overrides
    assert clean_text("\u2066x\u2067y\u2068z\u2069") == "xyz"  # isolates
    assert clean_text("\u200eL\u200fR\u061cA\u202a\u202b\u202c") == "LRA"  # marks, embeddings
    assert clean_text("a\x00b\x07c\x1bd\x7fe\x9bf") == "abcdef"  # C0, DEL and C1 controls
    assert clean_text("a\ud800b\udfffc") == "abc"  # lone surrogates: no text, no store holds them
    assert clean_text("one\ntwo\r\nthree\tfour\u2028five") == "one two  three four five"
    assert clean_text("  \t padded \n ") == "padded"
    # Markup is text: kept as written, as are emoji (their joiners too) and accents.
    assert clean_text("<img src=x onerror=alert(1)>") == "<img src=x onerror=alert(1)>"
    assert (
        clean_text("👩\u200d👩\u200d👧 Dix de der, brisque !")
        == "👩\u200d👩\u200d👧 Dix de der, brisque !"
    )
    assert clean_text("\u202e\u2066\x00 \n") == ""


async def test_a_line_is_stored_cleaned_numbered_and_leaves_the_version_alone(
    service: TableService, clock: Clock
) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    first, repeat = await chat.say(record.id, 0, "c1", "  Bonsoir\u202e à tous  ")
    assert (first.seq, first.seat, first.text, first.at, repeat) == (
        1,
        0,
        "Bonsoir à tous",
        clock.now,
        False,
    )
    second, _ = await chat.say(record.id, 1, "c2", "Bonsoir !")
    assert second.seq == 2 and second.seat == 1
    assert (await service.load(record.id)).version == record.version == 0
    assert [(line.seq, line.text) for line in await chat.lines_since(record.id, 0)] == [
        (1, "Bonsoir à tous"),
        (2, "Bonsoir !"),
    ]
    assert [line.seq for line in await chat.lines_since(record.id, 1)] == [2]


async def test_a_repeated_client_id_is_acknowledged_not_written_twice(
    service: TableService,
) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    line, repeat = await chat.say(record.id, 0, "same", "hello")
    again, repeat_again = await chat.say(record.id, 0, "same", "hello")
    assert (repeat, repeat_again, again) == (False, True, line)
    assert len(await chat.lines_since(record.id, 0)) == 1


async def test_empty_and_too_long_lines_are_refused(service: TableService) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    for text in ("", "   ", "\u202e\u2066", "\x00\n\t"):
        with pytest.raises(Refusal) as refused:
            await chat.say(record.id, 0, "e", text)
        assert refused.value.reason == "chat_empty"
    with pytest.raises(Refusal) as refused:
        await chat.say(record.id, 0, "long", "x" * (MAX_CHARS + 1))
    assert refused.value.reason == "chat_too_long"
    # 500 characters once cleaned are fine, however many controls came with them.
    line, _ = await chat.say(record.id, 0, "full", "\u202e" * 40 + "é" * MAX_CHARS)
    assert line.text == "é" * MAX_CHARS
    assert [line.seq for line in await chat.lines_since(record.id, 0)] == [1]


async def test_a_seat_may_say_five_lines_in_ten_seconds(
    service: TableService, clock: Clock
) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    for n in range(BURST):
        await chat.say(record.id, 0, f"a{n}", f"line {n}")
        clock.now += timedelta(seconds=1)
    with pytest.raises(Refusal) as refused:
        await chat.say(record.id, 0, "a5", "one too many")
    assert refused.value.reason == "chat_too_fast"
    # The other seat has its own count; a repeat of a line already said is still answered.
    await chat.say(record.id, 1, "b0", "my turn to speak")
    assert (await chat.say(record.id, 0, "a4", "line 4"))[1] is True
    # Ten seconds after the first line, one more may go.
    clock.now = clock.now - timedelta(seconds=BURST) + WINDOW
    line, _ = await chat.say(record.id, 0, "a5", "now it goes")
    assert line.seq == BURST + 2
    with pytest.raises(Refusal):
        await chat.say(record.id, 0, "a6", "but not two")


async def test_a_seats_limit_holds_however_many_sockets_say_lines_at_once(
    service: TableService,
) -> None:
    """Lines said at the same moment through several sockets (or processes) of one seat are
    counted one after the other: at most five are accepted, the others refused as too fast."""
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    chats = [TableChat(service) for _ in range(3)]  # three sockets' worth, each its own feed
    said = await asyncio.gather(
        *(chats[n % 3].say(record.id, 0, f"burst{n}", f"line {n}") for n in range(3 * BURST)),
        return_exceptions=True,
    )
    accepted = [s for s in said if not isinstance(s, BaseException)]
    refused = [s for s in said if isinstance(s, Refusal)]
    assert len(accepted) == BURST
    assert len(refused) == 2 * BURST
    assert {r.reason for r in refused} == {"chat_too_fast"}
    assert len(await service.store.chat_lines(record.id)) == BURST


async def test_only_the_people_of_a_table_of_people_may_talk(service: TableService) -> None:
    chat = TableChat(service)
    alone, _ = await service.create_table("chouine", (HUMAN, COMPUTER))
    shared, _ = await service.create_table("charlemagne", (HUMAN, COMPUTER, HUMAN, COMPUTER))
    refusals = []
    for table_id, seat in ((alone.id, 0), (shared.id, 1), (shared.id, "spectator"), (shared.id, 9)):
        with pytest.raises(Refusal) as refused:
            await chat.say(table_id, seat, "x", "hello")
        refusals.append(refused.value.reason)
    assert refusals == ["chat_closed"] * 4
    with pytest.raises(Refusal) as refused:
        await chat.say("no-such-table", 0, "x", "hello")
    assert refused.value.reason == "table_gone"
    line, _ = await chat.say(shared.id, 2, "x", "partner!")
    assert (line.seat, line.seq) == (2, 1)


async def test_the_chat_goes_with_the_table_when_it_is_swept(
    service: TableService, store: Store, clock: Clock
) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    await chat.say(record.id, 0, "c1", "bye")
    clock.now += timedelta(seconds=service.settings.shared_table_idle_s - 1)
    kept, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    await chat.say(kept.id, 1, "c1", "still here")
    # A chat line is no move: it does not keep the table alive.
    await chat.say(record.id, 1, "c2", "last words")
    clock.now += timedelta(seconds=2)
    assert await service.sweep() == [record.id]
    assert await store.chat_lines(record.id) == []
    assert [line.text for line in await store.chat_lines(kept.id)] == ["still here"]
    with pytest.raises(Refusal) as refused:
        await chat.say(record.id, 0, "c3", "anyone?")
    assert refused.value.reason == "table_gone"


async def test_a_chat_keeps_its_newest_lines_and_drops_the_older(
    service: TableService, store: Store, clock: Clock
) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    said = KEPT + 7
    for n in range(1, said + 1):
        await chat.say(record.id, n % 2, f"c{n}", f"line {n}")
        clock.now += WINDOW / BURST  # each seat well within its rate
    kept = list(range(said - KEPT + 1, said + 1))
    assert [line.seq for line in await store.chat_lines(record.id)] == kept
    # A seat opening the chat is sent the kept lines; one that had line 3 resumes after the gap.
    assert [line.seq for line in await chat.lines_since(record.id, 0)] == kept
    assert [line.seq for line in await chat.lines_since(record.id, 3)] == kept
    assert (await chat.lines_since(record.id, 0))[-1].text == f"line {said}"
    # The numbering goes on from the newest line.
    line, _ = await chat.say(record.id, 0, "next", "and on")
    assert line.seq == said + 1
    assert len(await store.chat_lines(record.id)) == KEPT


async def test_lines_reach_this_processs_watchers_once_each(service: TableService) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("chouine", (HUMAN, HUMAN))
    seen = Seen()
    async with chat.feed.watch(record.id, seen):
        await chat.say(record.id, 0, "c1", "one")
        await chat.say(record.id, 1, "c2", "two")
        await chat.say(record.id, 1, "c2", "two")  # a repeat is not handed out again
        await asyncio.sleep(0.05)  # the bus's echo of each line is heard, and ignored
    assert [(line.seq, line.seat, line.text) for line in seen.lines] == [
        (1, 0, "one"),
        (2, 1, "two"),
    ]


async def test_racing_lines_take_successive_numbers(service: TableService) -> None:
    chat = TableChat(service)
    record, _ = await service.create_table("charlemagne", (HUMAN,) * 4)
    said = await asyncio.gather(
        *(chat.say(record.id, seat, f"c{seat}", f"seat {seat}") for seat in range(4))
    )
    assert sorted(line.seq for line, _ in said) == [1, 2, 3, 4]
    stored = await chat.lines_since(record.id, 0)
    assert [line.seq for line in stored] == [1, 2, 3, 4]
    assert sorted(line.text for line in stored) == [f"seat {seat}" for seat in range(4)]
