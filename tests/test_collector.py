"""A server settles the cycle collector before it serves (issue 28): what exists then is frozen
out of the collector's sight and young collections are rarer, so that a full collection, which
scans every tracked object, no longer pauses the loop for 100-200 ms at 1,000 tables
(bench/live_load.py). In a process of its own: the test process's collector stays as it is."""

from __future__ import annotations

import subprocess
import sys


def test_settling_freezes_what_exists_and_raises_the_young_threshold() -> None:
    code = (
        "import gc; from veillee.cli import settle_the_collector, YOUNG_OBJECTS\n"
        "before = gc.get_freeze_count(); settle_the_collector()\n"
        "print(before, gc.get_freeze_count(), gc.get_threshold()[0] == YOUNG_OBJECTS)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split()
    assert out[0] == "0"
    assert int(out[1]) > 10_000  # (the modules and everything made by then)
    assert out[2] == "True"
