"""Charlemagne (Canadian form): state, actions, legality, apply, outcome.

Implements ``shared/rules/charlemagne.md`` §1–§11 and §13 under the engine contract of DESIGN.md §2.
Seats are ``0..3`` = N, E, S, W clockwise; team 0 = NS (seats 0 and 2), team 1 = EW (1 and 3).

A hand runs through the phases ``auction`` → (``choose`` for Gros Charlemagne) → (``give`` for
the partner's blind card) → (``discard``) → (``trump``) → ``play`` → ``over``. Steps without a
choice (taking the kitty, the sitting-out partner throwing its hand away) happen inside the action
before them (§13.1).

>>> s = deal(list(PIQUET_JOKERS_34), dealer=0)
>>> s.to_act, s.phase
(1, 'auction')
>>> [str(a) for a in legal_actions(s)][:3]
['pass', '5', '6']

Why one module of this length: the whole engine of the rules file, section by section
(shared/rules/charlemagne.md); its functions call each other throughout.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from veillee.cards import (
    JOKERS,
    PIQUET_JOKERS_34,
    SUITS,
    check_deck,
    is_joker,
    rank,
    same_colour,
    shuffled,
    suit,
)
from veillee.games import IllegalAction

SEATS = 4
SEAT_NAMES: tuple[str, ...] = ("N", "E", "S", "W")

LADDER: tuple[str, ...] = (
    "5",
    "6",
    "7",
    "8",
    "mulot",
    "charlemagne",
    "gros-mulot",
    "gros-charlemagne",
)
"""The bids, lowest to highest (§4)."""

NUMBER_BIDS: frozenset[str] = frozenset(LADDER[:4])
SOLO_BIDS: frozenset[str] = frozenset(LADDER[4:])
TRUMPLESS: frozenset[str] = frozenset({"mulot", "gros-mulot"})
"""Contracts without a trump suit: only the jokers are trumps (§6.2)."""

POINTS: dict[str, tuple[int, int]] = {
    "5": (5, 5),
    "6": (6, 6),
    "7": (7, 7),
    "8": (8, 8),
    "mulot": (15, 7),
    "charlemagne": (16, 8),
    "gros-mulot": (30, 15),
    "gros-charlemagne": (32, 16),
}
"""Contract -> (points to the bidding team if made, points to the opponents if failed) (§11)."""

JOKER_SUIT = "JOKER"
"""The effective suit of both jokers in Mulot and Gros Mulot (§6.2)."""

PHASES: tuple[str, ...] = ("auction", "choose", "give", "discard", "trump", "play", "over")

REASONS: dict[str, str] = {
    "deal_over": "the hand is over; nobody acts any more",
    "not_your_turn": "another seat is to act",
    "wrong_phase": "that kind of action is not asked for at this step of the hand",
    "unknown_action": "not a Charlemagne action (a value or cards its kind does not carry)",
    "dealer_must_bid": "the dealer must bid when all others passed",
    "bid_too_low": "a bid must be higher than the highest bid so far",
    "no_such_bid": "bids are 5, 6, 7, 8, mulot, charlemagne, gros-mulot, gros-charlemagne",
    "not_in_hand": "that card is not in the hand",
    "wrong_discard_count": "the discard must hold exactly as many cards as asked",
    "repeated_card": "the same card is named twice",
    "no_such_suit": "trump must be one of S, H, D, C",
    "must_follow_suit": "a card of the suit led must be played",
    "must_play_other_joker": "a joker was led: the other joker must be played",
    "must_play_joker": "void in the suit led: a joker must be played",
    "match_over": "the match is over",
    "deal_not_over": "the hand is still being played",
}
"""Every reason code this engine and its match give (``veillee.games.contract.MatchReason``),
with a gloss; the web layer translates the codes."""

_CARD_INDEX: dict[str, int] = {c: i for i, c in enumerate(PIQUET_JOKERS_34)}
_PLAIN_ORDER: dict[str, int] = {"A": 7, "K": 6, "Q": 5, "J": 4, "T": 3, "9": 2, "8": 1, "7": 0}


def left(seat: int) -> int:
    """The seat to the left of ``seat`` (clockwise next) (§2)."""
    return (seat + 1) % SEATS


def partner(seat: int) -> int:
    """The seat opposite ``seat`` (§2)."""
    return (seat + 2) % SEATS


def team(seat: int) -> int:
    """0 for N and S, 1 for E and W."""
    return seat % 2


def card_order(cards: Iterable[str]) -> tuple[str, ...]:
    """``cards`` in the canonical pack order (S, H, D, C; A down to 7; then BJ, LJ)."""
    return tuple(sorted(cards, key=_CARD_INDEX.__getitem__))


def effective_suit(card: str, trump: str | None) -> str:
    """The suit ``card`` belongs to for every purpose (§6).

    ``trump`` is the trump suit letter, or ``None`` in Mulot and Gros Mulot. With a trump suit
    the jokers and both jacks of the trump's colour are trumps; without one the jokers form the
    suit ``"JOKER"``.

    >>> effective_suit("JD", "H"), effective_suit("BJ", "S"), effective_suit("JD", None)
    ('H', 'S', 'D')
    >>> effective_suit("LJ", None)
    'JOKER'
    """
    known = _SUIT_OF.get(trump)
    if known is not None and card in known:
        return known[card]
    return _rule_suit(card, trump)


def _rule_suit(card: str, trump: str | None) -> str:
    """:func:`effective_suit` worked out from the card's rank and suit (§6)."""
    if is_joker(card):
        return trump if trump is not None else JOKER_SUIT
    if trump is not None and rank(card) == "J" and suit(card) in (trump, same_colour(trump)):
        return trump
    return suit(card)


