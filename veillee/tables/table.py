"""The stored form of a table: game, options, who sits where, and the match.

A table record (store kind ``"table"``) holds this JSON document::

    {"game": <registry name>, "options": <GameInfo.table_options(...)>,
     "seats": ["human", "computer"], "shared": false, "open": [], "ready": [],
     "match": <match.to_json(m)>, "demo": true}

``demo`` (present only when true) marks a demonstration: the computer on every seat, one deal,
moved a step at a time by its one watcher (the spectator), never by itself.

Seats are ``"human"`` (someone holds, or will hold, the seat token) or ``"computer"`` (the table
service plays it with the game's computer player). ``shared`` says the table was made to be sat
at through links (its maker may still have let the computer take some seats); ``open`` lists the
human seats of a shared table that nobody has taken yet (a seat link gives its own seat, the
table's plain link the lowest open one); ``ready`` the seats that have asked for the next deal
since the current one ended (it is dealt once every seated person has). The match JSON holds the
full state, deck order included, so it never leaves the server: a seat is sent only
``match.view(m, seat)``.

>>> doc = TableDoc("demo", {"best_of": 5}, ("human", "computer"), {"m": 1})
>>> TableDoc.from_data(doc.to_data()) == doc
True
>>> shared = TableDoc("demo", {}, ("human", "human"), {"m": 1}, shared=True, open=(1,))
>>> shared.shared, shared.seated, TableDoc.from_data(shared.to_data()) == shared
(True, (True, False), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KIND = "table"
"""The store kind of table records."""

HUMAN = "human"
COMPUTER = "computer"
SPECTATOR = "spectator"
"""The role of the one token of a demonstration table: it watches, every hand face up, and
moves the table a step at a time; it holds no seat."""
MAKER = 0
"""The seat of whoever made a shared table (``TableService.create_shared_table`` seats its maker
there): it holds the table's voice switch."""


@dataclass(frozen=True)
class TableDoc:
    """A table's document: ``seats[i]`` is ``"human"`` or ``"computer"``; ``match`` is the
    game's ``match.to_json`` value; ``shared`` a table sat at through links; ``open`` the human
    seats not taken yet; ``ready`` the seats waiting for the next deal."""

    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    match: dict[str, Any]
    shared: bool = False
    open: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()
    demo: bool = False

    def to_data(self) -> dict[str, Any]:
        """The JSON document stored in the record."""
        data: dict[str, Any] = {
            "game": self.game,
            "options": dict(self.options),
            "seats": list(self.seats),
            "shared": self.shared,
            "open": list(self.open),
            "ready": list(self.ready),
            "match": self.match,
        }
        if self.demo:
            data["demo"] = True
        return data

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> TableDoc:
        """Read a stored document (raises KeyError if a field is missing; ``open`` and
        ``ready`` are empty in documents written before they existed, and ``shared`` then says
        whether every seat is a person's)."""
        seats = tuple(str(s) for s in data["seats"])
        return cls(
            game=str(data["game"]),
            options=dict(data["options"]),
            seats=seats,
            match=dict(data["match"]),
            shared=bool(data.get("shared", COMPUTER not in seats and len(seats) > 1)),
            open=tuple(int(s) for s in data.get("open", ())),
            ready=tuple(int(s) for s in data.get("ready", ())),
            demo=data.get("demo") is True,
        )

    @property
    def humans(self) -> tuple[int, ...]:
        """Seats held by people (taken or still open)."""
        return tuple(i for i, kind in enumerate(self.seats) if kind == HUMAN)

    @property
    def watchable(self) -> bool:
        """Whether a spectator may see this table with every hand face up: only a demonstration
        with the computer on every seat, never a table where a person sits."""
        return self.demo and not self.humans

    @property
    def computers(self) -> tuple[int, ...]:
        """Seats played by the table service."""
        return tuple(i for i, kind in enumerate(self.seats) if kind == COMPUTER)

    def seat_refusal(self, seat: int | None = None) -> str | None:
        """Why nobody new may sit at this table through its link now, or ``None`` when they may:
        at ``seat`` (a seat link names it), or at the lowest open seat (``None``, the table's
        plain link). Reasons: ``"not_shared"`` (a table against the computer: its one person's
        seat token never leaves the browser tab that made it), ``"bad_seat"`` (no such seat),
        ``"seat_taken"`` (someone's already), ``"seat_computer"`` (the table's maker let the
        computer play it), ``"table_full"``.

        >>> TableDoc("demo", {}, ("human", "computer"), {}).seat_refusal()
        'not_shared'
        >>> shared = TableDoc("demo", {}, ("human",) * 4, {}, shared=True, open=(1, 3))
        >>> shared.seat_refusal(), shared.seat_refusal(3), shared.seat_refusal(2)
        (None, None, 'seat_taken')
        >>> TableDoc("demo", {}, ("human", "computer"), {}, shared=True, open=()).seat_refusal(1)
        'seat_computer'
        """
        if not self.shared:
            return "not_shared"
        if seat is not None and not 0 <= seat < len(self.seats):
            return "bad_seat"
        if seat is not None and seat not in self.open:
            return "seat_computer" if self.seats[seat] == COMPUTER else "seat_taken"
        if not self.open:
            return "table_full"
        return None

    @property
    def seated(self) -> tuple[bool, ...]:
        """Per seat: someone sits there (a computer seat always does)."""
        return tuple(i not in self.open for i in range(len(self.seats)))
