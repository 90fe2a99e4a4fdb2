"""Chouine rules: the partie state, the actions, legality, ``apply`` and the count.

Implements rules/chouine.md §1–§9 for one partie (one deal). This module is the one source of the
Chouine rules: the views, the match, the computer player, its endgame solver and self-play all
use its card encoding and its rule functions. The state is an immutable :class:`State` (a
``NamedTuple`` of ints and tuples) in a compact form chosen for speed:

- a card is an int 0–31: ``suit * 8 + rank``, suits ``S H D C`` = 0–3, ranks by trick strength
  ``7 8 9 J Q K T A`` = 0–7, so within a suit a larger int is a stronger card;
- a hand, a pile or any set of cards is an int bitmask (bit ``card`` set), and the eight cards
  of suit ``s`` are the byte ``(mask >> 8 * s) & 0xFF``.

Everything outside the engine sees card codes (``"JH"``) through :func:`code` /
:func:`card_of`, the views and the JSON form.

>>> s = deal(list(PACK), dealer=1)
>>> s.to_act, code_list(s.hands[0]), SUIT_LETTERS[s.trump]
(0, ['7S', '9S', 'QS', 'TS', '7H'], 'H')
>>> [str(a) for a in legal_actions(s)][:3]
['TS', 'QS', '9S']

Why one module of this length: the whole engine of the rules file, section by section
(shared/rules/chouine.md), with its fast integer form that the solver and the search use.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from veillee import cards
from veillee.games import IllegalAction

SUIT_LETTERS = "SHDC"
"""Suit letter of suit index 0–3 (the order of :data:`veillee.cards.SUITS`)."""
RANK_LETTERS = "789JQKTA"
"""Rank letter of rank index 0–7; the index is the trick strength minus one (rules §1)."""

CARD_CODES: tuple[str, ...] = tuple(r + s for s in SUIT_LETTERS for r in RANK_LETTERS)
"""Card code of each card int."""
CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(CARD_CODES)}
"""Card int of each card code."""
PACK: tuple[str, ...] = CARD_CODES
"""The 32 card codes in card-int order (a valid, unshuffled deck)."""

POINTS: tuple[int, ...] = tuple((0, 0, 0, 2, 3, 4, 10, 11)[i & 7] for i in range(32))
"""Card points of each card int (rules §1: A 11, T 10, K 4, Q 3, J 2)."""
ALL_CARDS = (1 << 32) - 1
_BIT: tuple[int, ...] = tuple(1 << c for c in range(32))
"""``_BIT[card]``: the mask of one card (the int is made once, not at every play)."""
BRISQUES = 0xC0C0C0C0
"""Mask of the eight brisques (aces and tens)."""
SEVEN = 0
"""Rank index of the seven: the seven of trumps is card ``trump * 8``."""
DIX_DE_DER = 10
"""Points of the last trick (rules §7)."""

PLAIN, MARIAGE, TIERCE, QUATERON, QUINTE, CHOUINE = range(6)
KINDS: tuple[str, ...] = ("", "mariage", "tierce", "quateron", "quinte", "chouine")
"""Declaration kind names by kind int (0 is a plain play, no declaration)."""
KIND_INDEX: dict[str, int] = {k: i for i, k in enumerate(KINDS) if k}
SUIT_COMBINATIONS: tuple[tuple[int, int, int], ...] = (
    (QUATERON, 0xB8, 40),
    (TIERCE, 0x38, 30),
    (MARIAGE, 0x30, 20),
)
"""(kind, suit byte of its cards, plain-suit points) of the suit combinations (rules §5.1);
in trumps the points double."""
CHOUINE_BYTE = 0xF8
"""Suit byte of a chouine: A T K Q J of one suit (rules §9)."""
QUINTE_POINTS = 50

DRAW, SWAP = 1, 0
"""How a turn-up was taken (``State.taken_turn_ups``): by the seven swap or by the trick-11 draw."""
HOW = ("swap", "draw")

REASONS: dict[str, str] = {
    "deal_over": "the partie is over",
    "not_your_turn": "another seat is to act",
    "answer_prompt_first": "answer the seven prompt (swap or carry on) before playing",
    "no_prompt": "there is no seven prompt to answer",
    "unknown_action": "not a Chouine action",
    "card_not_in_hand": "that card is not in your hand",
    "must_follow_suit": "talon empty: you must follow the suit led",
    "must_beat_trump": "trump led: you must play a higher trump",
    "must_trump": "talon empty and void in the suit led: you must trump",
    "declaration_needs_played_card": "the card played must be one of the combination's cards",
    "declaration_not_held": "the whole combination must be in your hand",
    "suit_already_declared": "you have already declared in that suit this partie",
    "quinte_already_declared": "you have already declared a quinte this partie",
    "swap_not_allowed": "the seven swap is not allowed now",
    "match_over": "the match is over",
    "deal_not_over": "the partie is still being played",
}
"""Every reason code the engine and its match give (stable identifiers) with a one-line English
gloss; the web layer translates them."""


# --- cards ------------------------------------------------------------------------------------


def code(card: int) -> str:
    """Card code (``"JH"``) of a card int."""
    return CARD_CODES[card]


def card_of(text: str) -> int:
    """Card int of a card code; raises ``KeyError`` for anything else."""
    return CARD_INDEX[text]


def strength(card: int) -> int:
    """Trick strength of a card within its suit, 1 (seven) to 8 (ace) (rules §1)."""
    return (card & 7) + 1


def mask_of(codes: Iterable[str]) -> int:
    """Bitmask of some card codes; raises ``KeyError`` for anything not a card code."""
    m = 0
    for c in codes:
        m |= 1 << CARD_INDEX[c]
    return m


def cards_in(mask: int) -> list[int]:
    """The card ints of a mask, in increasing order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def code_list(mask: int) -> list[str]:
    """The card codes of a mask, in card-int order (suit S H D C, weakest first)."""
    codes = _BYTE_CODES
    return [
        *codes[mask & 0xFF],
        *codes[256 | (mask >> 8) & 0xFF],
        *codes[512 | (mask >> 16) & 0xFF],
        *codes[768 | mask >> 24],
    ]


_BYTE_CODES: tuple[tuple[str, ...], ...] = tuple(
    tuple(CARD_CODES[8 * s + r] for r in range(8) if byte >> r & 1)
    for s in range(4)
    for byte in range(256)
)
"""``_BYTE_CODES[256 * suit + byte]``: the codes of a suit byte's cards, weakest first (the
states' JSON and the views list many masks: a lookup per suit costs less than a bit loop)."""


_SUIT_CARDS_DESC: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * s + r for r in range(7, -1, -1) if byte >> r & 1) for byte in range(256))
    for s in range(4)
)
"""``_SUIT_CARDS_DESC[suit][byte]``: the cards of a suit byte, strongest first."""
_DISPLAY_SUITS: tuple[tuple[int, ...], ...] = tuple(
    tuple([x for x in range(4) if x != t] + [t]) for t in range(4)
)
"""``_DISPLAY_SUITS[trump]``: the suits in hand display order, trump last."""


def display_order(mask: int, trump: int) -> list[int]:
    """Cards of a mask in hand display order: by suit (S H D C, trump last), strongest first."""
    out: list[int] = []
    for s in _DISPLAY_SUITS[trump]:
        out.extend(_SUIT_CARDS_DESC[s][(mask >> (8 * s)) & 0xFF])
    return out


