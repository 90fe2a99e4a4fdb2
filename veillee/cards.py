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
from typing import TypeVar

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

    >>> sorted(shuffled("ABCDE", random.Random(1))) == list("ABCDE")
    True
    """
    deck = list(pack)
    count = _orderings(len(deck))
    bits = count.bit_length()
    draw = rng.getrandbits(bits)
    while draw >= count:
        draw = rng.getrandbits(bits)
    for i in range(len(deck) - 1, 0, -1):
        draw, j = divmod(draw, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@functools.cache
def _orderings(n: int) -> int:
    """``n!``, the number of orders of ``n`` cards."""
    return math.factorial(n)


def check_deck(deck: Sequence[str], pack: Sequence[str]) -> None:
    """Raise ValueError unless ``deck`` is a permutation of ``pack`` (every card exactly once)."""
    if len(deck) != len(pack) or sorted(deck) != sorted(pack):
        raise ValueError("deck must hold every card of the pack exactly once")
