"""Perft: the exact number of legal play sequences from a few fixed positions (rules §7, §10).

A rules change that moves one of these counts must be deliberate: recount and say why.
"""

from __future__ import annotations

from veillee.games.charlemagne import rules
from veillee.games.charlemagne.rules import State

from .decks import deck_for, play
from .test_vectors import K9_HANDS, K22_DECK, K23_MADE_DECK


def perft(state: State, plays: int) -> int:
    """Sequences of ``plays`` legal actions from ``state``; a hand that stops ends a sequence."""
    if plays == 0 or state.to_act is None:
        return 1
    return sum(perft(rules.apply(state, a), plays - 1) for a in rules.legal_actions(state))


def test_perft_number_bid_hearts_trump_first_two_tricks() -> None:
    s = play(
        rules.deal(K22_DECK, dealer=0),
        ["7", "pass", "pass", "pass", "discard QC AD", "trump H"],
    )
    assert [perft(s, n) for n in (1, 2, 3, 4, 8)] == [8, 33, 76, 122, 11240]


def test_perft_mulot_three_players_first_two_tricks() -> None:
    s = play(rules.deal(deck_for(3, K9_HANDS), dealer=3), ["mulot", "pass", "pass", "pass"])
    assert [perft(s, n) for n in (1, 3, 6)] == [8, 9, 931]


def test_perft_gros_mulot_first_two_tricks() -> None:
    s = play(rules.deal(K23_MADE_DECK, dealer=1), ["gros-mulot", "pass", "pass", "pass"])
    assert [perft(s, n) for n in (1, 3, 6)] == [8, 20, 462]