def strength(card: str, trump: str | None) -> int:
    """Rank of ``card`` within its effective suit (§6): higher is stronger.

    Only cards of the same effective suit are compared. Trumps run BJ, LJ, jack of trumps,
    jack of the same colour, then A K Q T 9 8 7; plain suits run A K Q J T 9 8 7.

    >>> [c for c in sorted(["AH", "JD", "LJ", "JH", "BJ"], key=lambda c: -strength(c, "H"))]
    ['BJ', 'LJ', 'JH', 'JD', 'AH']
    """
    known = _STRENGTH_OF.get(trump)
    if known is not None and card in known:
        return known[card]
    return _rule_strength(card, trump)


def _rule_strength(card: str, trump: str | None) -> int:
    """:func:`strength` worked out from the card's rank and suit (§6)."""
    if card == "BJ":
        return 20
    if card == "LJ":
        return 19
    if trump is not None and rank(card) == "J":
        if suit(card) == trump:
            return 18
        if suit(card) == same_colour(trump):
            return 17
    return _PLAIN_ORDER[rank(card)]


_SUIT_OF: dict[str | None, dict[str, str]] = {
    t: {c: _rule_suit(c, t) for c in PIQUET_JOKERS_34} for t in (*SUITS, None)
}
"""``_SUIT_OF[trump][card]``: :func:`effective_suit` for every card and trump, computed once
(the computer players call it for every card they weigh)."""
_STRENGTH_OF: dict[str | None, dict[str, int]] = {
    t: {c: _rule_strength(c, t) for c in PIQUET_JOKERS_34} for t in (*SUITS, None)
}
"""``_STRENGTH_OF[trump][card]``: :func:`strength` for every card and trump, computed once."""


