"""Chouine rules: the partie state, the actions, legality, ``apply`` and the count.

Implements rules/chouine.md §1–§9 for one partie (one deal). The state is an immutable
:class:`State` (a ``NamedTuple`` of ints and tuples) in a compact form chosen for speed:

- a card is an int 0–31: ``suit * 8 + rank``, suits ``S H D C`` = 0–3, ranks by trick strength
  ``7 8 9 J Q K T A`` = 0–7, so within a suit a larger int is a stronger card;
- a hand, a pile or any set of cards is an int bitmask (bit ``card`` set), and the eight cards
  of suit ``s`` are the byte ``(mask >> 8 * s) & 0xFF``.

Everything outside the engine sees card codes (``"JH"``) through :func:`code` /
:func:`card_of`, the views and the JSON form.

>>> s = deal(list(PACK), dealer=1)
>>> s.to_act, code_list(s.hands[0]), TRUMP_LETTER[s.trump]
(0, ['7S', '9S', 'QS', 'TS', '7H'], 'H')
>>> [str(a) for a in legal_actions(s)][:3]
['TS', 'QS', '9S']
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from veillee import cards
from veillee.games import IllegalAction

SUIT_LETTERS = "SHDC"
"""Suit letter of suit index 0–3 (the order of :data:`veillee.cards.SUITS`)."""
TRUMP_LETTER = SUIT_LETTERS
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
BRISQUES = 0xC0C0C0C0
"""Mask of the eight brisques (aces and tens)."""
SEVEN = 0
"""Rank index of the seven: the seven of trumps is card ``trump * 8``."""

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


def code(card: int) -> str:
    """Card code (``"JH"``) of a card int."""
    return CARD_CODES[card]


def card_of(text: str) -> int:
    """Card int of a card code; raises ``KeyError`` for anything else."""
    return CARD_INDEX[text]


def mask_of(codes: Iterable[str]) -> int:
    """Bitmask of some card codes."""
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
    return [CARD_CODES[c] for c in cards_in(mask)]


_SUIT_CARDS_DESC: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * s + r for r in range(7, -1, -1) if byte >> r & 1) for byte in range(256))
    for s in range(4)
)
"""``_SUIT_CARDS_DESC[suit][byte]``: the cards of a suit byte, strongest first."""
_DISPLAY_SUITS: tuple[tuple[int, ...], ...] = tuple(
    tuple([x for x in range(4) if x != t] + [t]) for t in range(4)
)


def display_order(mask: int, trump: int) -> list[int]:
    """Cards of a mask in hand display order: by suit (S H D C, trump last), strongest first."""
    out: list[int] = []
    for s in _DISPLAY_SUITS[trump]:
        out.extend(_SUIT_CARDS_DESC[s][(mask >> (8 * s)) & 0xFF])
    return out


def beats(lead: int, follow: int, trump: int) -> bool:
    """True when ``follow`` wins the trick against ``lead`` (rules §4.1)."""
    if follow >> 3 == lead >> 3:
        return follow > lead
    return follow >> 3 == trump


def legal_cards(hand: int, lead: int, trump: int, phase2: bool) -> int:
    """Mask of the cards of ``hand`` that may be played (rules §4.2, §4.3).

    ``lead`` is the card led in the open trick, or -1 when ``hand`` is the leader's.
    """
    if lead < 0 or not phase2:
        return hand
    s = lead >> 3
    same = (hand >> (8 * s)) & 0xFF
    if same:
        if s == trump:
            higher = same & ~((2 << (lead & 7)) - 1)
            return (higher or same) << (8 * s)
        return same << (8 * s)
    trumps = (hand >> (8 * trump)) & 0xFF
    if trumps:
        return trumps << (8 * trump)
    return hand


def follow_refusal(hand: int, lead: int, trump: int, card: int) -> str:
    """Reason code why ``card`` of ``hand`` may not follow ``lead`` in phase 2 (rules §4.3);
    only meaningful for a card outside :func:`legal_cards`."""
    s = lead >> 3
    if (hand >> (8 * s)) & 0xFF:
        return "must_follow_suit" if card >> 3 != s else "must_beat_trump"
    return "must_trump"


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
    bit = 1 << (card & 7)
    if not (declared_suits >> s) & 1:
        byte = (hand >> (8 * s)) & 0xFF
        if byte & 0x30 == 0x30:
            if bit & CHOUINE_BYTE and hand == CHOUINE_BYTE << (8 * s):
                out.append((CHOUINE, 0, hand))
            double = 2 if s == trump else 1
            for kind, need, points in SUIT_COMBINATIONS:
                if byte & need == need and bit & need:
                    out.append((kind, points * double, need << (8 * s)))
    if not quinte_declared and bit & 0xC0 and (hand & BRISQUES).bit_count() == 5:
        quinte = (QUINTE, QUINTE_POINTS, hand & BRISQUES)
        i = 1 if out and out[0][0] == CHOUINE else 0
        while i < len(out) and out[i][1] > QUINTE_POINTS:
            i += 1
        out.insert(i, quinte)
    return out


def can_declare_trump_chouine(hand: int, declared_suits: int, trump: int) -> bool:
    """True when a hand is the trump chouine and the seat may still declare in trumps (§9)."""
    return hand == CHOUINE_BYTE << (8 * trump) and not (declared_suits >> trump) & 1


@dataclass(frozen=True, slots=True)
class Action:
    """One decision of a seat, with its text notation (docs/notation.md).

    ``verb`` is ``"play"`` (``card`` a card code, ``declaration`` a kind name or ``None``),
    ``"swap"`` (the seven swap, §6) or ``"continue"`` (carry on at the seven prompt).

    >>> str(Action.parse("jh Tierce")), Action.parse("swap") == SWAP_ACTION
    ('JH tierce', True)
    """

    verb: str
    card: str | None = None
    declaration: str | None = None

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


class State(NamedTuple):
    """One partie, immutable and JSON-serializable (:func:`to_json`).

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
    - ``chouine``: the seat whose chouine won the partie, else ``None``.
    """

    dealer: int
    trump: int
    hands: tuple[int, int]
    talon: tuple[int, ...]
    turn_up: int
    trick_number: int
    leader: int
    trick: tuple[int, ...]
    to_act: int | None
    prompt: bool
    piles: tuple[int, int]
    tricks: tuple[tuple[int, int, int, int], ...]
    declarations: tuple[tuple[int, int, int, int, int, int, int], ...]
    declared_suits: tuple[int, int]
    quinte_declared: tuple[bool, bool]
    taken_turn_ups: tuple[tuple[int, int, int], ...]
    drawn: tuple[tuple[int, ...], tuple[int, ...]]
    chouine: int | None


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
    ints = [CARD_INDEX[c] for c in deck]
    hands = [0, 0]
    for i in range(10):
        seat = 1 - dealer if i % 2 == 0 else dealer
        hands[seat] |= 1 << ints[i]
    non_dealer = 1 - dealer
    return State(
        dealer=dealer,
        trump=ints[10] >> 3,
        hands=(hands[0], hands[1]),
        talon=tuple(ints[11:]),
        turn_up=ints[10],
        trick_number=1,
        leader=non_dealer,
        trick=(),
        to_act=non_dealer,
        prompt=False,
        piles=(0, 0),
        tricks=(),
        declarations=(),
        declared_suits=(0, 0),
        quinte_declared=(False, False),
        taken_turn_ups=(),
        drawn=((), ()),
        chouine=None,
    )


def deal_random(rng: random.Random, *, dealer: int) -> State:
    """A partie dealt from a deck shuffled with ``rng`` only (rules §3.1)."""
    return deal(cards.shuffled(PACK, rng), dealer=dealer)


def phase(state: State) -> int:
    """1 while the talon lasts (tricks 1–11), 2 for tricks 12–16 (rules §12)."""
    return 1 if state.trick_number <= 11 else 2


def swap_allowed(state: State, seat: int) -> bool:
    """True when ``seat`` is to act and may make the seven swap now (rules §6, §6.1)."""
    if state.to_act != seat or state.turn_up < 0:
        return False
    if not state.hands[seat] >> (8 * state.trump + SEVEN) & 1:
        return False
    # The swap is over once the lead card of trick 11 is on the table.
    return not (state.trick_number == 11 and state.trick)


def _lead(state: State) -> int:
    return state.trick[0] if state.trick else -1


def legal_play_mask(state: State) -> int:
    """Mask of the cards ``state.to_act`` may play now (0 at the prompt or when over)."""
    seat = state.to_act
    if seat is None or state.prompt:
        return 0
    return legal_cards(state.hands[seat], _lead(state), state.trump, state.trick_number > 11)


_OPEN_SUIT_QUEENS: tuple[int, ...] = tuple(
    sum(0x10 << (8 * s) for s in range(4) if not ds >> s & 1) for ds in range(16)
)
"""By declared-suits mask: the queen bits of the suits still open. ``hand & hand >> 1`` has a
queen's bit set exactly when the king of its suit is held too."""


