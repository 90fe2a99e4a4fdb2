"""What each seat sees (rules §10, docs/chouine-views.md): views and observations."""

from __future__ import annotations

import random

from veillee.games.chouine import rules
from veillee.games.chouine.positions import position
from veillee.games.chouine.rules import Action, State, apply
from veillee.games.chouine.views import observation, view

A, B = 0, 1


def play(state: State, *texts: str) -> State:
    for text in texts:
        state = apply(state, Action.parse(text))
    return state


def test_waiting_seat_has_no_legal_actions_and_every_card_refused() -> None:
    s = rules.deal_random(random.Random(1), dealer=B)
    v = view(s, B)
    assert v["legal"] == [] and v["to_act"] == A
    assert v["refusals"] == {c: "not_your_turn" for c in v["hand"]}
    assert view(s, A)["refusals"] == {}
    assert v["hand_counts"] == [5, 5] and v["talon_count"] == 21


def test_phase_two_refusals_give_the_duty() -> None:
    s = position(
        "H", (["7H", "AH", "QS", "9D"], ["8S", "9S", "7S"]), trick_number=13, leader=B, trick=["KH"]
    )
    assert view(s, A)["refusals"] == {
        "QS": "must_follow_suit",
        "9D": "must_follow_suit",
        "7H": "must_beat_trump",
    }
    assert view(s, A)["trick"] == [{"seat": B, "card": "KH", "declaration": None}]


def test_shown_declaration_cards_are_known_to_the_opponent_until_played() -> None:
    s = position(
        "H",
        (["KH", "QH", "JH", "7S", "8C"], ["9S", "8S", "AC", "KD", "7D"]),
        trick_number=2,
        leader=A,
    )
    s = play(s, "JH tierce")
    assert observation(s, B)["opponent_known"] == []
    assert view(s, B)["trick"][0]["declaration"] == {"kind": "tierce", "suit": "H", "points": 60}
    s = play(s, "9S")
    assert observation(s, B)["opponent_known"] == ["QH", "KH"]
    assert observation(s, A)["opponent_known"] == []
    s = play(s, "QH")
    assert observation(s, B)["opponent_known"] == ["KH"]
    plays = observation(s, B)["plays"]
    assert plays[2] == {
        "trick": 2,
        "seat": A,
        "card": "JH",
        "declaration": {"kind": "tierce", "suit": "H", "points": 60},
    }
    assert plays[-1] == {"trick": 3, "seat": A, "card": "QH", "declaration": None}


def test_swapped_turn_up_is_known_and_draws_are_remembered() -> None:
    s = position(
        "S",
        (["JD", "QD", "KD", "TD"], ["7D", "7S", "JC", "8C", "KC"]),
        trick_number=10,
        leader=A,
        trick=["AD"],
        turn_up="QS",
        talon=["9H", "8H", "8D"],
    )
    s = play(s, "7D", "swap")
    assert observation(s, A)["opponent_known"] == ["QS"]
    assert view(s, A)["taken_turn_ups"] == [{"seat": B, "card": "QS", "how": "swap"}]
    assert observation(s, A)["drawn"] == ["9H"] and observation(s, B)["drawn"] == ["8H"]
    s = play(s, "TD", "QS")  # B trumps with the queen and takes trick 11
    assert observation(s, A)["opponent_known"] == []
    assert observation(s, B)["drawn"] == ["8H", "8D"]
    assert observation(s, A)["drawn"] == ["9H", "7S"]
    assert observation(s, B)["opponent_known"] == ["7S"]
    # The talon is gone: A holds exactly what B knows of it plus what B has not seen.
    assert observation(s, B)["unseen"] == ["9H", "JD", "QD", "KD"]
    assert view(s, A)["last_trick"] == {
        "cards": [{"seat": A, "card": "TD"}, {"seat": B, "card": "QS"}],
        "winner": B,
    }


def test_unseen_leaves_out_the_turn_up_and_own_cards() -> None:
    s = rules.deal_random(random.Random(3), dealer=B)
    o = observation(s, A)
    assert len(o["unseen"]) == 32 - 5 - 1
    assert o["turn_up"] not in o["unseen"]
    assert not set(o["hand"]) & set(o["unseen"])


def test_finished_partie_opens_both_piles() -> None:
    rng = random.Random(8)
    s = rules.deal_random(rng, dealer=B)
    while s.to_act is not None:
        s = apply(s, rng.choice(rules.legal_actions(s)))
    for seat in (A, B):
        v = view(s, seat)
        assert v["to_act"] is None and v["legal"] == []
        out = v["outcome"]
        piles = out["piles"]
        if out["chouine"] is None:
            assert len(piles[0]) + len(piles[1]) == 32
        assert out == {
            **(rules.outcome(s) or {}),
            "piles": piles,
            "chouine_cards": out["chouine_cards"],
        }
