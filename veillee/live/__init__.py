"""The live-record core (DESIGN.md §3–4): records that several people change at once (a table,
a score sheet), kept in the store and followed across processes.

- :mod:`.records` — :class:`LiveRecords`: versioned records, commit (written before anyone is
  told, one winner per race, client ids), catch-up by version, sweeping;
- :mod:`.fanout` — :class:`Fanout`: this process's watchers of each record, each new version
  handed to them once, each view built once per version and viewer;
- :mod:`.follow` — :class:`Follower`: one bus listener per record and process, messages
  dispatched by topic;
- :mod:`.claims` — :class:`Claims`: "who is here now" across processes, used by
  :mod:`.presence` (who has a page open), :mod:`.voice` (who is in voice) and anything later
  that needs it;
- :mod:`.chat` — lines said beside a record, which never move its version;
- :mod:`.voice` — a record's voice room and the relay of its connection set-up.

It knows no game and no kind of record: the table and sheet services say what a change is.
"""

from veillee.live.claims import Claims
from veillee.live.fanout import Fanout
from veillee.live.follow import Follower
from veillee.live.presence import Presence
from veillee.live.records import (
    Clock,
    LiveRecords,
    Refusal,
    sweep_forever,
    utc_now,
    well_formed_id,
    well_formed_token,
)

__all__ = [
    "Claims",
    "Clock",
    "Fanout",
    "Follower",
    "LiveRecords",
    "Presence",
    "Refusal",
    "sweep_forever",
    "utc_now",
    "well_formed_id",
    "well_formed_token",
]
