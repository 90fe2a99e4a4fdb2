import asyncio

from veillee.bus import InProcessBus


async def test_in_process_bus_delivers_to_each_subscriber_of_the_channel() -> None:
    bus = InProcessBus()
    async with bus.subscribe("t:1") as a, bus.subscribe("t:1") as b, bus.subscribe("t:2") as c:
        await bus.publish("t:1", "3")
        assert await asyncio.wait_for(a.get(), 1) == "3"
        assert await asyncio.wait_for(b.get(), 1) == "3"
        assert c.empty()
    await bus.publish("t:1", "4")  # nobody listening: dropped, no error
    await bus.close()