@dataclass(frozen=True)
class Action:
    """One decision, with its text notation (docs/notation.md, Charlemagne).

    ``kind`` is one of ``pass``, ``bid``, ``choose``, ``give``, ``discard``, ``trump``, ``play``;
    ``value`` holds the bid, the choice (``kitty`` / ``card``) or the trump suit; ``cards`` the
    card(s) given, discarded or played. Discarded cards are kept sorted (suit letter, then pack
    order), so the order they are written in does not matter.

    >>> str(Action.parse("discard 8D 7C"))
    'discard 7C 8D'
    >>> Action.parse("gros-mulot") == Action.bid("gros-mulot")
    True
    """

    kind: str
    value: str = ""
    cards: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.kind == "discard":
            # one spelling per discard, so that equal discards compare equal whatever the order
            # they were written in; suit letters alphabetically keeps "discard 7C 8D" as written
            ordered = sorted(self.cards, key=lambda c: (suit(c), _CARD_INDEX.get(c, -1)))
            object.__setattr__(self, "cards", tuple(ordered))

    # The constructors below hand out one shared value per action where they can: legal_actions
    # builds every action many times, and equal actions compare equal either way.

    @staticmethod
    def pass_() -> Action:
        return _INTERNED.get(("pass", "", ())) or Action("pass")

    @staticmethod
    def bid(value: str) -> Action:
        return _INTERNED.get(("bid", value, ())) or Action("bid", value=value)

    @staticmethod
    def choose(value: str) -> Action:
        return _INTERNED.get(("choose", value, ())) or Action("choose", value=value)

    @staticmethod
    def give(card: str) -> Action:
        return _INTERNED.get(("give", "", (card,))) or Action("give", cards=(card,))

    @staticmethod
    def discard(cards: Iterable[str]) -> Action:
        key = tuple(cards)
        found = _DISCARDS.get(key)
        if found is None:
            found = Action("discard", cards=key)
            if len(key) <= 3 and all(c in _CARD_INDEX for c in key):
                _DISCARDS[key] = found
        return found

    @staticmethod
    def trump(s: str) -> Action:
        return _INTERNED.get(("trump", s, ())) or Action("trump", value=s)

    @staticmethod
    def play(card: str) -> Action:
        return _INTERNED.get(("play", "", (card,))) or Action("play", cards=(card,))

    @property
    def card(self) -> str:
        """The single card of a ``give`` or ``play`` action."""
        return self.cards[0]

    def __str__(self) -> str:
        if self.kind == "pass":
            return "pass"
        if self.kind in ("bid", "choose"):
            return self.value
        if self.kind == "give":
            return f"give {self.cards[0]}"
        if self.kind == "discard":
            return "discard " + " ".join(self.cards)
        if self.kind == "trump":
            return f"trump {self.value}"
        return self.cards[0]

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the text notation; raises ValueError for anything else.

        >>> [str(Action.parse(t)) for t in ("pass", "8", "kitty", "give AS", "trump H", "BJ")]
        ['pass', '8', 'kitty', 'give AS', 'trump H', 'BJ']
        """
        words = text.split()
        if not words:
            raise ValueError("empty action")
        head = words[0]
        low = head.lower()

        def card_of(word: str) -> str:
            code = word.upper()
            if code not in _CARD_INDEX:
                raise ValueError(f"not a card: {word!r}")
            return code

        if len(words) == 1:
            if low == "pass":
                return cls.pass_()
            if low in LADDER:
                return cls.bid(low)
            if low in ("kitty", "card"):
                return cls.choose(low)
            return cls.play(card_of(head))
        if low == "give" and len(words) == 2:
            return cls.give(card_of(words[1]))
        if low == "trump" and len(words) == 2 and words[1].upper() in SUITS:
            return cls.trump(words[1].upper())
        if low == "discard":
            return cls.discard(card_of(w) for w in words[1:])
        raise ValueError(f"not a Charlemagne action: {text!r}")


_state = tuple.__new__
"""Builds a :class:`State` from its fields in order (the play phase's hot path)."""

_INTERNED: dict[tuple[str, str, tuple[str, ...]], Action] = {
    (a.kind, a.value, a.cards): a
    for a in (
        Action("pass"),
        *(Action("bid", value=b) for b in LADDER),
        *(Action("choose", value=v) for v in ("kitty", "card")),
        *(Action("trump", value=s) for s in SUITS),
        *(Action(kind, cards=(c,)) for kind in ("give", "play") for c in PIQUET_JOKERS_34),
    )
}
"""The one value of each action without a choice of several cards, by (kind, value, cards)."""
_DISCARDS: dict[tuple[str, ...], Action] = {}
"""Discards met so far, by their cards as given (at most 34 choose 3 of them)."""


class Trick(NamedTuple):
    """A completed trick: ``cards`` as (seat, card) in order of play, and its ``winner`` seat."""

    cards: tuple[tuple[int, str], ...]
    winner: int


class State(NamedTuple):
    """One hand, immutable. Serializes with :func:`to_json` / :func:`from_json`.

    ``hands`` are the cards each seat holds now (canonical order); ``kitty`` the two middle cards
    as dealt (``kitty_taken`` says whether the bidder took them); ``bids`` the auction as
    (seat, ``"pass"`` or ladder value); ``blind`` the card the partner passed, if any;
    ``discards`` the bidder's discards; ``out_discards`` the sitting-out partner's thrown hand.
    """

    dealer: int
    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...]
    phase: str = "auction"
    to_act: int | None = None
    bids: tuple[tuple[int, str], ...] = ()
    contract: str | None = None
    bidder: int | None = None
    choice: str | None = None
    kitty_taken: bool = False
    blind: str | None = None
    discards: tuple[str, ...] = ()
    out_discards: tuple[str, ...] = ()
    trump: str | None = None
    trick: tuple[tuple[int, str], ...] = ()
    tricks: tuple[Trick, ...] = ()
    made: bool | None = None

    @property
    def sitting_out(self) -> int | None:
        """The solo bidder's partner, who plays no card (§5), or None."""
        if self.contract in SOLO_BIDS and self.bidder is not None:
            return partner(self.bidder)
        return None

    @property
    def highest_bid(self) -> str | None:
        """The highest bid made so far in the auction, or None."""
        best: str | None = None
        for _, b in self.bids:
            if b != "pass":
                best = b
        return best

    @property
    def spread(self) -> bool:
        """True once a Gros Mulot bidder's hand lies face up: after trick 1, unless the bidder
        won it and so stopped the hand (§8, §10)."""
        return (
            self.contract == "gros-mulot"
            and len(self.tricks) >= 1
            and self.tricks[0].winner != self.bidder
        )