def legal_actions(state: State) -> list[Action]:
    """The actions ``state.to_act`` may take, in a stable order (rules §4–§6, §9).

    For each legal card in hand display order (by suit, trump last, strongest first): the plain
    play, then one action per declaration it can carry (chouine first, then by points); then
    ``swap`` when allowed. At the seven prompt: ``continue`` then, if allowed, ``swap``.
    ``[]`` when the partie is over.
    """
    seat = state.to_act
    if seat is None:
        return []
    out: list[Action] = []
    if state.prompt:
        out.append(CONTINUE_ACTION)
    else:
        hand = state.hands[seat]
        legal = legal_play_mask(state)
        ds = state.declared_suits[seat]
        qd = state.quinte_declared[seat]
        # Cheap test first: a declaration needs a K and Q of an undeclared suit, or a quinte.
        maybe = bool(hand & (hand >> 1) & _OPEN_SUIT_QUEENS[ds]) or (
            not qd and (hand & BRISQUES).bit_count() == 5
        )
        for c in display_order(legal, state.trump):
            row = PLAY_ACTIONS[c]
            out.append(row[PLAIN])
            if maybe:
                for kind, _, _ in declaration_options(hand, c, ds, qd, state.trump):
                    out.append(row[kind])
    if swap_allowed(state, seat):
        out.append(SWAP_ACTION)
    return out


