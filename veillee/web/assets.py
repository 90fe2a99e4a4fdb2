"""The browser's files under versioned addresses, so that every deploy reaches every player.

``/static/<build>/<path>`` serves ``<directory>/<path>``, where ``<build>`` is a hash of every
file under the directory. One changed file gives the whole tree new addresses at once: ES
modules import each other by relative paths, so the entry script's address versions its
imports too. Those addresses never change content, so they are cached for a year
(``immutable``); the unversioned ``/static/<path>`` still answers, with ``no-cache``, and so does
an older build's address (a page loaded before the deploy), with the current file and
``no-cache``. Pages name their files with the template helper ``static(path)``
(:func:`veillee.web.pages.static_url`).

>>> import tempfile
>>> root = Path(tempfile.mkdtemp())
>>> _ = (root / "a.js").write_text("export const a = 1;")
>>> first = build_of(root)
>>> _ = (root / "a.js").write_text("export const a = 2;")
>>> len(first), first == build_of(root)
(12, False)
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

BUILD = re.compile(r"[0-9a-f]{12}")
"""The shape of a build: the first 12 hex digits of a SHA-256."""
IMMUTABLE = "public, max-age=31536000, immutable"
"""Cache-Control of the current build's files: a year, never revalidated."""
REVALIDATE = "no-cache"
"""Cache-Control of everything else that may change: keep, but ask the server before use."""


def build_of(directory: Path) -> str:
    """The build of ``directory``: 12 hex digits of a SHA-256 over every file's path and bytes
    (sorted by path), so any change to any file, or a file added or removed, changes it."""
    digest = hashlib.sha256()
    for path in sorted(p for p in directory.rglob("*") if p.is_file()):
        digest.update(path.relative_to(directory).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:12]


class Assets(StaticFiles):
    """The ASGI app mounted at ``/static``: ``directory``'s files, under the build's address
    (immutable) and under their plain address (``no-cache``). ``build`` is fixed when the
    process starts: a deploy restarts the server."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory)
        self.root = Path(directory)
        self.build = build_of(self.root)

    def url(self, path: str) -> str:
        """The address of ``path`` (relative to the directory) in this build."""
        return f"/static/{self.build}/{path.lstrip('/')}"

    async def get_response(self, path: str, scope: Scope) -> Response:
        head, _, rest = path.partition(os.sep)
        if BUILD.fullmatch(head) and rest:
            response = await super().get_response(rest, scope)
            response.headers["Cache-Control"] = IMMUTABLE if head == self.build else REVALIDATE
        else:
            response = await super().get_response(path, scope)
            response.headers["Cache-Control"] = REVALIDATE
        return response
