"""Settings from the environment (prefix ``VEILLEE_``), with the embedded defaults.

>>> Settings(data_dir="/tmp/v").resolved_database_url()
'sqlite+aiosqlite:////tmp/v/veillee.db'
>>> served_origins("192.168.1.5", 8000)
['http://192.168.1.5:8000']
>>> parse_origin("http://127.0.0.1:8000.evil.example") is None
True
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Literal, TypedDict

from pydantic import field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

Origin = tuple[str, str, int]
"""A web origin as compared: (scheme, host, port), lower case, the default port filled in."""

_ORIGIN = re.compile(
    r"(?P<scheme>https?)://(?P<host>\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?)"
    r"(?::(?P<port>[0-9]{1,5}))?"
)
_DEFAULT_PORT = {"http": 80, "https": 443}
LOOPBACK = ("127.0.0.1", "localhost")
"""Names of this machine a browser on it may use for a server bound to a loopback address."""
WILDCARD = ("0.0.0.0", "::", "")


def parse_origin(text: str) -> Origin | None:
    """The origin ``text`` names (``scheme://host[:port]``, as a browser sends it in ``Origin``),
    or None for anything else: ``null``, a path, user info, a port that is not a number
    (``http://a:8000.evil.example``), another scheme."""
    found = _ORIGIN.fullmatch(text.strip().lower())
    if found is None:
        return None
    scheme = found["scheme"]
    port = int(found["port"]) if found["port"] else _DEFAULT_PORT[scheme]
    if not 0 < port < 65536:
        return None
    return (scheme, found["host"], port)


def served_origins(host: str, port: int) -> list[str]:
    """The origins of a server bound to ``host``:``port`` over plain HTTP (a loopback address also
    as ``localhost``). Raises ValueError for a wildcard host (``0.0.0.0``): the server then
    answers on every address of the machine, and only the site's owner knows which one players
    use (``VEILLEE_PUBLIC_ORIGINS``)."""
    if host in WILDCARD:
        raise ValueError(
            f"--host {host!r} serves every address of this machine: name the one players use, "
            f"e.g. VEILLEE_PUBLIC_ORIGINS=http://192.168.1.5:{port}"
        )
    name = f"[{host}]" if ":" in host else host
    if host in (*LOOPBACK, "::1"):
        return [f"http://{n}:{port}" for n in dict.fromkeys((name, *LOOPBACK))]
    return [f"http://{name}:{port}"]


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

    workers: int | None = None
    """Worker processes of the embedded pool that decide the computer's moves (default: one
    per core but one, at least one; ``veillee.workers.pool``)."""
    deciders: Literal["pool", "redis"] = "pool"
    """Where the computer's moves are decided: ``pool``, this server's own worker processes;
    ``redis``, ``veillee worker`` processes taking jobs from Redis (``redis_url``; several
    servers and workers, docs/deploy.md)."""

    search_budgets: dict[str, int] = {}
    """The strong level's search budget per game (``{"chouine": 100}``, as JSON in
    ``VEILLEE_SEARCH_BUDGETS``): the count of sampled deals its computer player searches for a
    move (its bot module's ``STRONG_BUDGET`` where not given). Larger is stronger and slower
    (docs/computer-levels.md)."""

    worker_claim_after_s: float = 10.0
    """``veillee worker``: how long a job may stay taken by another worker without an answer
    before this one takes it over (that worker died mid-search)."""

    computer_table_idle_s: int = 2 * 3600
    """A computer table untouched this long is dropped."""
    demo_table_idle_s: int = 10 * 60
    """A demonstration table (the computer on every seat, watched on a how-to page) untouched this
    long is dropped; it is deleted at once when its watcher's page closes."""
    shared_table_idle_s: int = 48 * 3600
    """A shared table lives this long after its last move (once every seat is taken)."""
    shared_table_fill_s: int = 15 * 60
    """A shared table waits this long for its seats to be taken, then it is dropped."""
    stand_in_after_s: float = 60.0
    """How long a person of a table of more than two must have been away (no page open at
    the table) before those still there may let the computer stand in for them."""
    presence_answers_s: float = 2.0
    """How long a process that holds no page of a table gives the others to say who they hold
    there, before it decides whom to push to (issue 26; only the push waits, never a move):
    a process answering later would have a seat told while its page is open elsewhere."""
    sheet_idle_s: int = 365 * 24 * 3600
    """A score sheet lives this long after its last change."""
    sweep_interval_s: float = 60
    """How often expired tables and sheets are deleted (one sweeper for both)."""

    chat_kept: int = 500
    """Lines a table's chat keeps (the newest; each line written drops the older ones in the
    same write), and the most a page opening the chat is sent (docs/protocol.md)."""

    max_message_bytes: int = 4096
    """Largest websocket message, and largest request body of any route, accepted (bytes; see
    ``veillee.web.guards.BodyLimit``)."""
    max_messages_per_second: float = 20.0
    """Rate limit per websocket connection (token bucket, burst of twice this)."""
    hello_timeout_s: float = 10.0
    """A live socket (table or sheet) that has not sent ``hello`` by then is closed."""
    silence_timeout_s: float = 25.0
    """A live socket that has sent nothing for this long (pages ping every 10 s) is closed: its
    network is gone even if the socket looks open, and the others see that seat away."""
    hidden_silence_s: float = 150.0
    """The silence a socket is allowed once its page said it is hidden (a background tab:
    ``{"type": "ping", "hidden": true}``), instead of ``silence_timeout_s``: browsers throttle a
    hidden page's timers, Chromium to one wake-up a minute after five minutes hidden, so its
    pings come late; its seat stays here rather than flap away and back."""
    max_frame_bytes: int = 64 * 1024
    """Largest websocket frame the transport reads at all (uvicorn's ``ws_max_size``): a larger
    one closes the socket (1009) before it is held in memory. Frames between
    ``max_message_bytes`` and this are answered ``message_too_large`` and the socket stays."""
    max_header_bytes: int = 16 * 1024
    """Largest request head (request line and headers) the transport holds while it is still
    arriving (uvicorn's ``h11_max_incomplete_event_size``): uvicorn answers 400 past it."""
    websocket: Literal["wsproto", "websockets-sansio", "websockets", "auto"] = "wsproto"
    """uvicorn's websocket implementation (its ``ws``): ``wsproto`` (a dependency) held an idle
    seat in less memory than ``websockets-sansio`` and cost no more CPU per change
    (bench/RESULTS.md), and is served by :class:`veillee.web.transport.LeanWSProtocol`
    (uvicorn's, holding less per connection: :data:`WSPROTO`). Per-message deflate is always
    off: a compressed socket holds a zlib compressor and decompressor (an idle seat 151 KiB
    instead of 49), for views of a few KB."""

    public_origins: Annotated[list[str], NoDecode] = [f"http://{n}:8000" for n in LOOPBACK]
    """The addresses players' browsers use for this site (``VEILLEE_PUBLIC_ORIGINS``, comma
    separated: ``https://veillee.example``). A websocket whose ``Origin`` is not one of them is
    refused, and a request for a host that is not one of theirs is answered 400. Default: the
    address ``veillee serve`` serves (:meth:`served_at`)."""

    ice_servers: list[dict[str, Any]] = []
    """STUN and TURN servers the table pages' voice uses (``VEILLEE_ICE_SERVERS``, JSON in the
    shape of WebRTC's ``RTCIceServer``: ``[{"urls": "turn:turn.example:3478"}]``). None by
    default, which works between browsers on one network. A ``turn:``/``turns:`` server given
    without ``username`` gets time-limited credentials made with :attr:`turn_secret`
    (docs/deploy.md)."""
    turn_secret: str | None = None
    """The secret shared with the TURN server (coturn's ``static-auth-secret``): each seat
    joining voice is given ``username = "<expiry>:<table>-<seat>"`` and ``credential =
    base64(HMAC-SHA1(secret, username))`` (the TURN REST convention)."""
    turn_ttl_s: int = 12 * 3600
    """How long TURN credentials given to a seat joining voice stay valid."""
    voice_messages_per_second: float = 10.0
    """Rate limit of one socket's voice messages (offers, answers, candidates, joins), within
    the socket's own limit (token bucket, burst of twice this)."""
    voice_connect_timeout_s: float = 15.0
    """How long a page waits for its voice connection with another seat to connect (ICE)
    before it gives that connection up: the seat that offers then tries a new one (twice), and
    at last the page says no connection could be made. Sent to the page in ``voice_joined``."""

    vapid_private_key: str | None = None
    """The VAPID private key the "your turn" Web Push messages are signed with (issue 26):
    PEM text, or the raw P-256 private number base64url. Default: made on first start and kept
    in ``data_dir/vapid_private.pem``. Several processes must share one key (the browsers'
    subscriptions are bound to its public half): give it to each (docs/deploy.md)."""
    vapid_subject: str = "mailto:veillee@localhost"
    """Who the push services may write to about this site's pushes (``mailto:`` or
    ``https:``, the VAPID ``sub`` claim)."""
    push_retry_s: tuple[float, ...] = (2.0, 10.0, 60.0)
    """The waits before each new try of a push the push service answered with a 5xx, or did
    not answer; after the last, the push is given up."""
    push_timeout_s: float = 10.0
    """How long one push waits for the push service's answer."""

    test_hooks: bool = False
    """Browser tests only: serve ``POST /api/test/tables`` (a computer table from a scripted
    deck, or with a lowered target; :mod:`veillee.web.scripted_tables`). Off by default;
    ``veillee serve`` refuses to start with it on."""

    @field_validator("public_origins", mode="before")
    @classmethod
    def _split_origins(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = [part for part in re.split(r"[\s,]+", value) if part]
        if isinstance(value, list):
            for origin in value:
                if not isinstance(origin, str) or parse_origin(origin) is None:
                    raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
        return value

    def origins(self) -> frozenset[Origin]:
        """:attr:`public_origins` as compared with a browser's ``Origin``."""
        return frozenset(o for o in map(parse_origin, self.public_origins) if o is not None)

    def hosts(self) -> list[str]:
        """The host names of :attr:`public_origins` (``Host`` headers this site answers)."""
        return sorted({host for _, host, _ in self.origins()})

    def served_at(self, host: str, port: int) -> Settings:
        """These settings for a server bound to ``host``:``port``: unless the public origins
        were given (``VEILLEE_PUBLIC_ORIGINS``), they are that address (:func:`served_origins`,
        which raises ValueError for a wildcard host)."""
        if "public_origins" in self.model_fields_set:
            return self
        return self.model_copy(update={"public_origins": served_origins(host, port)})

    def resolved_database_url(self) -> str:
        """The database URL in force (the SQLite file under ``data_dir`` unless one is set)."""
        if self.database_url:
            return self.database_url
        return f"sqlite+aiosqlite:///{Path(self.data_dir).resolve()}/veillee.db"


WSPROTO = "veillee.web.transport:LeanWSProtocol"
"""uvicorn's ``ws`` for :attr:`Settings.websocket` ``wsproto`` (an import string: uvicorn
imports it)."""


class TransportLimits(TypedDict):
    """uvicorn's keyword arguments for its transport: what it reads, and how it speaks
    websocket."""

    ws_max_size: int
    h11_max_incomplete_event_size: int
    ws: str
    ws_per_message_deflate: bool


def transport_limits(settings: Settings) -> TransportLimits:
    """uvicorn's keyword arguments that bound what the transport reads before the app sees it:
    ``ws_max_size`` (:attr:`Settings.max_frame_bytes`) and ``h11_max_incomplete_event_size``
    (:attr:`Settings.max_header_bytes`); and its websocket implementation ``ws``
    (:attr:`Settings.websocket`; ``wsproto`` is :data:`WSPROTO`), per-message deflate off.
    Request bodies are bounded by the app itself (``veillee.web.guards.BodyLimit``), while they
    are read."""
    return {
        "ws_max_size": settings.max_frame_bytes,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "ws": WSPROTO if settings.websocket == "wsproto" else settings.websocket,
        "ws_per_message_deflate": False,
    }