# --- rule primitives: tricks, duties, declarations ----------------------------------------------


def beats(lead: int, follow: int, trump: int) -> bool:
    """True when ``follow`` wins the trick against ``lead`` (rules §4.1)."""
    if follow >> 3 == lead >> 3:
        return follow > lead
    return follow >> 3 == trump


BEATEN_BY: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        sum(1 << follow for follow in range(32) if beats(lead, follow, trump)) for lead in range(32)
    )
    for trump in range(4)
)
"""``BEATEN_BY[trump][lead]``: the mask of the cards that win against ``lead`` (made from
:func:`beats`; in CPython a lookup costs less than a shift)."""


def legal_cards(hand: int, lead: int, trump: int, phase2: bool) -> int:
    """Mask of the cards of ``hand`` that may be played (rules §4.2, §4.3).

    ``lead`` is the card led in the open trick, or -1 when ``hand`` is the leader's.

    >>> code_list(legal_cards(mask_of(["7H", "AH", "QS", "9D"]), card_of("KH"), 1, True))  # C1
    ['AH']
    """
    if lead < 0 or not phase2:
        return hand
    suit, higher, trumps = _FOLLOWING[trump][lead]
    same = hand & suit
    if same:
        # trump led: a higher trump if the hand has one (``higher`` is 0 for any other suit)
        return hand & higher or same
    return hand & trumps or hand


_FOLLOWING: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (
            0xFF << (lead & ~7),
            (0xFF << (lead & ~7)) & ~((2 << lead) - 1) if lead >> 3 == trump else 0,
            0xFF << (8 * trump),
        )
        for lead in range(32)
    )
    for trump in range(4)
)
"""``_FOLLOWING[trump][lead]``: the masks :func:`legal_cards` reads: the suit led, the trumps
stronger than ``lead`` when trumps are led (else 0), the trumps."""


def follow_refusal(hand: int, lead: int, trump: int, card: int) -> str:
    """Reason code why ``card`` of ``hand`` may not follow ``lead`` in phase 2 (rules §4.3);
    only meaningful for a card outside :func:`legal_cards`."""
    s = lead >> 3
    if (hand >> (8 * s)) & 0xFF:
        return "must_follow_suit" if card >> 3 != s else "must_beat_trump"
    return "must_trump"


def declaration_points(kind: int, suit: int, trump: int) -> int:
    """Points a declaration of ``kind`` scores at once (rules §5.1): mariage 20, tierce 30,
    quateron 40, doubled in trumps (``suit == trump``); quinte 50 (``suit`` unused). A chouine
    scores 0: it wins the partie instead (§9).

    >>> declaration_points(MARIAGE, 1, 1), declaration_points(QUATERON, 0, 1)
    (40, 40)
    """
    if kind == QUINTE:
        return QUINTE_POINTS
    base = _COMBINATION_POINTS[kind]
    return 2 * base if suit == trump else base


_COMBINATION_POINTS: tuple[int, ...] = tuple(
    next((p for k, _, p in SUIT_COMBINATIONS if k == kind), 0) for kind in range(6)
)
_COMBINATION_BYTE: tuple[int, ...] = tuple(
    next((b for k, b, _ in SUIT_COMBINATIONS if k == kind), CHOUINE_BYTE if kind == CHOUINE else 0)
    for kind in range(6)
)
"""Suit byte of the cards of each suit combination kind (the chouine's included)."""
_SUIT_OPTIONS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple(
        (kind, points, need)
        for kind, need, points in SUIT_COMBINATIONS
        if byte & need == need and need >> (i & 7) & 1
    )
    for byte in range(256)
    for i in range(8)
)
"""``_SUIT_OPTIONS[byte << 3 | rank]``: the suit combinations a card of ``rank`` can carry from a
suit holding ``byte``, as (kind, plain points, byte of its cards), highest first."""


def chouine_suit(hand: int) -> int:
    """The suit of the chouine ``hand`` is (exactly A T K Q J of one suit, rules §9), or -1."""
    if not hand:
        return -1
    s = (hand.bit_length() - 1) >> 3
    return s if hand == CHOUINE_BYTE << (8 * s) else -1


def declaration_options(
    hand: int, card: int, declared_suits: int, quinte_declared: bool, trump: int
) -> list[tuple[int, int, int]]:
    """The declarations ``card`` can carry from ``hand`` (rules §5.1–5.2, conditions 1, 2, 4).

    Returns ``[(kind, points, cards_mask), …]``: a chouine first, then by points, highest first.
    ``declared_suits`` is a 4-bit mask of the suits the seat has declared in. Whether the card is
    a legal play (condition 3) is the caller's business. The chouine's points are 0: it wins the
    partie instead (§9).

    >>> h = mask_of(["AD", "KD", "QD", "JD", "7C"])
    >>> [(KINDS[k], p) for k, p, _ in declaration_options(h, card_of("KD"), 0, False, 0)]
    [('quateron', 40), ('tierce', 30), ('mariage', 20)]
    """
    out: list[tuple[int, int, int]] = []
    s = card >> 3
    rank = card & 7
    if not (declared_suits >> s) & 1:
        shift = 8 * s
        if hand == CHOUINE_BYTE << shift and CHOUINE_BYTE >> rank & 1:
            out.append((CHOUINE, 0, hand))
        double = 2 if s == trump else 1
        for kind, points, need in _SUIT_OPTIONS[((hand >> shift) & 0xFF) << 3 | rank]:
            out.append((kind, points * double, need << shift))
    if not quinte_declared and rank >= 6 and (hand & BRISQUES).bit_count() == 5:
        quinte = (QUINTE, QUINTE_POINTS, hand & BRISQUES)
        i = 1 if out and out[0][0] == CHOUINE else 0
        while i < len(out) and out[i][1] > QUINTE_POINTS:
            i += 1
        out.insert(i, quinte)
    return out


def chouine_answerable(suit: int, other_hand: int, other_declared_suits: int, trump: int) -> bool:
    """True when a chouine of ``suit`` led may still be beaten (rules §9): it is not in trumps,
    and the other seat's hand is the trump chouine, which it may still declare. Otherwise the
    chouine wins the partie at once."""
    return (
        suit != trump
        and other_hand == CHOUINE_BYTE << (8 * trump)
        and not (other_declared_suits >> trump) & 1
    )


# --- actions ----------------------------------------------------------------------------------

_SWAP_CODE = 8 * 32
_CONTINUE_CODE = _SWAP_CODE + 1