def deal(deck: Sequence[str], *, dealer: int) -> State:
    """A new hand from ``deck`` (34 card codes, top first) dealt by ``dealer`` (§3).

    Cards go in twos clockwise from ``left(dealer)`` for four rounds; the kitty is
    ``deck[32:34]``. Raises ValueError if ``deck`` is not the 34-card pack or ``dealer``
    is not 0–3. The auction starts with ``left(dealer)``.
    """
    check_deck(deck, PIQUET_JOKERS_34)
    return _deal(deck, dealer)


def deal_random(rng: random.Random, *, dealer: int) -> State:
    """:func:`deal` of a deck shuffled with ``rng`` only. Raises ValueError for a dealer not
    0–3."""
    return _deal(shuffled(PIQUET_JOKERS_34, rng), dealer)


def _deal(deck: Sequence[str], dealer: int) -> State:
    """:func:`deal` of a deck known to be the pack."""
    if dealer not in range(SEATS):
        raise ValueError("dealer must be 0..3")
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for r in range(4):
        for k in range(1, 5):
            seat = (dealer + k) % SEATS
            base = 8 * r + 2 * (k - 1)
            hands[seat] += [deck[base], deck[base + 1]]
    return State(
        dealer=dealer,
        hands=tuple(card_order(h) for h in hands),
        kitty=(deck[32], deck[33]),
        to_act=left(dealer),
    )


