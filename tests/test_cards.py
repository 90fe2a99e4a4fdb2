import math
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


def test_shuffled_deals_the_pinned_decks_of_a_seed() -> None:
    assert " ".join(cards.shuffled(cards.PIQUET_32, random.Random(7))) == (
        "KS QC 8H JD 9D JH 7S KD JS 8C KH KC 7D AS QS 7H 7C 9H 8S AH TD TS 9S 9C 8D TH QD QH TC JC"
        " AD AC"
    )
    assert " ".join(cards.shuffled(cards.PIQUET_JOKERS_34, random.Random(7))) == (
        "AC 9H 8H QS LJ TC BJ TS 9D JC 8S 7C KS 8D JH 7S TD 7D JS QD KH JD KC TH 9C AS QC QH AH KD"
        " 8C 9S 7H AD"
    )


def fisher_yates_one_swap_at_a_time(n: int, rng: random.Random) -> list[int]:
    """The order shuffled() promises: the draw below n! read one digit per swap."""
    deck = list(range(n))
    count = math.factorial(n)
    draw = rng.getrandbits(count.bit_length())
    while draw >= count:
        draw = rng.getrandbits(count.bit_length())
    for i in range(n - 1, 0, -1):
        draw, j = divmod(draw, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 6, 7, 8, 13, 32, 33, 34, 48])
def test_shuffled_is_fisher_yates_read_from_one_draw(n: int) -> None:
    ours, reference = random.Random(n), random.Random(n)
    for _ in range(200):
        assert cards.shuffled(range(n), ours) == fisher_yates_one_swap_at_a_time(n, reference)
    assert ours.random() == reference.random()


def test_check_deck_refuses_a_missing_or_doubled_card() -> None:
    deck = list(cards.PIQUET_32)
    cards.check_deck(deck, cards.PIQUET_32)
    with pytest.raises(ValueError):
        cards.check_deck([*deck[:-1], deck[0]], cards.PIQUET_32)
