"""Settings from the environment (prefix ``VEILLEE_``), with the embedded defaults.

>>> Settings(data_dir="/tmp/v").resolved_database_url()
'sqlite+aiosqlite:////tmp/v/veillee.db'
"""

from __future__ import annotations

from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Every knob of a Veillée process. Durations are in seconds unless the name says ``_ms``."""

    model_config = SettingsConfigDict(env_prefix="VEILLEE_")

    data_dir: Path = Path("data")
    """Where the embedded SQLite store lives (created if missing)."""
    database_url: str | None = None
    """SQLAlchemy async URL; default ``sqlite+aiosqlite:///<data_dir>/veillee.db``. Scale-out:
    ``postgresql+asyncpg://user@host/db``."""
    redis_url: str | None = None
    """Redis for the table bus (scale-out); default is the in-process bus."""
    static_dir: Path | None = None
    """The browser's files (scripts, styles, icons); default: the package's own
    ``veillee/web/static``. They are served under ``/static/<build>/``, ``<build>`` a hash of
    them taken at start (see ``veillee/web/assets.py``)."""

    bot_delay_ms: int = 900
    """Pause before each computer move, so a person can follow it (0 in tests)."""
    trick_pause_ms: int = 1200
    """How long a finished trick stays visible before it is gathered (0 in tests)."""

    computer_table_idle_s: int = 2 * 3600
    """A computer table untouched this long is dropped."""
    shared_table_idle_s: int = 48 * 3600
    """A shared table lives this long after its last move."""
    sheet_idle_s: int = 365 * 24 * 3600
    """A score sheet lives this long after its last change."""
    sweep_interval_s: float = 60
    """How often expired tables and sheets are deleted (one sweeper for both)."""

    max_message_bytes: int = 4096
    """Largest websocket message, and largest API request body, accepted (bytes)."""
    max_messages_per_second: float = 20.0
    """Rate limit per websocket connection (token bucket, burst of twice this)."""
    hello_timeout_s: float = 10.0
    """A live socket (table or sheet) that has not sent ``hello`` by then is closed."""

    test_hooks: bool = False
    """Browser tests only: serve ``POST /api/test/tables`` (a computer table from a scripted
    deck, or with a lowered target; :mod:`veillee.web.scripted_tables`). Off by default;
    ``veillee serve`` refuses to start with it on."""

    def resolved_database_url(self) -> str:
        """The database URL in force (the SQLite file under ``data_dir`` unless one is set)."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{Path(self.data_dir).resolve()}/veillee.db"
