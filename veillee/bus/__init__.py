"""Fan-out of "record R is now at version v" between server processes.

``publish(channel, message)`` / ``subscribe(channel)``: in-process by default, Redis pub/sub when
``VEILLEE_REDIS_URL`` is set (DESIGN.md §4). Messages are short strings; receivers reload state from
the store, so a lost message only delays an update until the next one or a reconnect. Voice at a
table is the exception: nothing of it is stored, and its channel (``voice:<table id>``) carries
JSON of a few kilobytes at most (:mod:`veillee.tables.voice`).
"""

from veillee.bus.channels import Bus, InProcessBus, RedisBus, open_bus

__all__ = ["Bus", "InProcessBus", "RedisBus", "open_bus"]
