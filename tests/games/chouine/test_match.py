"""The Chouine match (rules §2): best of 3 or 5, dealer rotation, ties. What every match does
(the contract of docs/game-contract.md) is checked by tests/games/test_contract.py."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from veillee.games import IllegalAction
from veillee.games.chouine import rules
from veillee.games.chouine.match import MATCH as match
from veillee.games.chouine.match import Match
from veillee.games.chouine.match import target as match_target


def play_match(seed: int, best_of: int) -> tuple[Match, list[int]]:
    """A whole match of random legal play; returns it and each partie's dealer."""
    rng = random.Random(seed)
    m = match.new_match(rng, {"best_of": best_of})
    dealers = [m.dealer]
    while True:
        while not match.deal_over(m):
            seat = match.to_act(m)
            assert seat is not None
            m = match.apply(m, rng.choice(match.legal_actions(m)))
        if match.is_over(m):
            return m, dealers
        m = match.next_deal(m, rng)
        dealers.append(m.dealer)


@pytest.mark.parametrize("best_of, target", [(3, 2), (5, 3)])
def test_match_ends_when_a_seat_reaches_the_target(best_of: int, target: int) -> None:
    for seed in range(30):
        m, dealers = play_match(seed, best_of)
        winner = match.winner(m)
        assert winner is not None and m.scores[winner] == target == match_target(m)
        assert m.scores[1 - winner] < target
        decided = [r for r in m.results if r["winner"] is not None]
        assert len(decided) == sum(m.scores)
        assert m.results[-1]["winner"] == winner
        assert len(m.results) == m.number == len(dealers)
        # The deal passes after a decided partie and stays after a tie.
        for r, before, after in zip(m.results, dealers, dealers[1:], strict=False):
            assert after == (before if r["winner"] is None else 1 - before)
        with pytest.raises(IllegalAction) as e:
            match.next_deal(m, random.Random(0))
        assert e.value.reason == "match_over"
        assert match.why_illegal(m, 0, rules.Action.parse("AS")) == "match_over"
        assert match.to_act(m) is None and match.legal_actions(m) == []


def test_first_dealer_is_random_and_non_dealer_leads() -> None:
    dealers = set()
    for seed in range(40):
        m = match.new_match(random.Random(seed), {})
        dealers.add(m.dealer)
        assert m.options == {"best_of": 5} and m.scores == (0, 0) and m.number == 1
        assert match.to_act(m) == 1 - m.dealer == m.deal.leader
    assert dealers == {0, 1}


def test_only_best_of_three_or_five() -> None:
    with pytest.raises(ValueError):
        match.new_match(random.Random(0), {"best_of": 4})


def test_why_illegal_reports_turn_and_rules_reasons_and_apply_changes_nothing() -> None:
    m = match.new_match(random.Random(4), {"best_of": 3})
    seat = match.to_act(m)
    assert seat is not None
    card = rules.code_list(m.deal.hands[1 - seat])[0]
    assert match.why_illegal(m, 1 - seat, rules.Action.parse(card)) == "not_your_turn"
    assert match.why_illegal(m, seat, rules.Action.parse(card)) == "card_not_in_hand"
    before = match.to_json(m)
    with pytest.raises(IllegalAction) as e:
        match.apply(m, rules.Action.parse(card))
    assert e.value.reason == "card_not_in_hand"
    assert match.to_json(m) == before


def test_finished_partie_refuses_actions_with_deal_over() -> None:
    m, _ = play_match(5, 5)
    m = replace(m, scores=(0, 0), winner=None)  # pretend the match goes on: the partie is over
    assert match.why_illegal(m, 0, rules.Action.parse("AS")) == "deal_over"


def test_match_view_holds_the_score_and_the_seat_view() -> None:
    m, _ = play_match(6, 3)
    v = match.view(m, 0)
    assert set(v) == {"match", "deal"}
    assert v["match"]["best_of"] == 3 and v["match"]["over"] is True
    assert v["match"]["winner"] == match.winner(m)
    assert v["match"]["wins"] == list(m.scores) and len(v["match"]["results"]) == m.number
    assert v["deal"]["seat"] == 0 and v["deal"]["outcome"] is not None
    o = match.observation(m, 1)
    assert "plays" in o["deal"] and o["match"] == match.view(m, 1)["match"]
    json.dumps(v)
    assert match.seats == 2


def test_next_deal_from_an_explicit_deck_follows_the_rotation() -> None:
    m, _ = play_match(7, 5)
    m = replace(m, scores=(0, 0), winner=None)
    deck = list(rules.PACK)
    n = match.next_deal_from(m, deck)
    assert n.number == m.number + 1 and n.dealer == match.next_dealer(m)
    assert n.deal == rules.deal(deck, dealer=n.dealer)


def test_a_match_stored_before_the_winner_was_kept_reads_the_same() -> None:
    # Tables stored by the match module of before kept no winner at Chouine: it is worked out.
    m, _ = play_match(8, 3)
    stored = match.to_json(m)
    del stored["winner"]
    again = match.from_json(stored)
    assert again == m and match.winner(again) is not None
