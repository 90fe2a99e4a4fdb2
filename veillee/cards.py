"""Cards, suits and ranks; the three packs Veillée deals.

A card is its code string, rank then suit: ``"JH"`` is the jack of hearts, ``"TS"`` the ten of
spades. Jokers are ``"BJ"`` (Big) and ``"LJ"`` (Little). Spanish cards (Aluette) use the suits
``O C B S`` and ranks ``A 2..9 J N K``.

>>> len(PIQUET_32), len(PIQUET_JOKERS_34), len(SPANISH_48)
(32, 34, 48)
>>> rank("TH"), suit("TH")
('T', 'H')
>>> is_joker("BJ")
True
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from operator import itemgetter
from typing import Any, TypeVar

T = TypeVar("T")

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
"""French suits: spades, hearts, diamonds, clubs."""

PIQUET_RANKS: tuple[str, ...] = ("A", "K", "Q", "J", "T", "9", "8", "7")
"""The eight ranks of the piquet pack (order here is only a listing order, not a game's ranking)."""

RED: frozenset[str] = frozenset({"H", "D"})
BLACK: frozenset[str] = frozenset({"S", "C"})

BIG_JOKER = "BJ"
LITTLE_JOKER = "LJ"
JOKERS: tuple[str, ...] = (BIG_JOKER, LITTLE_JOKER)

SPANISH_SUITS: tuple[str, ...] = ("O", "C", "B", "S")
"""Spanish suits: coins (oros), cups, batons, swords."""
SPANISH_RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "J", "N", "K")

PIQUET_32: tuple[str, ...] = tuple(r + s for s in SUITS for r in PIQUET_RANKS)
"""The 32-card piquet pack (Chouine; Charlemagne without its jokers)."""

PIQUET_JOKERS_34: tuple[str, ...] = (*PIQUET_32, BIG_JOKER, LITTLE_JOKER)
"""The 34-card Charlemagne pack: piquet plus the Big and Little jokers."""

SPANISH_48: tuple[str, ...] = tuple(r + s for s in SPANISH_SUITS for r in SPANISH_RANKS)
"""The 48-card Spanish pack without tens (Aluette)."""


def rank(card: str) -> str:
    """The rank letter of a card code (``"T"`` for a ten). For a joker this is ``"B"`` or ``"L"``;
    use :func:`is_joker` to tell jokers apart."""
    return card[0]


def suit(card: str) -> str:
    """The suit letter of a card code. A joker's "suit" letter is ``"J"``; use :func:`is_joker`."""
    return card[1]


def is_joker(card: str) -> bool:
    """True for ``"BJ"`` and ``"LJ"``."""
    return card in JOKERS


def same_colour(s: str) -> str:
    """The other suit of the same colour: H<->D, S<->C. Raises KeyError for anything else."""
    return {"H": "D", "D": "H", "S": "C", "C": "S"}[s]


def shuffled(pack: Sequence[T], rng: random.Random) -> list[T]:
    """A uniformly shuffled copy of ``pack`` (top first), using only ``rng``.

    One integer drawn uniformly below ``n!`` (``rng.getrandbits``, redrawn when too large) is
    read digit by digit in the mixed radix ``n, n - 1, …, 2``: each digit is uniform and
    independent of the others, so the ``n - 1`` swaps are exactly those of a Fisher–Yates
    shuffle, for one call to the generator instead of ``n - 1``.

    (The swaps go two by two, both digits read from one table, and the draw is cut first into
    pieces below 2**30, so no digit divides the whole draw; the last swaps, among the bottom
    few cards, are one reordering read from a table. The order is the one the swaps one by one
    give: a seed deals the same deck.)

    >>> sorted(shuffled("ABCDE", random.Random(1))) == list("ABCDE")
    True
    """
    deck = list(pack)
    count = _orderings(len(deck))
    bits = count.bit_length()
    draw = rng.getrandbits(bits)
    while draw >= count:
        draw = rng.getrandbits(bits)
    pieces, bottom, orders = _swap_plan(len(deck))
    for radix, pairs in pieces:
        draw, piece = divmod(draw, radix)
        for i, h, pair_radix, digits in pairs:
            j, k = digits[piece % pair_radix]
            piece //= pair_radix
            deck[i], deck[j] = deck[j], deck[i]
            deck[h], deck[k] = deck[k], deck[h]
    if orders:
        deck[:bottom] = orders[draw](deck)
    return deck


_Pair = tuple[int, int, int, tuple[tuple[int, int], ...]]


@functools.cache
def _swap_plan(
    n: int,
) -> tuple[tuple[tuple[int, tuple[_Pair, ...]], ...], int, tuple[itemgetter[Any], ...]]:
    """How :func:`shuffled` reads a draw below ``n!`` for ``n`` cards.

    Returns ``(pieces, bottom, orders)``. The swaps of positions ``n - 1`` down to ``bottom``
    go by pairs ``(i, i - 1, (i + 1) * i, digits)``: ``digits[r]`` are the swap partners of
    ``i`` and ``i - 1`` read from ``r``, the draw's next digits below ``(i + 1) * i``. The pairs
    are grouped in ``pieces`` ``(radix, pairs)``, ``radix`` the product of the pairs' radices
    (below 2**30). What is left of the draw (below ``bottom!``) then picks the reordering of
    the bottom ``bottom`` cards the remaining swaps make (``orders``, empty when they make
    none).
    """
    bottom = min(n, 6 if n % 2 == 0 else 5)
    pieces: list[tuple[int, tuple[_Pair, ...]]] = []
    i = n - 1
    while i > bottom:
        pairs: list[_Pair] = []
        radix = 1
        while i > bottom and (not pairs or radix * (i + 1) * i < 1 << 30):
            pairs.append((i, i - 1, (i + 1) * i, _pair_digits(i)))
            radix *= (i + 1) * i
            i -= 2
        pieces.append((radix, tuple(pairs)))
    return tuple(pieces), bottom, _bottom_orders(bottom)


@functools.cache
def _pair_digits(i: int) -> tuple[tuple[int, int], ...]:
    """The swap partners of positions ``i`` and ``i - 1`` by the two digits' value below
    ``(i + 1) * i`` (each pair of partners one tuple, shared by every position)."""
    return tuple(
        _PARTNERS.setdefault(pair, pair)
        for pair in ((r % (i + 1), r // (i + 1)) for r in range((i + 1) * i))
    )


_PARTNERS: dict[tuple[int, int], tuple[int, int]] = {}


@functools.cache
def _bottom_orders(bottom: int) -> tuple[itemgetter[Any], ...]:
    """``orders[rest]``: the bottom ``bottom`` cards as the swaps of positions ``bottom - 1``
    down to 1 leave them, the digits read from ``rest`` (below ``bottom!``); empty for one
    card or none."""
    orders: list[itemgetter[Any]] = []
    if bottom > 1:
        for rest in range(_orderings(bottom)):
            order = list(range(bottom))
            for i in range(bottom - 1, 0, -1):
                rest, j = divmod(rest, i + 1)
                order[i], order[j] = order[j], order[i]
            orders.append(itemgetter(*order))
    return tuple(orders)


@functools.cache
def _orderings(n: int) -> int:
    """``n!``, the number of orders of ``n`` cards."""
    return math.factorial(n)


def check_deck(deck: Sequence[str], pack: Sequence[str]) -> None:
    """Raise ValueError unless ``deck`` is a permutation of ``pack`` (every card exactly once)."""
    if len(deck) != len(pack) or sorted(deck) != sorted(pack):
        raise ValueError("deck must hold every card of the pack exactly once")
