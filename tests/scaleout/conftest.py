"""Scale-out tests: PostgreSQL and Redis on this machine (``.ci/run`` starts them if stopped).

In CI (``CI`` set) they always run, and fail if the services are missing. Elsewhere they run
when both services answer on their ports; on a laptop without them they are left out of the
collection (said at the end of the run), or on purpose with ``VEILLEE_SKIP_SCALEOUT=1``.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import pytest

from tests.conftest import SCALEOUT_LEFT_OUT, scaleout_defaults


def _answers(url: str, default_port: int) -> bool:
    parts = urlsplit(url.replace("+asyncpg", ""))
    try:
        with socket.create_connection(
            (parts.hostname or "127.0.0.1", parts.port or default_port), 0.5
        ):
            return True
    except OSError:
        return False


def _left_out() -> str | None:
    if os.environ.get("CI"):
        return None
    if os.environ.get("VEILLEE_SKIP_SCALEOUT") == "1":
        return "VEILLEE_SKIP_SCALEOUT=1"
    pg, redis = scaleout_defaults()
    if not (_answers(pg, 5432) and _answers(redis, 6379)):
        return "PostgreSQL or Redis does not answer"
    return None


def pytest_ignore_collect(collection_path, config):  # type: ignore[no-untyped-def]
    reason = _left_out()
    if reason is not None:
        config.stash[SCALEOUT_LEFT_OUT] = reason
        return True
    return None


@pytest.fixture
def pg_url(scaleout_urls: tuple[str, str]) -> str:
    return scaleout_urls[0]


@pytest.fixture
def redis_url(scaleout_urls: tuple[str, str]) -> str:
    return scaleout_urls[1]
