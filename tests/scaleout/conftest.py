"""Scale-out tests: PostgreSQL and Redis on this machine (``.ci/run`` starts them if stopped).

They run by default. Where neither service exists (a laptop without them) set
``VEILLEE_SKIP_SCALEOUT=1`` to leave them out of the collection; CI never sets it.
"""

from __future__ import annotations

import os

import pytest


def pytest_ignore_collect(collection_path, config):  # type: ignore[no-untyped-def]
    if os.environ.get("VEILLEE_SKIP_SCALEOUT") == "1" and not os.environ.get("CI"):
        return True
    return None


@pytest.fixture
def pg_url(scaleout_urls: tuple[str, str]) -> str:
    return scaleout_urls[0]


@pytest.fixture
def redis_url(scaleout_urls: tuple[str, str]) -> str:
    return scaleout_urls[1]
