"""The numbers a page shows come with the view (docs/chouine-views.md): the ways to play each
card, in the order they are offered, with each declaration's suit and points, and what the dix
de der scored. The page holds no rule; these tests hold the view to the rules file's values."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from veillee.games.chouine import rules
from veillee.games.chouine.positions import position
from veillee.games.chouine.views import view

A, B = 0, 1


def test_a_chouine_is_offered_first_then_the_biggest_combination_then_the_plain_play() -> None:
    # Trump H: A holds the chouine of hearts (rules §5.2: the UI offers the chouine first).
    s = position("H", (["AH", "TH", "KH", "QH", "JH"], ["7S", "8S", "9S", "7C", "8C"]), leader=A)
    ways = view(s, A)["card_choices"]["KH"]
    assert [w["action"] for w in ways] == [
        "KH chouine",
        "KH quateron",
        "KH tierce",
        "KH mariage",
        "KH",
    ]
    assert [w["declaration"] and w["declaration"]["points"] for w in ways] == [0, 80, 60, 40, None]
    assert all(w["declaration"]["suit"] == "H" for w in ways[:-1])


def test_a_quinte_has_no_suit_and_is_worth_50() -> None:
    # Rules C13: A holds AH AS TD TC AD and leads TC declaring a quinte, +50.
    s = position("S", (["AH", "AS", "TD", "TC", "AD"], ["7S", "8S", "9S", "7C", "8C"]), leader=A)
    ways = view(s, A)["card_choices"]["TC"]
    assert ways == [
        {"action": "TC quinte", "declaration": {"kind": "quinte", "suit": None, "points": 50}},
        {"action": "TC", "declaration": None},
    ]
    # An ace without the king, queen and jack of its suit carries only the quinte (§5.2).
    assert [w["action"] for w in view(s, A)["card_choices"]["AS"]] == ["AS quinte", "AS"]


def test_the_waiting_seat_and_the_prompt_have_no_card_to_choose() -> None:
    s = rules.deal_random(random.Random(4), dealer=B)
    assert view(s, B)["card_choices"] == {}
    assert view(s, A)["card_choices"] != {}


@given(st.integers(0, 2**32 - 1))
def test_every_legal_card_action_is_offered_once_in_order(seed: int) -> None:
    rng = random.Random(seed)
    s = rules.deal_random(rng, dealer=rng.randrange(2))
    while s.to_act is not None:
        seat = s.to_act
        v = view(s, seat)
        offered = [w["action"] for ways in v["card_choices"].values() for w in ways]
        plays = [a for a in v["legal"] if a not in ("swap", "continue")]
        assert sorted(offered) == sorted(plays)
        for card, ways in v["card_choices"].items():
            assert all(w["action"].split()[0] == card for w in ways)
            declared = [w["declaration"] for w in ways if w["declaration"]]
            assert ways[-1]["declaration"] is None or len(declared) == len(ways)
            kinds = [d["kind"] for d in declared]
            assert "chouine" not in kinds or kinds[0] == "chouine"
            rest = [d["points"] for d in declared if d["kind"] != "chouine"]
            assert rest == sorted(rest, reverse=True)
        s = rules.apply(s, rng.choice(rules.legal_actions(s)))
    result = view(s, A)["outcome"]
    if result["chouine"] is None:
        assert result["dix_de_der_points"] == 10  # rules §7
    else:
        assert result["dix_de_der_points"] is None