def _led_legal(
    hand: Sequence[str], trick: Sequence[tuple[int, str]], trump: str | None, trumpless: bool
) -> tuple[list[str], str | None]:
    """Cards of ``hand`` that may be played to ``trick``, and the reason the others may not."""
    if not trick:
        return list(hand), None
    first = trick[0][1]
    suit_of = _SUIT_OF[trump]
    if trumpless:
        if first in JOKERS:
            other = "LJ" if first == "BJ" else "BJ"
            if other in hand:
                return [other], "must_play_other_joker"
            return list(hand), None
        led = suit_of[first]
        follow = [c for c in hand if suit_of[c] == led]
        if follow:
            return follow, "must_follow_suit"
        jokers = [c for c in hand if c in JOKERS]
        if jokers:
            return jokers, "must_play_joker"
        return list(hand), None
    led = suit_of[first]
    follow = [c for c in hand if suit_of[c] == led]
    if follow:
        return follow, "must_follow_suit"
    return list(hand), None


def legal_cards(state: State) -> list[str]:
    """The cards the seat to act may play now (§7.2, §7.3), canonical order; [] outside play."""
    if state.phase != "play" or state.to_act is None:
        return []
    hand = state.hands[state.to_act]
    cards, _ = _led_legal(hand, state.trick, state.trump, state.contract in TRUMPLESS)
    return cards


def trick_winner(trick: Sequence[tuple[int, str]], trump: str | None) -> int:
    """The seat winning ``trick`` ((seat, card) in play order) (§7.4).

    ``trump`` is the trump suit, or None in Mulot / Gros Mulot (the jokers are then the trumps).

    >>> trick_winner([(0, "AD"), (1, "7H"), (2, "JD"), (3, "KD")], "H")
    2
    """
    top = trump if trump is not None else JOKER_SUIT
    suit_of = _SUIT_OF[trump]
    strength_of = _STRENGTH_OF[trump]
    wanted = top if any(suit_of[c] == top for _, c in trick) else suit_of[trick[0][1]]
    best_seat, best = -1, -1
    for seat, card in trick:
        if suit_of[card] == wanted and strength_of[card] > best:
            best_seat, best = seat, strength_of[card]
    return best_seat


_CARRIES_VALUE: frozenset[str] = frozenset({"bid", "choose", "trump"})
_CARRIES_CARDS: frozenset[str] = frozenset({"give", "discard", "play"})


def _stray_fields(action: Action) -> bool:
    """True if ``action`` carries a value or cards its kind never holds; no text parses to
    such an action and none is ever legal (DESIGN §2: why_illegal agrees with legal_actions)."""
    if action.value and action.kind not in _CARRIES_VALUE:
        return True
    return bool(action.cards) and action.kind not in _CARRIES_CARDS


def _discard_count(state: State) -> int:
    assert state.bidder is not None
    return len(state.hands[state.bidder]) - 8


def why_illegal(state: State, seat: int, action: Action) -> str | None:
    """Say why ``seat`` may not take ``action`` now, or ``None`` if it may.

    Implements §4 (auction), §5 (choice, blind pass, discards, trump) and §7.2–7.3 (follow rules).
    Returns a stable reason code listed in :data:`REASONS`.

    >>> s = deal(list(PIQUET_JOKERS_34), dealer=0)
    >>> for a in ("pass", "pass", "pass"):
    ...     s = apply(s, Action.parse(a))
    >>> why_illegal(s, 0, Action.pass_())
    'dealer_must_bid'
    """
    if state.phase == "over" or state.to_act is None:
        return "deal_over"
    if seat != state.to_act:
        return "not_your_turn"
    if _stray_fields(action):
        return "unknown_action"
    phase = state.phase
    kind = action.kind
    if phase == "auction":
        if kind == "pass":
            if seat == state.dealer and state.highest_bid is None:
                return "dealer_must_bid"
            return None
        if kind != "bid":
            return "wrong_phase"
        if action.value not in LADDER:
            return "no_such_bid"
        high = state.highest_bid
        if high is not None and LADDER.index(action.value) <= LADDER.index(high):
            return "bid_too_low"
        return None
    if phase == "choose":
        if kind != "choose" or action.value not in ("kitty", "card"):
            return "wrong_phase"
        return None
    hand = state.hands[seat]
    if phase == "give":
        if kind != "give" or len(action.cards) != 1:
            return "wrong_phase"
        return None if action.card in hand else "not_in_hand"
    if phase == "discard":
        if kind != "discard":
            return "wrong_phase"
        if len(set(action.cards)) != len(action.cards):
            return "repeated_card"
        if any(c not in hand for c in action.cards):
            return "not_in_hand"
        if len(action.cards) != _discard_count(state):
            return "wrong_discard_count"
        return None
    if phase == "trump":
        if kind != "trump":
            return "wrong_phase"
        return None if action.value in SUITS else "no_such_suit"
    # play
    if kind != "play" or len(action.cards) != 1:
        return "wrong_phase"
    if action.card not in hand:
        return "not_in_hand"
    cards, reason = _led_legal(hand, state.trick, state.trump, state.contract in TRUMPLESS)
    return None if action.card in cards else reason


