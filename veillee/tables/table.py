"""The stored form of a table: game, options, who sits where, and the match.

A table record (store kind ``"table"``) holds this JSON document::

    {"game": <registry name>, "options": <GameInfo.table_options(...)>,
     "seats": ["human", "computer"], "shared": false, "open": [], "ready": [],
     "match": <match.to_json(m)>, "demo": true}

``demo`` (present only when true) marks a demonstration: the computer on every seat, one deal,
moved a step at a time by its one watcher (the spectator), never by itself. ``level`` (present
only when not ``"usual"``) is the level the computer seats play at. ``stand_in`` (present only
when not empty) lists the people's seats the computer plays for now (their person away, gone
for good, or their seat given to someone new who has not sat yet); ``given`` (present only
when a seat was given) counts, per seat, how often the seat was given to someone new: a token
of an earlier count no longer opens it. ``left`` (present only when not empty): the seats whose
person left the table for good (at a table of two, the match ended then).

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
from enum import StrEnum
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


class TableRefusal(StrEnum):
    """Every refusal of the table service of its own (beside the rules' reason codes, each
    game's ``REASONS``, and the live core's, ``LiveRefusal``); the web layer says each in
    words."""

    TABLE_GONE = "table_gone"
    """No such table: never made, expired or swept (the table records' *gone* code)."""
    BAD_OPTIONS = "bad_options"
    BAD_LEVEL = "bad_level"
    """A computer level the game does not offer (``GameInfo.levels``)."""
    BAD_ACTION = "bad_action"
    """An action whose text is not the game's notation."""
    NOT_SHARED = "not_shared"
    """Nobody joins a table against the computer."""
    BAD_SEAT = "bad_seat"
    SEAT_TAKEN = "seat_taken"
    SEAT_COMPUTER = "seat_computer"
    TABLE_FULL = "table_full"
    TABLE_NOT_FULL = "table_not_full"
    """An action before every seat of a shared table is taken."""
    NOT_HOST = "not_host"
    """Only the maker of a shared table gives its open seats to the computer."""
    RESTART_SHARED = "restart_shared"
    """A table of people never throws its match away (a new match is agreed)."""
    NOT_A_DEMO = "not_a_demo"
    DEAL_OVER = "deal_over"
    """A demonstration's one deal is done (the engines' own code, said the same way)."""
    SEAT_GIVEN = "seat_given"
    """This seat's person left it, or its host gave it to someone new: the token (or link)
    no longer opens it."""
    STILL_HERE = "still_here"
    """The computer stands in only for a person away long enough (``stand_in_after_s``)."""
    NO_STAND_IN = "no_stand_in"
    """Only a person's seat of a shared table of more than two, taken, may have a stand-in;
    only a stood-in seat may be given to someone new."""
    TABLE_LEFT = "table_left"
    """Someone left this table for good: its match is over."""
    KEY_TAKEN = "key_taken"
    """A seat request's key that is another seat's token already (a page makes its keys at
    random: only a forged request sends one); nothing was changed."""


@dataclass(frozen=True)
class TableDoc:
    """A table's document: ``seats[i]`` is ``"human"`` or ``"computer"``; ``match`` is the
    game's ``match.to_json`` value; ``shared`` a table sat at through links; ``open`` the human
    seats not taken yet; ``ready`` the seats waiting for the next deal; ``level`` the computer
    seats' level (``veillee.workers.USUAL`` unless chosen)."""

    game: str
    options: dict[str, Any]
    seats: tuple[str, ...]
    match: dict[str, Any]
    shared: bool = False
    open: tuple[int, ...] = ()
    ready: tuple[int, ...] = ()
    demo: bool = False
    level: str = "usual"
    stand_in: tuple[int, ...] = ()
    given: tuple[int, ...] = ()
    left: tuple[int, ...] = ()

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
        if self.level != "usual":
            data["level"] = self.level
        if self.stand_in:
            data["stand_in"] = list(self.stand_in)
        if any(self.given):
            data["given"] = list(self.given)
        if self.left:
            data["left"] = list(self.left)
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
            level=str(data.get("level", "usual")),
            stand_in=tuple(int(s) for s in data.get("stand_in", ())),
            given=tuple(int(g) for g in data.get("given", ())),
            left=tuple(int(s) for s in data.get("left", ())),
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
        """Seats played by the table service: the computer's, and the people's it stands in
        for."""
        return tuple(
            i for i, kind in enumerate(self.seats) if kind == COMPUTER or i in self.stand_in
        )

    @property
    def present_humans(self) -> tuple[int, ...]:
        """The people's seats taken and played by their person (no stand-in)."""
        return tuple(s for s in self.humans if s not in self.open and s not in self.stand_in)

    def generation(self, seat: int) -> int:
        """How often ``seat`` was given to someone new (0: never); a seat token holds the
        role :func:`seat_role` of the count it was made at.

        >>> doc = TableDoc("demo", {}, ("human",) * 4, {}, shared=True, given=(0, 0, 2, 0))
        >>> doc.generation(2), doc.generation(1), TableDoc("demo", {}, ("human",), {}).generation(0)
        (2, 0, 0)
        """
        return self.given[seat] if seat < len(self.given) else 0

    def regiven(self, seat: int) -> tuple[int, ...]:
        """``given`` with ``seat``'s count one more (the seat given to someone new)."""
        counts = [self.generation(i) for i in range(len(self.seats))]
        counts[seat] += 1
        return tuple(counts)

    @property
    def stand_ins_allowed(self) -> bool:
        """Whether the computer may stand in for an absent person here: a shared table of more
        than two seats (at a table of two the product page promises no computer seat)."""
        return self.shared and len(self.seats) > 2

    def seat_refusal(self, seat: int | None = None, generation: int = 0) -> TableRefusal | None:
        """Why nobody new may sit at this table through its link now, or ``None`` when they may:
        at ``seat`` (a seat link names it), or at the lowest open seat (``None``, the table's
        plain link). Reasons: ``"not_shared"`` (a table against the computer: its one person's
        seat token never leaves the browser tab that made it), ``"bad_seat"`` (no such seat),
        ``"seat_taken"`` (someone's already), ``"seat_computer"`` (the table's maker let the
        computer play it), ``"table_full"``, ``"seat_given"`` (the link is of a seat given to
        someone new since: ``generation`` is the count the link names, ``&g=<n>``),
        ``"table_left"`` (someone left this table of two for good).

        >>> TableDoc("demo", {}, ("human", "computer"), {}).seat_refusal()
        <TableRefusal.NOT_SHARED: 'not_shared'>
        >>> shared = TableDoc("demo", {}, ("human",) * 4, {}, shared=True, open=(1, 3))
        >>> shared.seat_refusal(), shared.seat_refusal(3), shared.seat_refusal(2) == "seat_taken"
        (None, None, True)
        >>> TableDoc("demo", {}, ("human", "computer"), {}, shared=True, open=()).seat_refusal(1)
        <TableRefusal.SEAT_COMPUTER: 'seat_computer'>
        """
        if not self.shared:
            return TableRefusal.NOT_SHARED
        if seat is not None and not 0 <= seat < len(self.seats):
            return TableRefusal.BAD_SEAT
        if self.left and not self.stand_ins_allowed:
            return TableRefusal.TABLE_LEFT
        if seat is not None and generation != self.generation(seat):
            return TableRefusal.SEAT_GIVEN
        if seat is not None and seat not in self.open:
            if self.seats[seat] == COMPUTER:
                return TableRefusal.SEAT_COMPUTER
            return TableRefusal.SEAT_TAKEN
        if not self.open:
            return TableRefusal.TABLE_FULL
        return None

    @property
    def seated(self) -> tuple[bool, ...]:
        """Per seat: someone sits there (a computer seat always does, and a seat with a
        stand-in: the computer holds it)."""
        return tuple(i not in self.open or i in self.stand_in for i in range(len(self.seats)))


def seat_role(seat: int, generation: int = 0) -> str:
    """The role a seat token holds: ``"seat:<n>"``, or ``"seat:<n>:<g>"`` once the seat was
    given to someone new ``g`` times (:meth:`TableDoc.generation`).

    >>> seat_role(2), seat_role(2, 1), read_seat_role("seat:2:1"), read_seat_role("spectator")
    ('seat:2', 'seat:2:1', (2, 1), None)
    """
    return f"seat:{seat}" if generation == 0 else f"seat:{seat}:{generation}"


def read_seat_role(role: str | None) -> tuple[int, int] | None:
    """The seat and count of a role made by :func:`seat_role`, or None for another role."""
    if role is None or not role.startswith("seat:"):
        return None
    parts = role.split(":")
    return int(parts[1]), int(parts[2]) if len(parts) > 2 else 0
