"""Two processes' buses joined by Redis: a publish on one reaches subscribers of the other."""

import asyncio
import secrets

from veillee.bus import RedisBus


async def test_redis_bus_fans_out_between_two_nodes(redis_url: str) -> None:
    node_a, node_b = RedisBus(redis_url), RedisBus(redis_url)
    channel = "table:" + secrets.token_hex(4)
    try:
        async with node_b.subscribe(channel) as inbox, node_a.subscribe(channel) as own:
            await asyncio.sleep(0.2)  # let both SUBSCRIBE reach Redis
            await node_a.publish(channel, "7")
            assert await asyncio.wait_for(inbox.get(), 5) == "7"
            assert await asyncio.wait_for(own.get(), 5) == "7"
    finally:
        await node_a.close()
        await node_b.close()