def _decode(action: Action) -> tuple[int, int, int] | None:
    """(verb 0 play / 1 swap / 2 continue, card, kind) or None for a malformed action."""
    if not isinstance(action, Action):
        return None
    if action.verb == "swap" and action.card is None and action.declaration is None:
        return (1, -1, 0)
    if action.verb == "continue" and action.card is None and action.declaration is None:
        return (2, -1, 0)
    if action.verb != "play" or action.card not in CARD_INDEX:
        return None
    if action.declaration is None:
        return (0, CARD_INDEX[action.card], PLAIN)
    kind = KIND_INDEX.get(action.declaration)
    if kind is None:
        return None
    return (0, CARD_INDEX[action.card], kind)


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
    lead = _lead(state)
    if not legal_cards(hand, lead, state.trump, state.trick_number > 11) >> card & 1:
        return follow_refusal(hand, lead, state.trump, card)
    return None


def _declaration_refusal(state: State, seat: int, card: int, kind: int) -> str | None:
    rank = card & 7
    if kind == QUINTE:
        if rank < 6:
            return "declaration_needs_played_card"
        if state.quinte_declared[seat]:
            return "quinte_already_declared"
    else:
        need = (
            CHOUINE_BYTE if kind == CHOUINE else dict((k, b) for k, b, _ in SUIT_COMBINATIONS)[kind]
        )
        if not (need >> rank) & 1:
            return "declaration_needs_played_card"
        if (state.declared_suits[seat] >> (card >> 3)) & 1:
            return "suit_already_declared"
    options = declaration_options(
        state.hands[seat],
        card,
        state.declared_suits[seat],
        state.quinte_declared[seat],
        state.trump,
    )
    if all(k != kind for k, _, _ in options):
        return "declaration_not_held"
    return None


