"""Fuzzed input on the embedded store (SQLite): whatever arrives, the socket answers with a
reason and the table does not change (unless the message was a valid change), the socket stays
usable, and no id or token of a stranger's making reaches the store or puts a traceback in the
log. The same runs on PostgreSQL: tests/scaleout/test_fuzzed_on_postgres.py."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI

from tests.browser.conftest import serving
from tests.conftest import make_settings
from tests.reliability.fuzz import Tracebacks, fuzz_doors, fuzz_table_socket


async def test_fuzzed_messages_never_break_the_socket_nor_change_the_table(app: FastAPI) -> None:
    with Tracebacks.counted() as tracebacks:
        refused = await fuzz_table_socket(app, rounds=600, seed=2026)
    assert refused > 500
    assert not tracebacks.records, str(tracebacks)


async def test_fuzzed_ids_and_tokens_are_refused_at_the_door_without_a_traceback(
    tmp_path: Path,
) -> None:
    with serving(make_settings(tmp_path)) as base, Tracebacks.counted() as tracebacks:
        answers = await fuzz_doors(base, rounds=150, seed=14)
    assert not tracebacks.records, str(tracebacks)
    # Every kind of door was knocked at, and refused for the right reasons.
    assert {"bad_message", "bad_token 4403"} <= set(answers), answers
    assert any(a.startswith(("table_gone", "sheet_gone")) for a in answers), answers
