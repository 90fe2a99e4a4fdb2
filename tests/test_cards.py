import random

import pytest

from veillee import cards


def test_packs_hold_each_card_once() -> None:
    assert len(set(cards.PIQUET_32)) == 32
    assert len(set(cards.PIQUET_JOKERS_34)) == 34
    assert len(set(cards.SPANISH_48)) == 48


def test_same_colour_pairs_suits_of_one_colour() -> None:
    assert [cards.same_colour(s) for s in "HDSC"] == ["D", "H", "C", "S"]


def test_shuffled_uses_only_the_given_rng() -> None:
    a = cards.shuffled(cards.PIQUET_32, random.Random(7))
    b = cards.shuffled(cards.PIQUET_32, random.Random(7))
    assert a == b and sorted(a) == sorted(cards.PIQUET_32) and a != list(cards.PIQUET_32)


def test_check_deck_refuses_a_missing_or_doubled_card() -> None:
    deck = list(cards.PIQUET_32)
    cards.check_deck(deck, cards.PIQUET_32)
    with pytest.raises(ValueError):
        cards.check_deck([*deck[:-1], deck[0]], cards.PIQUET_32)
