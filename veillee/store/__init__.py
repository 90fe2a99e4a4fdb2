"""Persistence behind one small interface: versioned records with seat/role tokens.

A *record* is a table (a game being played) or a sheet (SquareScores): an id, a kind, a version
(count of accepted changes), a JSON document, and an expiry. Every accepted change is written with
optimistic concurrency (``UPDATE … WHERE version = v``) before anyone is told (DESIGN.md §3–4).
One SQLAlchemy implementation serves SQLite (default) and PostgreSQL.
"""

from veillee.store.records import (
    ChatLine,
    Commit,
    NotFound,
    PushSubscription,
    Record,
    Store,
    TokenTaken,
    TooFast,
    VersionConflict,
    token_hash,
)

__all__ = [
    "ChatLine",
    "Commit",
    "NotFound",
    "PushSubscription",
    "Record",
    "Store",
    "TokenTaken",
    "TooFast",
    "VersionConflict",
    "token_hash",
]