def why_illegal(state: State, seat: int, action: Action) -> str | None:
    """Say why ``seat`` may not take ``action`` now, or ``None`` if it may.

    Implements rules §4.2–4.3 (follow duties), §5.2 (declarations), §6 (swap and prompt). The
    reason codes are those of :data:`REASONS`.

    >>> s = deal(list(PACK), dealer=1)
    >>> why_illegal(s, 1, Action.parse("AS")), why_illegal(s, 0, Action.parse("7C"))
    ('not_your_turn', 'card_not_in_hand')
    """
    decoded = _decode(action)
    if state.to_act is None:
        return "deal_over"
    if decoded is None:
        return "unknown_action"
    if state.to_act != seat:
        return "not_your_turn"
    verb, card, kind = decoded
    if verb == 1:
        return None if swap_allowed(state, seat) else "swap_not_allowed"
    if verb == 2:
        return None if state.prompt else "no_prompt"
    refusal = card_refusal(state, seat, card)
    if refusal is not None or kind == PLAIN:
        return refusal
    return _declaration_refusal(state, seat, card, kind)


def apply(state: State, action: Action) -> State:
    """The state after ``state.to_act`` takes ``action`` (rules §4–§9).

    Raises :class:`veillee.games.IllegalAction` with the reason code of :func:`why_illegal` when
    the action is not legal; ``state`` itself never changes (it is immutable).
    """
    seat = state.to_act
    reason = why_illegal(state, -1 if seat is None else seat, action)
    if reason is not None:
        raise IllegalAction(reason)
    assert seat is not None
    verb, card, kind = _decode(action) or (0, -1, 0)
    if verb == 1:
        return _swap(state, seat)
    if verb == 2:
        return state._replace(prompt=False, to_act=state.leader)
    return _play(state, seat, card, kind)


def _swap(state: State, seat: int) -> State:
    seven = 8 * state.trump + SEVEN
    hands = list(state.hands)
    hands[seat] = hands[seat] & ~(1 << seven) | 1 << state.turn_up
    return state._replace(
        hands=(hands[0], hands[1]),
        turn_up=seven,
        taken_turn_ups=(*state.taken_turn_ups, (seat, state.turn_up, SWAP)),
        # A swap at the prompt answers it: the leader of trick 11 acts next.
        prompt=False,
        to_act=state.leader if state.prompt else seat,
    )


def _play(state: State, seat: int, card: int, kind: int) -> State:
    hands = list(state.hands)
    hand = hands[seat]
    hands[seat] = hand & ~(1 << card)
    declarations = state.declarations
    declared_suits = state.declared_suits
    quinte_declared = state.quinte_declared
    if kind != PLAIN:
        _, points, combo = next(
            o
            for o in declaration_options(
                hand, card, declared_suits[seat], quinte_declared[seat], state.trump
            )
            if o[0] == kind
        )
        suit = -1 if kind == QUINTE else card >> 3
        declarations = (
            *declarations,
            (seat, kind, suit, points, combo, state.trick_number, card),
        )
        if kind == QUINTE:
            q = list(quinte_declared)
            q[seat] = True
            quinte_declared = (q[0], q[1])
        else:
            d = list(declared_suits)
            d[seat] |= 1 << suit
            declared_suits = (d[0], d[1])
    after = state._replace(
        hands=(hands[0], hands[1]),
        trick=(*state.trick, card),
        declarations=declarations,
        declared_suits=declared_suits,
        quinte_declared=quinte_declared,
    )
    other = 1 - seat
    if not state.trick:  # the lead
        if kind == CHOUINE:
            if card >> 3 != state.trump and can_declare_trump_chouine(
                state.hands[other], declared_suits[other], state.trump
            ):
                # §9: only the trump chouine can beat it; its holder is asked to play.
                return after._replace(to_act=other)
            return after._replace(to_act=None, chouine=seat)
        return after._replace(to_act=other)
    if kind == CHOUINE:
        return after._replace(to_act=None, chouine=seat)
    if _lead_declaration(state) == CHOUINE:
        return after._replace(to_act=None, chouine=state.leader)
    return _complete_trick(after)