def _action_code(verb: object, card: object, declaration: object) -> int:
    """``8 * card + kind`` for a play, then swap and continue; -1 for anything malformed."""
    if verb in ("swap", "continue"):
        if card is None and declaration is None:
            return _SWAP_CODE if verb == "swap" else _CONTINUE_CODE
        return -1
    if verb != "play" or not isinstance(card, str) or card not in CARD_INDEX:
        return -1
    if declaration is None:
        return 8 * CARD_INDEX[card]
    if not isinstance(declaration, str) or declaration not in KIND_INDEX:
        return -1
    return 8 * CARD_INDEX[card] + KIND_INDEX[declaration]


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of a seat, with its text notation (docs/notation.md).

    ``verb`` is ``"play"`` (``card`` a card code, ``declaration`` a kind name or ``None``),
    ``"swap"`` (the seven swap, §6) or ``"continue"`` (carry on at the seven prompt). ``code``
    is derived: ``8 * card int + kind int`` for a play, 256 for swap, 257 for continue, -1 for a
    malformed action (which is never legal).

    >>> str(Action.parse("jh Tierce")), Action.parse("swap") == SWAP_ACTION
    ('JH tierce', True)
    """

    verb: str
    card: str | None = None
    declaration: str | None = None
    code: int = field(init=False, repr=False, compare=False)
    play_facts: tuple[int, int, int] | None = field(init=False, repr=False, compare=False)
    """``(card int, kind int, card mask)`` of a well-formed play, else ``None`` (derived)."""

    def __post_init__(self) -> None:
        code = _action_code(self.verb, self.card, self.declaration)
        object.__setattr__(self, "code", code)
        facts = (code >> 3, code & 7, 1 << (code >> 3)) if 0 <= code < _SWAP_CODE else None
        object.__setattr__(self, "play_facts", facts)

    def __str__(self) -> str:
        if self.verb != "play":
            return self.verb
        return f"{self.card} {self.declaration}" if self.declaration else f"{self.card}"

    @classmethod
    def parse(cls, text: str) -> Action:
        """The action written ``text`` (``"JH"``, ``"KD mariage"``, ``"swap"``, ``"continue"``).

        Raises ``ValueError`` on anything else. Case and surrounding spaces are forgiven.
        """
        words = text.split()
        if len(words) == 1 and words[0].lower() in ("swap", "continue"):
            return SWAP_ACTION if words[0].lower() == "swap" else CONTINUE_ACTION
        if 1 <= len(words) <= 2:
            card = words[0].upper()
            if card in CARD_INDEX:
                if len(words) == 1:
                    return PLAY_ACTIONS[CARD_INDEX[card]][PLAIN]
                kind = words[1].lower()
                if kind in KIND_INDEX:
                    return PLAY_ACTIONS[CARD_INDEX[card]][KIND_INDEX[kind]]
        raise ValueError(f"not a Chouine action: {text!r}")

    @classmethod
    def play(cls, card: str, declaration: str | None = None) -> Action:
        """Play ``card`` (a code), optionally declaring ``declaration`` (a kind name)."""
        return cls("play", card, declaration)


SWAP_ACTION = Action("swap")
CONTINUE_ACTION = Action("continue")
PLAY_ACTIONS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(Action("play", CARD_CODES[c], KINDS[k] or None) for k in range(6)) for c in range(32)
)
"""Interned play actions: ``PLAY_ACTIONS[card][kind]``."""


# --- the state --------------------------------------------------------------------------------


_Record = tuple[
    int,
    int,
    tuple[tuple[int, int, int, int, int, int, int], ...],
    tuple[int, int],
    tuple[bool, bool],
    tuple[tuple[int, int, int], ...],
    int | None,
]
"""``State.record``: dealer, turn-up, declarations, declared suits, quintes declared, turn-ups
taken and the chouine's seat (see :class:`State`)."""


class _Stored(NamedTuple):
    """What a :class:`State` stores, in the order :func:`apply` unpacks it (see there)."""

    hand_0: int
    hand_1: int
    trick: tuple[int, ...]
    to_act: int | None
    prompt: bool
    trick_number: int
    leader: int
    trump: int
    talon: tuple[int, ...]
    tricks_and_draws: tuple[tuple[int, ...], ...]
    actions: tuple[Action, ...]
    record: _Record