def legal_actions(state: State) -> list[Action]:
    """Every legal action of ``state.to_act``, in a stable order ([] when the hand is over).

    Auction: ``pass`` then the bids upwards; choice: ``kitty``, ``card``; blind pass and play:
    card order; discards: every combination of the right size; trump: S, H, D, C.
    """
    seat = state.to_act
    if seat is None:
        return []
    phase = state.phase
    if phase == "auction":
        high = state.highest_bid
        start = 0 if high is None else LADDER.index(high) + 1
        bids = [Action.bid(b) for b in LADDER[start:]]
        if seat == state.dealer and high is None:
            return bids
        return [Action.pass_(), *bids]
    if phase == "choose":
        return [Action.choose("kitty"), Action.choose("card")]
    hand = state.hands[seat]
    if phase == "give":
        return [Action.give(c) for c in hand]
    if phase == "discard":
        return [
            Action.discard(combo) for combo in itertools.combinations(hand, _discard_count(state))
        ]
    if phase == "trump":
        return [Action.trump(s) for s in SUITS]
    return [Action.play(c) for c in legal_cards(state)]


def _without(cards: Sequence[str], gone: Iterable[str]) -> tuple[str, ...]:
    drop = set(gone)
    return tuple(c for c in cards if c not in drop)


def _set_hand(state: State, seat: int, cards: Iterable[str]) -> tuple[tuple[str, ...], ...]:
    hands = list(state.hands)
    hands[seat] = card_order(cards)
    return tuple(hands)


def _end_auction(state: State) -> State:
    contract = state.highest_bid
    assert contract is not None  # the dealer cannot pass when nobody bid
    bidder = next(s for s, b in reversed(state.bids) if b == contract)
    s = state._replace(contract=contract, bidder=bidder)
    mate = partner(bidder)
    if contract in NUMBER_BIDS:
        s = s._replace(
            hands=_set_hand(s, bidder, s.hands[bidder] + s.kitty),
            kitty_taken=True,
            phase="discard",
            to_act=bidder,
        )
    elif contract in TRUMPLESS:
        s = s._replace(
            out_discards=s.hands[mate],
            hands=_set_hand(s, mate, ()),
            phase="play",
            to_act=bidder,
        )
    elif contract == "charlemagne":
        s = s._replace(
            hands=_set_hand(s, bidder, s.hands[bidder] + s.kitty),
            kitty_taken=True,
            phase="give",
            to_act=mate,
        )
    else:
        s = s._replace(phase="choose", to_act=bidder)
    return s


def _stop_result(contract: str | None, bidder: int | None, tricks: Sequence[Trick]) -> bool | None:
    """True / False once the hand is made / failed (§10), None while it is still open."""
    assert contract is not None and bidder is not None
    if contract in NUMBER_BIDS:
        need = int(contract)
        side = team(bidder)
        ours = sum(1 for t in tricks if team(t.winner) == side)
        theirs = len(tricks) - ours
        if ours >= need:
            return True
        if theirs >= 9 - need:
            return False
        return None
    mine = sum(1 for t in tricks if t.winner == bidder)
    if contract in TRUMPLESS:
        if mine:
            return False
        return True if len(tricks) == 8 else None
    if mine < len(tricks):
        return False
    return True if len(tricks) == 8 else None


