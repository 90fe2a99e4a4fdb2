"""The SQL schema (SQLAlchemy Core). Changes go through an Alembic revision in ``migrations/``."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

records = sa.Table(
    "records",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True, index=True),
)

tokens = sa.Table(
    "tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column(
        "record_id",
        sa.String(64),
        sa.ForeignKey("records.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("role", sa.String(32), nullable=False),
)

actions = sa.Table(
    "actions",
    metadata,
    sa.Column(
        "record_id",
        sa.String(64),
        sa.ForeignKey("records.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("client_id", sa.String(64), primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
)

chat_lines = sa.Table(
    "chat_lines",
    metadata,
    sa.Column(
        "record_id",
        sa.String(64),
        sa.ForeignKey("records.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("client_id", sa.String(64), nullable=False),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.UniqueConstraint("record_id", "client_id", name="uq_chat_lines_client_id"),
)
"""A table's chat: line ``seq`` (1, 2, … per table, in the order written) said by ``seat``.
Lines never change the record's version; they go with the record when it is deleted."""

push_subscriptions = sa.Table(
    "push_subscriptions",
    metadata,
    sa.Column(
        "record_id",
        sa.String(64),
        sa.ForeignKey("records.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("endpoint", sa.Text, nullable=False),
    sa.Column("p256dh", sa.String(128), nullable=False),
    sa.Column("auth", sa.String(64), nullable=False),
    sa.Column("lang", sa.String(8), nullable=False),
    sa.Column("told", sa.Boolean, nullable=False, default=False),
    sa.Column("warned", sa.DateTime(timezone=True), nullable=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
)
"""A seat's Web Push subscription at a table (issue 26): one per table and seat, the newest
kept. ``told``: a notification went to it since the seat last looked at the table (at most one
until it looks again); ``warned``: the expiry of the record it was last warned of (once per
expiry). They go with the record when it is deleted."""