def _lead_declaration(state: State) -> int:
    """Kind declared with the lead card of the open trick (PLAIN if none)."""
    for d in reversed(state.declarations):
        if d[5] != state.trick_number:
            break
        if d[0] == state.leader:
            return d[1]
    return PLAIN


def _complete_trick(state: State) -> State:
    """Resolve the full open trick, then draw (tricks 1–11) and prompt (after trick 10)."""
    lead, follow = state.trick
    leader = state.leader
    winner = 1 - leader if beats(lead, follow, state.trump) else leader
    loser = 1 - winner
    piles = list(state.piles)
    piles[winner] |= 1 << lead | 1 << follow
    tricks = (*state.tricks, (leader, lead, follow, winner))
    k = state.trick_number
    if k == 16:
        return state._replace(
            trick=(), piles=(piles[0], piles[1]), tricks=tricks, to_act=None, leader=winner
        )
    hands = list(state.hands)
    drawn = [state.drawn[0], state.drawn[1]]
    talon = state.talon
    turn_up = state.turn_up
    taken = state.taken_turn_ups
    if k <= 11:
        first = talon[0]
        second = talon[1] if k < 11 else turn_up
        hands[winner] |= 1 << first
        hands[loser] |= 1 << second
        drawn[winner] = (*drawn[winner], first)
        drawn[loser] = (*drawn[loser], second)
        if k < 11:
            talon = talon[2:]
        else:
            talon = ()
            turn_up = -1
            taken = (*taken, (loser, second, DRAW))
    to_act = winner
    prompt = False
    if k == 10:
        seven = 8 * state.trump + SEVEN
        if turn_up != seven and not ((piles[0] | piles[1]) >> seven) & 1:
            prompt = True
            to_act = loser
    return state._replace(
        hands=(hands[0], hands[1]),
        talon=talon,
        turn_up=turn_up,
        trick_number=k + 1,
        leader=winner,
        trick=(),
        to_act=to_act,
        prompt=prompt,
        piles=(piles[0], piles[1]),
        tricks=tricks,
        taken_turn_ups=taken,
        drawn=(drawn[0], drawn[1]),
    )


def declaration_points(state: State) -> tuple[int, int]:
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
    decl = declaration_points(state)
    totals = [card_points[i] + decl[i] + (10 if dix == i else 0) for i in (0, 1)]
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
    return {
        "dealer": state.dealer,
        "trump": SUIT_LETTERS[state.trump],
        "hands": [code_list(h) for h in state.hands],
        "talon": [CARD_CODES[c] for c in state.talon],
        "turn_up": CARD_CODES[state.turn_up] if state.turn_up >= 0 else None,
        "trick_number": state.trick_number,
        "leader": state.leader,
        "trick": [CARD_CODES[c] for c in state.trick],
        "to_act": state.to_act,
        "prompt": state.prompt,
        "piles": [code_list(p) for p in state.piles],
        "tricks": [
            {"leader": t[0], "cards": [CARD_CODES[t[1]], CARD_CODES[t[2]]], "winner": t[3]}
            for t in state.tricks
        ],
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
            for d in state.declarations
        ],
        "declared_suits": [
            [SUIT_LETTERS[s] for s in range(4) if m >> s & 1] for m in state.declared_suits
        ],
        "quinte_declared": list(state.quinte_declared),
        "taken_turn_ups": [
            {"seat": t[0], "card": CARD_CODES[t[1]], "how": HOW[t[2]]} for t in state.taken_turn_ups
        ],
        "drawn": [[CARD_CODES[c] for c in d] for d in state.drawn],
        "chouine": state.chouine,
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
    return State(
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