def apply(state: State, action: Action) -> State:
    """The state after ``state.to_act`` takes ``action``.

    Raises :class:`IllegalAction` with the reason code of :func:`why_illegal`; ``state`` is a
    value and is never changed. Implements §4, §5, §7, §8 and §10 (the hand stops as soon as its
    result is certain; ``phase`` becomes ``"over"`` and ``to_act`` None).
    """
    seat = state.to_act
    if (
        state.phase == "play"
        and seat is not None
        and type(action) is Action
        and action.kind == "play"
        and not action.value
        and len(action.cards) == 1
    ):
        return _play(state, seat, action.cards[0])
    reason = why_illegal(state, -1 if seat is None else seat, action)
    if reason is not None:
        raise IllegalAction(reason)
    assert seat is not None
    phase = state.phase
    if phase == "auction":
        bid = "pass" if action.kind == "pass" else action.value
        s = state._replace(bids=(*state.bids, (seat, bid)))
        if seat == state.dealer:
            return _end_auction(s)
        return s._replace(to_act=left(seat))
    bidder = state.bidder
    assert bidder is not None
    mate = partner(bidder)
    if phase == "choose":
        if action.value == "kitty":
            hands = list(state.hands)
            hands[mate] = ()
            hands[bidder] = card_order(state.hands[bidder] + state.kitty)
            return state._replace(
                choice="kitty",
                hands=tuple(hands),
                out_discards=state.hands[mate],
                kitty_taken=True,
                phase="discard",
                to_act=bidder,
            )
        return state._replace(choice="card", phase="give", to_act=mate)
    if phase == "give":
        card = action.card
        rest = _without(state.hands[mate], [card])
        s = state._replace(hands=_set_hand(state, mate, ()))
        s = s._replace(hands=_set_hand(s, bidder, (*s.hands[bidder], card)))
        return s._replace(blind=card, out_discards=rest, phase="discard", to_act=bidder)
    if phase == "discard":
        return state._replace(
            hands=_set_hand(state, bidder, _without(state.hands[bidder], action.cards)),
            discards=action.cards,
            phase="trump",
        )
    if phase == "trump":
        leader = left(bidder) if state.contract in NUMBER_BIDS else bidder
        return state._replace(trump=action.value, phase="play", to_act=leader)
    raise AssertionError(f"no phase {phase!r}")


def _play(state: State, seat: int, card: str) -> State:
    """:func:`apply` of ``seat`` playing ``card`` in the play phase (§7, §10); raises
    :class:`IllegalAction` for a card not in hand or against the follow rules (§7.2, §7.3)."""
    (
        dealer, hands, kitty, phase, _, bids, contract, bidder, choice, kitty_taken, blind,
        discards, out_discards, trump, trick, tricks, made,
    ) = state  # fmt: skip
    hand = list(hands[seat])
    if card not in hand:
        raise IllegalAction("not_in_hand")
    if trick:
        allowed, reason = _led_legal(hand, trick, trump, contract in TRUMPLESS)
        if card not in allowed:
            raise IllegalAction(reason or "not_in_hand")
    hand.remove(card)
    hands = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
    trick = (*trick, (seat, card))
    out = partner(bidder) if contract in SOLO_BIDS and bidder is not None else None
    to_act: int | None
    if len(trick) < (3 if out is not None else 4):
        to_act = left(seat)
        if to_act == out:
            to_act = left(to_act)
    else:
        winner = trick_winner(trick, trump)
        tricks = (*tricks, Trick(trick, winner))
        trick = ()
        to_act = winner
        made = _stop_result(contract, bidder, tricks)
        if made is not None:
            phase, to_act = "over", None
    return _state(
        State,
        (
            dealer, hands, kitty, phase, to_act, bids, contract, bidder, choice, kitty_taken,
            blind, discards, out_discards, trump, trick, tricks, made,
        ),
    )  # fmt: skip