class State(_Stored):
    """One partie, immutable, hashable and JSON-serializable (:func:`to_json`); two states are
    equal when they are the same position.

    Fields (cards are ints, sets of cards are masks, seats 0/1):

    - ``dealer``, ``trump`` (suit index);
    - ``hands``: (mask, mask); ``talon``: face-down cards, top first; ``turn_up``: card or -1
      once taken after trick 11;
    - ``trick_number`` 1–16 (stays on the last trick played when the partie is over);
      ``leader`` of that trick; ``trick``: cards played to it so far, lead first;
    - ``to_act``: seat whose decision is awaited, ``None`` when the partie is over;
      ``prompt``: True while ``to_act`` must answer the seven prompt (§6);
    - ``piles``: (mask, mask) of cards won; ``tricks``: completed tricks as
      ``(leader, lead card, follow card, winner)``;
    - ``declarations``: in order made, ``(seat, kind, suit or -1, points, cards mask, trick
      number, card played)``; ``declared_suits``: (4-bit mask, 4-bit mask);
      ``quinte_declared``: (bool, bool);
    - ``taken_turn_ups``: ``(seat, card, SWAP | DRAW)``; ``drawn``: per seat, the cards it drew
      after tricks (the turn-up taken at trick 11 included), in order;
    - ``chouine``: the seat whose chouine won the partie, else ``None``;
    - ``actions``: what :func:`legal_actions` answers for this state (a tuple), worked out by
      whoever made the state (:func:`apply`, the deal, the keyword constructor) while it had the
      fields at hand. It is not part of the JSON form (:func:`to_json`) and follows from the
      other fields.

    What is stored is smaller, because :func:`apply` copies it at every decision: the fields that
    change during play (``hand_0`` and ``hand_1``, the ``hands`` of seat 0 and 1, ``trick``,
    ``to_act``, ``prompt``, ``trick_number``, ``leader``, ``talon``, ``actions``) and ``trump``,
    each in its own slot; ``tricks_and_draws``: the completed tricks, each followed by the cards
    drawn after it when there was a draw (``(leader, lead card, follow card, winner, winner's
    card, loser's card)``, else the 4-tuple of ``tricks``); ``dealer``, ``turn_up``,
    ``declarations``, ``declared_suits``, ``quinte_declared``, ``taken_turn_ups`` and
    ``chouine``, which change a few times a partie at most, together in ``record`` (in that
    order). ``tricks``, ``drawn`` and ``piles`` (the cards of the tricks each seat won) are read
    from ``tricks_and_draws``; ``hands`` and these fields read as properties.

    Built by keywords with every field above (``actions`` optional): each seat's ``drawn`` cards
    are its draws after the last tricks numbered 11 or less, in order. Raises ``ValueError``
    when ``piles`` are not the cards of the tricks each seat won or the ``drawn`` cards cannot be
    such draws.
    """

    __slots__ = ()

    def __new__(
        cls,
        *,
        dealer: int,
        trump: int,
        hands: tuple[int, int],
        talon: tuple[int, ...],
        turn_up: int,
        trick_number: int,
        leader: int,
        trick: tuple[int, ...],
        to_act: int | None,
        prompt: bool,
        piles: tuple[int, int],
        tricks: tuple[tuple[int, int, int, int], ...],
        declarations: tuple[tuple[int, int, int, int, int, int, int], ...],
        declared_suits: tuple[int, int],
        quinte_declared: tuple[bool, bool],
        taken_turn_ups: tuple[tuple[int, int, int], ...],
        drawn: tuple[tuple[int, ...], tuple[int, ...]],
        chouine: int | None,
        actions: tuple[Action, ...] | None = None,
    ) -> State:
        if tuple(piles) != _piles(tricks):
            raise ValueError("piles must be the cards of the tricks each seat won")
        tricks_and_draws = _with_draws(tricks, drawn)
        record = (
            dealer, turn_up, declarations, declared_suits, quinte_declared, taken_turn_ups,
            chouine,
        )  # fmt: skip
        state = _state(
            cls,
            (
                hands[0], hands[1], trick, to_act, prompt, trick_number, leader, trump, talon,
                tricks_and_draws, actions, record,
            ),
        )  # fmt: skip
        if actions is None:
            return _state(cls, (*state[:10], _state_actions(state), record))
        return state

    def _replace(self, **changes: object) -> State:
        """A copy with some fields (any of those listed above) changed."""
        fields: dict[str, object] = {name: getattr(self, name) for name in _FIELDS}
        fields.update(changes)
        return State(**fields)  # type: ignore[arg-type]

    @property
    def hands(self) -> tuple[int, int]:
        return (self[0], self[1])

    @property
    def dealer(self) -> int:
        return self[11][0]

    @property
    def turn_up(self) -> int:
        return self[11][1]

    @property
    def declarations(self) -> tuple[tuple[int, int, int, int, int, int, int], ...]:
        return self[11][2]

    @property
    def declared_suits(self) -> tuple[int, int]:
        return self[11][3]

    @property
    def quinte_declared(self) -> tuple[bool, bool]:
        return self[11][4]

    @property
    def taken_turn_ups(self) -> tuple[tuple[int, int, int], ...]:
        return self[11][5]

    @property
    def chouine(self) -> int | None:
        return self[11][6]

    @property
    def piles(self) -> tuple[int, int]:
        return _piles(self[9])

    @property
    def tricks(self) -> tuple[tuple[int, int, int, int], ...]:
        return tuple([t[:4] for t in self[9]])  # type: ignore[misc]

    @property
    def drawn(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        drawn: tuple[list[int], list[int]] = ([], [])
        for t in self[9]:
            if len(t) > 4:
                drawn[t[3]].append(t[4])
                drawn[1 - t[3]].append(t[5])
        return (tuple(drawn[0]), tuple(drawn[1]))


_FIELDS = (
    "dealer", "trump", "hands", "talon", "turn_up", "trick_number", "leader", "trick", "to_act",
    "prompt", "piles", "tricks", "declarations", "declared_suits", "quinte_declared",
    "taken_turn_ups", "drawn", "chouine", "actions",
)  # fmt: skip
"""The fields of a :class:`State` as its readers and its keyword constructor name them."""


def _piles(tricks: Iterable[tuple[int, ...]]) -> tuple[int, int]:
    """Each seat's pile (mask): the cards of the tricks it won (``tricks`` or
    ``tricks_and_draws``)."""
    piles = [0, 0]
    for t in tricks:
        piles[t[3]] |= _BIT[t[1]] | _BIT[t[2]]
    return (piles[0], piles[1])


def _with_draws(
    tricks: Sequence[tuple[int, int, int, int]], drawn: Sequence[Sequence[int]]
) -> tuple[tuple[int, ...], ...]:
    """``State.tricks_and_draws`` of some tricks and the cards each seat drew (see
    :class:`State`); raises ``ValueError`` when the draws cannot follow those tricks."""
    count = len(drawn[0])
    end = min(len(tricks), 11)
    if len(drawn[1]) != count or count > end:
        raise ValueError("each seat draws one card after each of tricks 1-11")
    out = [tuple(t) for t in tricks]
    for i in range(count):
        t = out[end - count + i]
        out[end - count + i] = (*t, drawn[t[3]][i], drawn[1 - t[3]][i])
    return tuple(out)


# The hot paths build states as plain tuples of the stored fields in order: cheaper than the
# keyword constructor and ``_replace``, and the same value.
_state = tuple.__new__
_CARD_INTS: tuple[int, ...] = tuple(range(32))
_LED: tuple[tuple[int], ...] = tuple((c,) for c in range(32))
"""``_LED[card]``: the trick holding ``card`` led (made once, not at every lead)."""


def _deal(deck: Sequence[int], dealer: int) -> State:
    """The first state from card ints, top first (rules §3); ``deck`` is known to be the pack."""
    non_dealer = 1 - dealer
    bit = _BIT
    a = bit[deck[0]] | bit[deck[2]] | bit[deck[4]] | bit[deck[6]] | bit[deck[8]]
    b = bit[deck[1]] | bit[deck[3]] | bit[deck[5]] | bit[deck[7]] | bit[deck[9]]
    if non_dealer:
        hand_0, hand_1 = b, a
    else:
        hand_0, hand_1 = a, b
    turn_up = deck[10]
    trump = turn_up >> 3
    # no declaration, no turn-up taken, no chouine yet
    record = (dealer, turn_up, (), (0, 0), (False, False), (), None)
    return _state(
        State,
        (
            hand_0, hand_1, (), non_dealer, False, 1, non_dealer, trump, tuple(deck[11:]), (),
            _actions(a, trump, 1, (), False, record, non_dealer), record,
        ),
    )  # fmt: skip


def deal(deck: Sequence[str], *, dealer: int) -> State:
    """The first state of a partie dealt from ``deck`` (32 card codes, top first), rules §3.

    The non-dealer gets ``deck[0, 2, 4, 6, 8]``, the dealer ``deck[1, 3, 5, 7, 9]``, the turn-up is
    ``deck[10]`` (its suit is trump), the talon ``deck[11:]`` with ``deck[11]`` on top. The
    non-dealer leads trick 1. Raises ``ValueError`` unless ``deck`` is the 32-card pack and
    ``dealer`` is 0 or 1.
    """
    cards.check_deck(deck, PACK)
    if dealer not in (0, 1):
        raise ValueError("dealer must be 0 or 1")
    return _deal([CARD_INDEX[c] for c in deck], dealer)


def deal_random(rng: random.Random, *, dealer: int) -> State:
    """A partie dealt from a deck shuffled with ``rng`` only (rules §3.1): the same partie as
    ``deal(cards.shuffled(PACK, rng), dealer=dealer)``. Raises ``ValueError`` for a dealer other
    than 0 or 1."""
    if dealer not in (0, 1):
        raise ValueError("dealer must be 0 or 1")
    return _deal(cards.shuffled(_CARD_INTS, rng), dealer)


def phase(state: State) -> int:
    """1 while the talon lasts (tricks 1–11), 2 for tricks 12–16 (rules §12)."""
    return 1 if state.trick_number <= 11 else 2


def swap_allowed(state: State, seat: int) -> bool:
    """True when ``seat`` is to act and may make the seven swap now (rules §6, §6.1)."""
    if state.to_act != seat:
        return False
    return may_swap(state.hands[seat], state.trump, state.turn_up, state.trick_number, state.trick)


def may_swap(
    hand: int, trump: int, turn_up: int, trick_number: int, trick: tuple[int, ...]
) -> bool:
    """True when the seat to act, holding ``hand``, may make the seven swap (rules §6, §6.1): it
    holds the seven of trumps, the turn-up still lies under the talon, and the lead card of
    trick 11 is not yet on the table."""
    if turn_up < 0 or not hand >> (8 * trump + SEVEN) & 1:
        return False
    return not (trick_number == 11 and trick)


# --- legal actions ----------------------------------------------------------------------------


class _DeclaringFlags(dict[int, int]):
    """By ``hand & _SIGNIFICANT`` (its aces, tens, kings and queens): bit ``s`` set when suit
    ``s`` holds its king and queen (a mariage, tierce or quateron may be declared there, rules
    §5.1); bit 4 when the hand may be a chouine or hold five brisques (its aces and tens are
    those of a chouine, or five). Filled as met; subscripting skips a method call."""

    def __missing__(self, significant: int) -> int:
        flags = int(significant & BRISQUES in _CHOUINE_OR_QUINTE_BRISQUES) << 4
        for s in range(4):
            if (significant >> (8 * s)) & 0x30 == 0x30:
                flags |= 1 << s
        self[significant] = flags
        return flags


_SIGNIFICANT = 0xF0F0F0F0
"""Mask of the aces, tens, kings and queens: they alone say whether a hand may declare."""
_FLAGS = _DeclaringFlags()


_CHOUINE_HANDS = frozenset(CHOUINE_BYTE << (8 * s) for s in range(4))
_CHOUINE_OR_QUINTE_BRISQUES = frozenset(
    [0xC0 << (8 * s) for s in range(4)]
    + [sum(1 << b for b in five) for five in itertools.combinations(cards_in(BRISQUES), 5)]
)
"""The brisques of a hand that is a chouine (the ace and ten of its suit) or may declare a
quinte (five brisques): a cheap first test that rules out both for most hands."""
_PLAIN_ROWS: tuple[tuple[Action, ...], ...] = tuple(
    tuple(PLAY_ACTIONS[c][PLAIN] for c in _SUIT_CARDS_DESC[s][byte])
    for s in range(4)
    for byte in range(256)
)
"""``_PLAIN_ROWS[256 * suit + byte]``: the plain plays of a suit byte's cards, strongest first."""
_Plays = tuple[Action, ...]
_LOW_ROWS: tuple[list[tuple[_Plays, _Plays, int] | None], ...] = tuple(
    [None] * 0x10000 for _ in range(4)
)
"""``_LOW_ROWS[trump]``, by the spades and hearts of a mask (its low 16 bits): the plain plays
shown before the diamonds and clubs and those shown after them (the trumps, last), and the
half's declaring facts (see :func:`_half_facts`); filled as met."""
_HIGH_ROWS: tuple[list[tuple[_Plays, int] | None], ...] = tuple([None] * 0x10000 for _ in range(4))
"""``_HIGH_ROWS[trump]``, by the diamonds and clubs of a mask (its high 16 bits): their plain
plays in display order (clubs first when diamonds are trumps), and the half's declaring facts;
filled as met."""
_PROMPT_ACTIONS: tuple[tuple[Action, ...], tuple[Action, ...]] = (
    (CONTINUE_ACTION,),
    (CONTINUE_ACTION, SWAP_ACTION),
)
"""The answers to the seven prompt, by whether the swap is allowed."""
_SWAP_ONLY: tuple[Action, ...] = (SWAP_ACTION,)
_SEVENS: tuple[int, ...] = tuple(1 << (8 * t + SEVEN) for t in range(4))
"""``_SEVENS[trump]``: the mask of the seven of trumps."""

_CHOUINE_FACT = 0x10
_PAIR_FACT = 0x20
_SEVEN_FACT = 0x80
_PLAIN_FACTS: tuple[bool, ...] = tuple(f < _CHOUINE_FACT and f != 5 for f in range(0x200))
"""``_PLAIN_FACTS[low facts + high facts]``: True when the hand can carry no declaration (no
king and queen of a suit, not a chouine, not five brisques) and holds no seven of trumps: its
actions are its plain plays alone."""


def _half_facts(trump: int, half: int, shift: int) -> int:
    """The declaring facts of half a hand (16 bits: the suits ``shift // 8`` and the next) as
    one small int: its number of brisques (the low four bits), plus :data:`_CHOUINE_FACT` when
    it is a chouine, :data:`_PAIR_FACT` when a suit holds its king and queen, and
    :data:`_SEVEN_FACT` when it holds the seven of trumps. The facts of a hand's two halves
    add up without mixing (at most 8 brisques)."""
    facts = (half & 0xC0C0).bit_count()
    if any(half == CHOUINE_BYTE << (8 * s) for s in (0, 1)):
        facts |= _CHOUINE_FACT
    if any((half >> (8 * s)) & 0x30 == 0x30 for s in (0, 1)):
        facts |= _PAIR_FACT
    if (half << shift) & _SEVENS[trump]:
        facts |= _SEVEN_FACT
    return facts


def _low_rows(trump: int, low: int) -> tuple[_Plays, _Plays, int]:
    spades, hearts = _PLAIN_ROWS[low & 0xFF], _PLAIN_ROWS[256 | low >> 8]
    if trump == 0:
        first, last = hearts, spades
    elif trump == 1:
        first, last = spades, hearts
    else:
        first, last = spades + hearts, ()
    rows = _LOW_ROWS[trump][low] = (first, last, _half_facts(trump, low, 0))
    return rows


def _high_row(trump: int, high: int) -> tuple[_Plays, int]:
    diamonds, clubs = _PLAIN_ROWS[512 | high & 0xFF], _PLAIN_ROWS[768 | high >> 8]
    row = _HIGH_ROWS[trump][high] = (
        clubs + diamonds if trump == 2 else diamonds + clubs,
        _half_facts(trump, high, 16),
    )
    return row


_DECLARING_ROWS: dict[int, tuple[Action, ...]] = {}
"""Rows of a suit in which mariages, tierces or quaterons may be declared, by
``suit << 16 | hand byte << 8 | legal byte``; filled as met (at most 4 · 3⁸ rows)."""


def _declaring_row(s: int, hand_byte: int, legal_byte: int) -> tuple[Action, ...]:
    key = s << 16 | hand_byte << 8 | legal_byte
    row = _DECLARING_ROWS.get(key)
    if row is None:
        actions: list[Action] = []
        for c in _SUIT_CARDS_DESC[s][legal_byte]:
            actions.append(PLAY_ACTIONS[c][PLAIN])
            for kind, _, _ in _SUIT_OPTIONS[hand_byte << 3 | c & 7]:
                actions.append(PLAY_ACTIONS[c][kind])
        row = _DECLARING_ROWS[key] = tuple(actions)
    return row


def legal_actions(state: State) -> list[Action]:
    """The actions ``state.to_act`` may take, in a stable order (rules §4–§6, §9).

    For each legal card in hand display order (by suit, trump last, strongest first): the plain
    play, then one action per declaration it can carry (chouine first, then by points); then
    ``swap`` when allowed. At the seven prompt: ``continue`` then, if allowed, ``swap``.
    ``[]`` when the partie is over. (The state carries them: see ``State.actions``.)
    """
    return [*state[10]]


def _state_actions(state: State) -> tuple[Action, ...]:
    """:func:`legal_actions` of ``state`` worked out from its fields."""
    seat = state.to_act
    if seat is None:
        return ()
    return _actions(
        state.hands[seat],
        state.trump,
        state.trick_number,
        state.trick,
        state.prompt,
        state[11],
        seat,
    )


def _actions(
    hand: int,
    trump: int,
    k: int,
    trick: tuple[int, ...],
    prompt: bool,
    record: _Record,
    seat: int,
) -> tuple[Action, ...]:
    """The legal actions of ``seat``, to act, which holds ``hand``, at trick ``k`` whose cards
    so far are ``trick``; ``record`` is the state's (:class:`State`): the turn-up, what
    ``seat`` has declared. See :func:`legal_actions`."""
    if prompt:
        return _PROMPT_ACTIONS[may_swap(hand, trump, record[1], k, trick)]
    # The rows of the hand's halves (spades and hearts, diamonds and clubs), each read by one
    # small int, say at once whether it may declare or swap: the plain plays in display order
    # (those before and after the diamonds and clubs, then theirs) and the halves' facts.
    # (:func:`apply` reads them the same way before it calls :func:`_other_actions`.)
    first, last, low_facts = _LOW_ROWS[trump][hand & 0xFFFF] or _low_rows(trump, hand & 0xFFFF)
    middle, high_facts = _HIGH_ROWS[trump][hand >> 16] or _high_row(trump, hand >> 16)
    facts = low_facts + high_facts
    if _PLAIN_FACTS[facts] and not (trick and k > 11):
        return first + middle + last
    return _other_actions(hand, trump, k, trick, record, seat, facts, first + middle + last)


def _other_actions(
    hand: int,
    trump: int,
    k: int,
    trick: tuple[int, ...],
    record: _Record,
    seat: int,
    facts: int,
    plays: tuple[Action, ...],
) -> tuple[Action, ...]:
    """:func:`_actions` when the hand's ``facts`` say it may declare or swap, or when it
    follows in phase 2 (rules §4.3); ``plays`` are the hand's plain plays in display order."""
    if trick and k > 11:
        legal = legal_cards(hand, trick[0], trump, True)
        if legal != hand:
            first, last, _ = _LOW_ROWS[trump][legal & 0xFFFF] or _low_rows(trump, legal & 0xFFFF)
            middle = (_HIGH_ROWS[trump][legal >> 16] or _high_row(trump, legal >> 16))[0]
            plays = first + middle + last
    else:
        legal = hand
    if _PLAIN_FACTS[facts & ~_SEVEN_FACT]:
        out = plays
    elif (flags := _FLAGS[hand & _SIGNIFICANT]) & 16 and (
        hand in _CHOUINE_HANDS or (not record[4][seat] and (hand & BRISQUES).bit_count() == 5)
    ):
        out = _legal_with_chouine_or_quinte(hand, legal, trump, record[3][seat], record[4][seat])
    elif declaring := flags & ~record[3][seat] & 15:
        out = ()
        for s in _DISPLAY_SUITS[trump]:
            shift = 8 * s
            byte = (legal >> shift) & 0xFF
            if byte:
                if declaring >> s & 1:
                    out += _declaring_row(s, (hand >> shift) & 0xFF, byte)
                else:
                    out += _PLAIN_ROWS[256 * s + byte]
    else:
        out = plays
    # (a cheap test first: there is no swap without the seven of trumps)
    if facts & _SEVEN_FACT and may_swap(hand, trump, record[1], k, trick):
        out += _SWAP_ONLY
    return out


def _legal_with_chouine_or_quinte(
    hand: int, legal: int, trump: int, declared: int, quinte_declared: bool
) -> tuple[Action, ...]:
    """The plays of :func:`_actions` when a chouine or a quinte may be among them."""
    out: list[Action] = []
    for c in display_order(legal, trump):
        row = PLAY_ACTIONS[c]
        out.append(row[PLAIN])
        for kind, _, _ in declaration_options(hand, c, declared, quinte_declared, trump):
            out.append(row[kind])
    return tuple(out)


# --- legality ---------------------------------------------------------------------------------


def card_refusal(state: State, seat: int, card: int) -> str | None:
    """Reason code why ``seat`` may not play ``card`` (plain) now, or ``None`` if it may."""
    if state.to_act is None:
        return "deal_over"
    if state.to_act != seat:
        return "not_your_turn"
    if state.prompt:
        return "answer_prompt_first"
    hand = state.hands[seat]
    if not hand >> card & 1:
        return "card_not_in_hand"
    if state.trick and state.trick_number > 11:
        lead = state.trick[0]
        if not legal_cards(hand, lead, state.trump, True) >> card & 1:
            return follow_refusal(hand, lead, state.trump, card)
    return None


def _declaration(state: State, seat: int, card: int, kind: int) -> tuple[int, int] | str:
    """``(points, cards mask)`` of the declaration of ``kind`` that ``seat`` makes with
    ``card``, a card it may play, or the reason code why it may not (rules §5.2)."""
    rank = card & 7
    if kind == QUINTE:
        if rank < 6:
            return "declaration_needs_played_card"
        if state.quinte_declared[seat]:
            return "quinte_already_declared"
    else:
        if not (_COMBINATION_BYTE[kind] >> rank) & 1:
            return "declaration_needs_played_card"
        if (state.declared_suits[seat] >> (card >> 3)) & 1:
            return "suit_already_declared"
    for option, points, cards_mask in declaration_options(
        state.hands[seat],
        card,
        state.declared_suits[seat],
        state.quinte_declared[seat],
        state.trump,
    ):
        if option == kind:
            return points, cards_mask
    return "declaration_not_held"


def why_illegal(state: State, seat: int, action: Action) -> str | None:
    """Say why ``seat`` may not take ``action`` now, or ``None`` if it may.

    Implements rules §4.2–4.3 (follow duties), §5.2 (declarations), §6 (swap and prompt). The
    reason codes are those of :data:`REASONS`.

    >>> s = deal(list(PACK), dealer=1)
    >>> why_illegal(s, 1, Action.parse("AS")), why_illegal(s, 0, Action.parse("7C"))
    ('not_your_turn', 'card_not_in_hand')
    """
    action_code = action.code if type(action) is Action else -1
    if state.to_act is None:
        return "deal_over"
    if action_code < 0:
        return "unknown_action"
    if state.to_act != seat:
        return "not_your_turn"
    if action_code == _SWAP_CODE:
        return None if swap_allowed(state, seat) else "swap_not_allowed"
    if action_code == _CONTINUE_CODE:
        return None if state.prompt else "no_prompt"
    card = action_code >> 3
    kind = action_code & 7
    refusal = card_refusal(state, seat, card)
    if refusal is not None or kind == PLAIN:
        return refusal
    declaration = _declaration(state, seat, card, kind)
    return declaration if isinstance(declaration, str) else None


# --- apply ------------------------------------------------------------------------------------


def apply(state: State, action: Action) -> State:
    """The state after ``state.to_act`` takes ``action`` (rules §4–§9).

    Raises :class:`veillee.games.IllegalAction` with the reason code of :func:`why_illegal` when
    the action is not legal; ``state`` itself never changes (it is immutable).
    """
    # (``+ ()`` makes a plain tuple, which unpacks faster than the State)
    hand_0, hand_1, trick, seat, prompt, k, leader, trump, talon, tricks, _, record = state + ()  # noqa: RUF005
    try:
        card, kind, bit = action.play_facts  # type: ignore[misc]
    except (AttributeError, TypeError):  # not a play: a swap, "continue" or no Chouine action
        return _apply_other(state, action)
    if prompt or seat is None:
        return _apply_other(state, action)
    # (the card leaves the hand before it is known to be there: a refusal drops the result)
    if seat:
        hand = hand_1
        hand_1 ^= bit
    else:
        hand = hand_0
        hand_0 ^= bit
    if not hand & bit:
        raise IllegalAction("card_not_in_hand")
    if trick and k > 11 and not legal_cards(hand, trick[0], trump, True) & bit:
        raise IllegalAction(follow_refusal(hand, trick[0], trump, card))
    if kind:
        made = record[2]  # the declarations before this play
        record = _declared(state, seat, card, kind)
        # §9: a chouine led ends the partie, unless the other seat holds the trump chouine and
        # may still declare it: then it is asked to play. A chouine that follows wins, and so
        # does the leader's (the last declaration while the partie runs) when the follower
        # does not answer it with the trump chouine.
        if trick:
            if kind == CHOUINE or (made and made[-1][1] == CHOUINE):
                return _chouine_won(
                    state, hand_0, hand_1, card, seat if kind == CHOUINE else leader, record
                )
        elif kind == CHOUINE and not chouine_answerable(
            card >> 3, hand_0 if seat else hand_1, record[3][1 - seat], trump
        ):
            return _chouine_won(state, hand_0, hand_1, card, seat, record)
    elif trick and record[2] and record[2][-1][1] == CHOUINE:
        return _chouine_won(state, hand_0, hand_1, card, leader, record)
    if not trick:  # the lead
        to_act = 1 - seat
        trick = _LED[card]
    else:
        lead = trick[0]
        # The trick is complete (§4.1): the winner takes it and leads the next one.
        to_act = seat if BEATEN_BY[trump][lead] & bit else leader
        trick = ()
        if k < 12:
            # Tricks 1–11 (§4.2): the winner draws the top card, the loser the next one (at
            # trick 11 the turn-up).
            top = talon[0]
            if k < 11:
                under = talon[1]
                talon = talon[2:]
            else:
                dealer, under, made, declared, quintes, taken, chouine = record
                record = (
                    dealer, -1, made, declared, quintes, (*taken, (1 - to_act, under, DRAW)),
                    chouine,
                )  # fmt: skip
                talon = ()
            if to_act:
                hand_0 |= _BIT[under]
                hand_1 |= _BIT[top]
            else:
                hand_0 |= _BIT[top]
                hand_1 |= _BIT[under]
            # t + (x,) copies a tuple more cheaply than (*t, x), here and below
            tricks = tricks + ((leader, lead, card, to_act, top, under),)  # noqa: RUF005
            leader = to_act
            if k == 10:
                # §6: the last chance to swap; the loser of trick 10 is asked first, unless
                # the seven is already the turn-up or played (it is played when it is in no
                # hand and not the talon's last card: the trick is empty).
                seven = _SEVENS[trump]
                if (hand_0 | hand_1) & seven or _BIT[talon[0]] == seven:
                    to_act = 1 - leader
                    return _state(
                        State,
                        (
                            hand_0, hand_1, (), to_act, True, 11, leader, trump, talon, tricks,
                            _actions(
                                hand_1 if to_act else hand_0, trump, 11, (), True, record, to_act
                            ),
                            record,
                        ),
                    )  # fmt: skip
        else:
            tricks = tricks + ((leader, lead, card, to_act),)  # noqa: RUF005
            leader = to_act
            if k == 16:
                return _state(
                    State,
                    (hand_0, hand_1, (), None, False, 16, leader, trump, talon, tricks, (), record),
                )  # fmt: skip
        k += 1
    # What the seat to act may do next: read as in :func:`_actions` (its most common case,
    # written out here to save a call).
    hand = hand_1 if to_act else hand_0
    first, last, low_facts = _LOW_ROWS[trump][hand & 0xFFFF] or _low_rows(trump, hand & 0xFFFF)
    middle, high_facts = _HIGH_ROWS[trump][hand >> 16] or _high_row(trump, hand >> 16)
    if _PLAIN_FACTS[low_facts + high_facts] and not (trick and k > 11):
        actions = first + middle + last
    else:
        actions = _other_actions(
            hand, trump, k, trick, record, to_act, low_facts + high_facts, first + middle + last
        )
    return _state(
        State,
        (hand_0, hand_1, trick, to_act, False, k, leader, trump, talon, tricks, actions, record),
    )


def _chouine_won(
    state: State, hand_0: int, hand_1: int, card: int, winner: int, record: _Record
) -> State:
    """The end of a partie a chouine won (rules §9): ``card`` has just been played, from
    ``state``, leaving the hands ``hand_0`` and ``hand_1``; ``record`` has its declaration."""
    return _state(
        State,
        (
            hand_0, hand_1, (*state[2], card), None, False, state[5], state[6], state[7],
            state[8], state[9], (), (*record[:6], winner),
        ),
    )  # fmt: skip


def _declared(state: State, seat: int, card: int, kind: int) -> _Record:
    """``state.record`` after ``seat`` declares ``kind`` with ``card``, a card it may play;
    raises :class:`veillee.games.IllegalAction` when it may not (rules §5.2). The points are
    credited at once; one declaration per suit, one quinte."""
    declaration = _declaration(state, seat, card, kind)
    if isinstance(declaration, str):
        raise IllegalAction(declaration)
    dealer, turn_up, made, declared_suits, quinte_declared, taken, chouine = state[11]
    suit = -1 if kind == QUINTE else card >> 3
    made = (*made, (seat, kind, suit, *declaration, state[5], card))
    if kind == QUINTE:
        quinte_declared = (True, quinte_declared[1]) if seat == 0 else (quinte_declared[0], True)
    else:
        mask = declared_suits[seat] | 1 << suit
        declared_suits = (mask, declared_suits[1]) if seat == 0 else (declared_suits[0], mask)
    return (dealer, turn_up, made, declared_suits, quinte_declared, taken, chouine)


def _apply_other(state: State, action: Action) -> State:
    """:func:`apply` of a swap, of the answer to the prompt, or of a refused action."""
    seat = state.to_act
    reason = why_illegal(state, -1 if seat is None else seat, action)
    if reason is not None:
        raise IllegalAction(reason)
    assert seat is not None
    hand_0, hand_1, trick, _, prompt, k, leader, trump, talon, tricks, _, record = state + ()  # noqa: RUF005
    if action.code == _SWAP_CODE:
        # §6: the seven of trumps for the turn-up; at the prompt the swap also answers it.
        dealer, turn_up, made, declared, quintes, taken, chouine = record
        swapped = 1 << (8 * trump + SEVEN) | 1 << turn_up
        if seat:
            hand_1 ^= swapped
        else:
            hand_0 ^= swapped
        record = (
            dealer, 8 * trump + SEVEN, made, declared, quintes, (*taken, (seat, turn_up, SWAP)),
            chouine,
        )  # fmt: skip
    # After the prompt (answered by a swap or "continue") the leader of trick 11 acts.
    to_act = leader if prompt else seat
    return _state(
        State,
        (
            hand_0, hand_1, trick, to_act, False, k, leader, trump, talon, tricks,
            _actions(hand_1 if to_act else hand_0, trump, k, trick, False, record, to_act),
            record,
        ),
    )  # fmt: skip


def declaration_totals(state: State) -> tuple[int, int]:
    """Points of each seat's declarations so far (credited at once, rules §5.2)."""
    pts = [0, 0]
    for d in state.declarations:
        pts[d[0]] += d[3]
    return (pts[0], pts[1])


def outcome(state: State) -> dict[str, object] | None:
    """The result of a finished partie (rules §7, §9), ``None`` while it runs.

    Keys: ``winner`` (seat, or ``None`` for a tied, void partie), ``totals`` ([seat 0, seat 1]),
    ``card_points`` ([…]), ``declarations`` (per seat ``[{"kind", "suit", "points"}, …]``,
    ``suit`` ``None`` for a quinte), ``dix_de_der`` (seat or ``None``), ``chouine`` (seat whose
    chouine ended the partie, or ``None``). After a chouine there is no count: ``totals``,
    ``card_points`` and ``dix_de_der`` are ``None``.
    """
    if state.to_act is not None:
        return None
    declarations: list[list[dict[str, object]]] = [[], []]
    for seat, kind, suit, points, _, _, _ in state.declarations:
        declarations[seat].append(
            {
                "kind": KINDS[kind],
                "suit": SUIT_LETTERS[suit] if suit >= 0 else None,
                "points": points,
            }
        )
    if state.chouine is not None:
        return {
            "winner": state.chouine,
            "totals": None,
            "card_points": None,
            "declarations": declarations,
            "dix_de_der": None,
            "chouine": state.chouine,
        }
    card_points = [sum(POINTS[c] for c in cards_in(p)) for p in state.piles]
    dix = state.tricks[-1][3]
    decl = declaration_totals(state)
    totals = [card_points[i] + decl[i] + (DIX_DE_DER if dix == i else 0) for i in (0, 1)]
    winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
    return {
        "winner": winner,
        "totals": totals,
        "card_points": card_points,
        "declarations": declarations,
        "dix_de_der": dix,
        "chouine": None,
    }


def to_json(state: State) -> dict[str, object]:
    """The state as plain JSON types (card codes, lists, ints); :func:`from_json` inverts it."""
    dealer, turn_up, declarations, declared_suits, quinte_declared, taken, chouine = state[11]
    # the piles, the tricks and the draws in one pass over what the state stores
    piles = [0, 0]
    drawn: tuple[list[str], list[str]] = ([], [])
    tricks = []
    for t in state.tricks_and_draws:
        leader, lead, follow, winner = t[:4]
        piles[winner] |= _BIT[lead] | _BIT[follow]
        tricks.append(
            {"leader": leader, "cards": [CARD_CODES[lead], CARD_CODES[follow]], "winner": winner}
        )
        if len(t) > 4:
            drawn[winner].append(CARD_CODES[t[4]])
            drawn[1 - winner].append(CARD_CODES[t[5]])
    return {
        "dealer": dealer,
        "trump": SUIT_LETTERS[state.trump],
        "hands": [code_list(state.hand_0), code_list(state.hand_1)],
        "talon": [CARD_CODES[c] for c in state.talon],
        "turn_up": CARD_CODES[turn_up] if turn_up >= 0 else None,
        "trick_number": state.trick_number,
        "leader": state.leader,
        "trick": [CARD_CODES[c] for c in state.trick],
        "to_act": state.to_act,
        "prompt": state.prompt,
        "piles": [code_list(piles[0]), code_list(piles[1])],
        "tricks": tricks,
        "declarations": [
            {
                "seat": d[0],
                "kind": KINDS[d[1]],
                "suit": SUIT_LETTERS[d[2]] if d[2] >= 0 else None,
                "points": d[3],
                "cards": code_list(d[4]),
                "trick": d[5],
                "card": CARD_CODES[d[6]],
            }
            for d in declarations
        ],
        "declared_suits": [
            [SUIT_LETTERS[s] for s in range(4) if m >> s & 1] for m in declared_suits
        ],
        "quinte_declared": list(quinte_declared),
        "taken_turn_ups": [
            {"seat": t[0], "card": CARD_CODES[t[1]], "how": HOW[t[2]]} for t in taken
        ],
        "drawn": [drawn[0], drawn[1]],
        "chouine": chouine,
    }


def from_json(d: dict[str, object]) -> State:
    """The state written by :func:`to_json`. Raises ``KeyError``/``ValueError`` on bad input."""

    def cl(x: object) -> list[str]:
        if not isinstance(x, list):
            raise ValueError("expected a list")
        return [str(c) for c in x]

    def seq(x: object) -> list[dict[str, object]]:
        if not isinstance(x, list):
            raise ValueError("expected a list")
        return x

    def pair(x: object) -> list[object]:
        if not isinstance(x, list) or len(x) != 2:
            raise ValueError("expected a pair")
        return x

    def num(x: object) -> int:
        if not isinstance(x, int):
            raise ValueError("expected an int")
        return x

    def suit_mask(x: object) -> int:
        return sum(1 << SUIT_LETTERS.index(s) for s in cl(x))

    hands = [mask_of(cl(h)) for h in pair(d["hands"])]
    piles = [mask_of(cl(p)) for p in pair(d["piles"])]
    ds = [suit_mask(x) for x in pair(d["declared_suits"])]
    qd = [bool(x) for x in pair(d["quinte_declared"])]
    drawn = [tuple(CARD_INDEX[c] for c in cl(x)) for x in pair(d["drawn"])]
    turn_up = d["turn_up"]
    to_act = d["to_act"]
    chouine = d["chouine"]
    state = State(
        dealer=num(d["dealer"]),
        trump=SUIT_LETTERS.index(str(d["trump"])),
        hands=(hands[0], hands[1]),
        talon=tuple(CARD_INDEX[c] for c in cl(d["talon"])),
        turn_up=CARD_INDEX[str(turn_up)] if turn_up is not None else -1,
        trick_number=num(d["trick_number"]),
        leader=num(d["leader"]),
        trick=tuple(CARD_INDEX[c] for c in cl(d["trick"])),
        to_act=None if to_act is None else num(to_act),
        prompt=bool(d["prompt"]),
        piles=(piles[0], piles[1]),
        tricks=tuple(
            (
                num(t["leader"]),
                CARD_INDEX[cl(t["cards"])[0]],
                CARD_INDEX[cl(t["cards"])[1]],
                num(t["winner"]),
            )
            for t in seq(d["tricks"])
        ),
        declarations=tuple(
            (
                num(x["seat"]),
                KIND_INDEX[str(x["kind"])],
                -1 if x["suit"] is None else SUIT_LETTERS.index(str(x["suit"])),
                num(x["points"]),
                mask_of(cl(x["cards"])),
                num(x["trick"]),
                CARD_INDEX[str(x["card"])],
            )
            for x in seq(d["declarations"])
        ),
        declared_suits=(ds[0], ds[1]),
        quinte_declared=(qd[0], qd[1]),
        taken_turn_ups=tuple(
            (num(t["seat"]), CARD_INDEX[str(t["card"])], HOW.index(str(t["how"])))
            for t in seq(d["taken_turn_ups"])
        ),
        drawn=(drawn[0], drawn[1]),
        chouine=None if chouine is None else num(chouine),
    )
    return state
