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
            "dix_de_der_points": None if out["chouine"] is not None else 10,
        }


def chouine_deal(a: list[str], b: list[str], turn_up: str) -> State:
    """Trick 1 with A (non-dealer) dealt ``a``, B ``b``; A leads."""
    rest = [c for c in rules.PACK if c not in {*a, *b, turn_up}]
    deck = [x for pair in zip(a, b, strict=True) for x in pair]
    return rules.deal([*deck, turn_up, *rest], dealer=B)


def test_chouine_end_does_not_reveal_the_leaders_declared_cards() -> None:
    # §9: a chouine ends the partie without resolving the trick; only the five chouine cards are
    # shown, the opponent's remaining hand (here QH of A's mariage) is not.
    s = chouine_deal(["KH", "QH", "7S", "8S", "9S"], ["AC", "TC", "KC", "QC", "JC"], "9D")
    s = play(s, "KH mariage", "JC chouine")
    assert rules.outcome(s) is not None and s.chouine == B
    v = view(s, B)
    assert v["declarations"][A] == [{"kind": "mariage", "suit": "H", "points": 20, "cards": ["KH"]}]
    assert sorted(v["declarations"][B][0]["cards"]) == ["AC", "JC", "KC", "QC", "TC"]
    assert v["outcome"]["chouine_cards"] == ["AC", "TC", "KC", "QC", "JC"]
    assert "QH" not in str(v) and observation(s, B)["opponent_known"] == []


def test_chouine_end_does_not_reveal_the_followers_declared_cards() -> None:
    # §9: the follower holding the trump chouine plays a quateron instead; the leader's plain
    # chouine wins and B's other quateron cards (KD QD AD) stay hidden.
    s = chouine_deal(["AC", "TC", "KC", "QC", "JC"], ["AD", "TD", "KD", "QD", "JD"], "9D")
    s = play(s, "AC chouine", "JD quateron")
    assert s.chouine == A
    v = view(s, A)
    assert v["declarations"][B] == [
        {"kind": "quateron", "suit": "D", "points": 80, "cards": ["JD"]}
    ]
    assert v["outcome"]["chouine_cards"] == ["AC", "TC", "KC", "QC", "JC"]
    for hidden in ("KD", "QD", "AD", "TD"):
        assert f"'{hidden}'" not in str(v)
    assert observation(s, A)["opponent_known"] == []


def test_beaten_plain_chouine_stays_hidden_but_the_trump_chouine_is_shown() -> None:
    s = chouine_deal(["AC", "TC", "KC", "QC", "JC"], ["AD", "TD", "KD", "QD", "JD"], "9D")
    s = play(s, "AC chouine", "JD chouine")
    assert s.chouine == B
    v = view(s, B)
    assert v["declarations"][A] == [{"kind": "chouine", "suit": "C", "points": 0, "cards": ["AC"]}]
    assert v["outcome"]["chouine_cards"] == ["AD", "TD", "KD", "QD", "JD"]
    assert sorted(view(s, A)["declarations"][B][0]["cards"]) == ["AD", "JD", "KD", "QD", "TD"]


def test_each_legal_declaration_comes_with_its_points_doubled_in_trumps() -> None:
    # Rules §5.1: mariage 20, tierce 30, quateron 40, quinte 50; doubled in the trump suit.
    s = position(
        "H",
        (["KH", "QH", "JH", "KS", "QS"], ["9S", "8S", "AC", "KD", "7D"]),
        trick_number=2,
        leader=A,
    )
    v = view(s, A)
    points = {
        w["action"]: w["declaration"]["points"]
        for ways in v["card_choices"].values()
        for w in ways
        if w["declaration"]
    }
    assert points == {
        "KS mariage": 20,
        "QS mariage": 20,
        "KH tierce": 60,
        "KH mariage": 40,
        "QH tierce": 60,
        "QH mariage": 40,
        "JH tierce": 60,
    }
    assert set(points) == {a for a in v["legal"] if " " in a}
    assert view(s, B)["card_choices"] == {}
