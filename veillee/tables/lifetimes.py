"""How long a table lives (DESIGN.md §3, the product pages): a shared table waits for its seats
to fill, then lives until 48 h after its last move; a computer table is dropped after an idle
time (and when its browser tab's session ends: its token lived there only); a demonstration
soon after its watcher's last step. The sweeper (:meth:`~veillee.live.LiveRecords.sweep`)
deletes what has run out, by the injectable clock."""

from __future__ import annotations

from datetime import timedelta

from veillee.config import Settings
from veillee.tables.table import TableDoc


def lifetime(settings: Settings, doc: TableDoc) -> timedelta:
    """How long the table ``doc`` lives after its last change: ``demo_table_idle_s`` for a
    demonstration, ``computer_table_idle_s`` against the computer, ``shared_table_fill_s`` for a
    shared table with a seat still open, ``shared_table_idle_s`` once every seat is taken (a
    seat the computer stands in for counts as taken).

    >>> settings = Settings()
    >>> lifetime(settings, TableDoc("demo", {}, ("human",) * 2, {}, shared=True, open=()))
    datetime.timedelta(days=2)
    """
    if doc.demo:
        return timedelta(seconds=settings.demo_table_idle_s)
    if not doc.shared:
        return timedelta(seconds=settings.computer_table_idle_s)
    if any(seat not in doc.stand_in for seat in doc.open):
        # A seat given to someone new mid-match is played by the stand-in meanwhile: the
        # table lives on as one whose seats are all taken.
        return timedelta(seconds=settings.shared_table_fill_s)
    return timedelta(seconds=settings.shared_table_idle_s)
