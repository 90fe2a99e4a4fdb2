"""Fan-out of "record R is now at version v" between server processes.

``publish(channel, message)`` / ``subscribe(channel)``: in-process by default, Redis pub/sub when
``VEILLEE_REDIS_URL`` is set (DESIGN.md §4). Each record has one channel, on which the live core
says everything about it under topics (:mod:`veillee.live.follow`). Messages are short strings;
receivers reload state from the store, so a lost message only delays an update until the next
one or a reconnect. What is said beside a record (who is here, voice) is the exception: nothing
of it is stored, and its messages are JSON of a few kilobytes at most.
"""

from veillee.bus.channels import Bus, InProcessBus, RedisBus, open_bus

__all__ = ["Bus", "InProcessBus", "RedisBus", "open_bus"]