def score(contract: str, bidder: int, tricks_won: int) -> tuple[int, int]:
    """(scoring team, points) for a contract given the tricks counting for it (§9, §11).

    ``tricks_won`` counts the bidding team's tricks for a number bid, the bidder's for a solo bid.
    Overtricks earn nothing.

    >>> score("6", 0, 7)
    (0, 6)
    >>> score("mulot", 1, 1)
    (0, 7)
    """
    made_pts, fail_pts = POINTS[contract]
    if contract in NUMBER_BIDS:
        made = tricks_won >= int(contract)
    elif contract in TRUMPLESS:
        made = tricks_won == 0
    else:
        made = tricks_won == 8
    if made:
        return team(bidder), made_pts
    return 1 - team(bidder), fail_pts


def outcome(state: State) -> dict[str, Any] | None:
    """None while the hand runs; when over (§10, §11)::

    {"contract": "6", "bidder": 2, "made": True, "scoring_team": 0, "points": 6,
     "tricks": [NS tricks, EW tricks]}
    """
    if state.phase != "over":
        return None
    assert state.contract is not None and state.bidder is not None and state.made is not None
    tricks = [0, 0]
    bidder_tricks = 0
    for t in state.tricks:
        tricks[team(t.winner)] += 1
        bidder_tricks += t.winner == state.bidder
    counted = tricks[team(state.bidder)] if state.contract in NUMBER_BIDS else bidder_tricks
    scoring_team, points = score(state.contract, state.bidder, counted)
    return {
        "contract": state.contract,
        "bidder": state.bidder,
        "made": state.made,
        "scoring_team": scoring_team,
        "points": points,
        "tricks": tricks,
    }


def to_json(state: State) -> dict[str, Any]:
    """The state as plain JSON types (server-side only: it holds every hidden card)."""
    return {
        "dealer": state.dealer,
        "hands": [list(h) for h in state.hands],
        "kitty": list(state.kitty),
        "phase": state.phase,
        "to_act": state.to_act,
        "bids": [[s, b] for s, b in state.bids],
        "contract": state.contract,
        "bidder": state.bidder,
        "choice": state.choice,
        "kitty_taken": state.kitty_taken,
        "blind": state.blind,
        "discards": list(state.discards),
        "out_discards": list(state.out_discards),
        "trump": state.trump,
        "trick": [[s, c] for s, c in state.trick],
        "tricks": [
            {"cards": [[s, c] for s, c in t.cards], "winner": t.winner} for t in state.tricks
        ],
        "made": state.made,
    }


def from_json(data: dict[str, Any]) -> State:
    """The inverse of :func:`to_json`; ``from_json(to_json(s)) == s``."""
    return State(
        dealer=int(data["dealer"]),
        hands=tuple(tuple(h) for h in data["hands"]),
        kitty=tuple(data["kitty"]),
        phase=data["phase"],
        to_act=data["to_act"],
        bids=tuple((int(s), str(b)) for s, b in data["bids"]),
        contract=data["contract"],
        bidder=data["bidder"],
        choice=data["choice"],
        kitty_taken=bool(data["kitty_taken"]),
        blind=data["blind"],
        discards=tuple(data["discards"]),
        out_discards=tuple(data["out_discards"]),
        trump=data["trump"],
        trick=tuple((int(s), str(c)) for s, c in data["trick"]),
        tricks=tuple(
            Trick(tuple((int(s), str(c)) for s, c in t["cards"]), int(t["winner"]))
            for t in data["tricks"]
        ),
        made=data["made"],
    )


__all__ = [
    "JOKERS",
    "LADDER",
    "POINTS",
    "REASONS",
    "Action",
    "State",
    "Trick",
    "apply",
    "deal",
    "deal_random",
    "effective_suit",
    "from_json",
    "legal_actions",
    "legal_cards",
    "outcome",
    "score",
    "strength",
    "to_json",
    "trick_winner",
    "why_illegal",
]
