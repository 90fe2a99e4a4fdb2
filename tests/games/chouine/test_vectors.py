"""The 23 test vectors C1–C23 of rules/chouine.md §15, with their exact values.

Seat A is seat 0 (the non-dealer), seat B seat 1 (the dealer), as in the rules.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest

from veillee.games import IllegalAction
from veillee.games.chouine import rules
from veillee.games.chouine.match import MATCH as match
from veillee.games.chouine.positions import position
from veillee.games.chouine.rules import Action, State, apply, legal_actions, why_illegal
from veillee.games.chouine.views import view

A, B = 0, 1


def play(state: State, text: str) -> State:
    return apply(state, Action.parse(text))


def legal_cards(state: State) -> set[str]:
    return {a.card for a in legal_actions(state) if a.verb == "play" and a.card}


def texts(state: State) -> list[str]:
    return [str(a) for a in legal_actions(state)]


def options(state: State, card: str) -> list[str]:
    """Declaration kinds offered with ``card`` (in the engine's order)."""
    return [a.declaration for a in legal_actions(state) if a.card == card and a.declaration]


def last_winner(state: State) -> int:
    return state.tricks[-1][3]


def phase2(trump: str, a_hand: list[str], b_rest: list[str], lead: str) -> State:
    """Phase 2, B has led ``lead`` and A is to follow holding ``a_hand``."""
    k = 17 - len(a_hand)
    return position(trump, (a_hand, b_rest), trick_number=k, leader=B, trick=[lead])


# C1–C5: phase-2 follow duties (rules §4.3)


def test_c1_trump_led_follower_must_beat_if_able() -> None:
    s = phase2("H", ["7H", "AH", "QS", "9D"], ["8S", "9S", "7S"], "KH")
    assert legal_cards(s) == {"AH"}
    assert why_illegal(s, A, Action.parse("7H")) == "must_beat_trump"
    assert why_illegal(s, A, Action.parse("QS")) == "must_follow_suit"
    assert last_winner(play(s, "AH")) == A


def test_c2_trump_led_follower_unable_to_beat_plays_any_trump() -> None:
    s = phase2("H", ["7H", "TH", "KS"], ["8S", "9S"], "AH")
    assert legal_cards(s) == {"7H", "TH"}
    assert why_illegal(s, A, Action.parse("KS")) == "must_follow_suit"
    assert last_winner(play(s, "7H")) == B
    assert last_winner(play(s, "TH")) == B


def test_c3_plain_suit_led_follow_without_duty_to_beat() -> None:
    s = phase2("H", ["7D", "AD", "8H", "QS"], ["8S", "9S", "7S"], "KD")
    assert legal_cards(s) == {"7D", "AD"}
    assert why_illegal(s, A, Action.parse("8H")) == "must_follow_suit"
    assert last_winner(play(s, "7D")) == B
    assert last_winner(play(s, "AD")) == A


def test_c4_void_in_led_suit_must_trump() -> None:
    s = phase2("H", ["8H", "TH", "AS"], ["8S", "9S"], "KD")
    assert legal_cards(s) == {"8H", "TH"}
    assert why_illegal(s, A, Action.parse("AS")) == "must_trump"
    assert last_winner(play(s, "8H")) == A
    assert last_winner(play(s, "TH")) == A


def test_c5_void_in_led_suit_and_trumps_any_card_and_leader_wins() -> None:
    s = phase2("H", ["AS", "7C"], ["8S"], "KD")
    assert legal_cards(s) == {"AS", "7C"}
    assert last_winner(play(s, "AS")) == B
    assert last_winner(play(s, "7C")) == B


def test_c6_phase_one_follower_is_free() -> None:
    s = position(
        "H",
        (["KS", "QS", "9C", "8C"], ["7C", "8H", "KD", "9S", "JS"]),
        trick_number=5,
        leader=A,
        trick=["AD"],
        turn_up="AH",
    )
    assert legal_cards(s) == {"7C", "8H", "KD", "9S", "JS"}
    assert last_winner(play(s, "7C")) == A
    assert last_winner(play(s, "8H")) == B
    assert last_winner(play(s, "KD")) == A


def test_c7_trick_eleven_is_still_phase_one() -> None:
    s = position(
        "S",
        (["KS", "QS", "9C", "8C"], ["9D", "8S", "AC", "KH", "7H"]),
        trick_number=11,
        leader=A,
        trick=["QD"],
        turn_up="AS",
    )
    assert len(s.talon) == 1
    assert legal_cards(s) == {"9D", "8S", "AC", "KH", "7H"}
    assert view(s, B)["phase"] == 1


def test_c8_ten_beats_king() -> None:
    s = position(
        "C",
        (["9H", "QS", "9D", "8D"], ["TS", "8H", "7D", "9S", "JS"]),
        trick_number=3,
        leader=A,
        trick=["KS"],
    )
    after = play(s, "TS")
    assert last_winner(after) == B
    assert rules.POINTS[rules.card_of("KS")] + rules.POINTS[rules.card_of("TS")] == 14
    assert view(after, B)["own_tricks"][-1] == ["KS", "TS"]


def test_c9_last_draws_winner_face_down_loser_turn_up() -> None:
    s = position(
        "S",
        (["KS", "QS", "9C", "8C"], ["9D", "8S", "AC", "KH", "7H"]),
        trick_number=11,
        leader=A,
        trick=["AD"],
        turn_up="AS",
        talon=["JD"],
    )
    after = play(s, "9D")
    assert last_winner(after) == A
    assert rules.code_list(after.hands[A]) == rules.code_list(
        rules.mask_of(["KS", "QS", "9C", "8C", "JD"])
    )
    assert after.hands[B] >> rules.card_of("AS") & 1
    assert [c.bit_count() for c in after.hands] == [5, 5]
    assert after.talon == () and after.turn_up == -1
    assert after.trick_number == 12 and after.to_act == A
    v = view(after, B)
    assert v["phase"] == 2 and v["talon_count"] == 0 and v["turn_up"] is None
    assert v["taken_turn_ups"] == [{"seat": B, "card": "AS", "how": "draw"}]


def test_c10_tierce_of_trumps_closes_the_suit() -> None:
    s = position(
        "H",
        (["KH", "QH", "JH", "7S", "8C"], ["9S", "8S", "AC", "KD", "7D"]),
        trick_number=2,
        leader=A,
    )
    s = play(s, "JH tierce")
    assert rules.declaration_totals(s) == (60, 0)
    assert view(s, B)["declarations"][A] == [
        {"kind": "tierce", "suit": "H", "points": 60, "cards": ["JH"]}
    ]
    s = play(s, "9S")
    shown = view(s, B)["declarations"][A][0]["cards"]
    assert sorted(shown) == ["JH", "KH", "QH"]
    # A won with the jack of trumps and leads again, still holding KH QH.
    assert s.to_act == A
    assert options(s, "QH") == [] and options(s, "KH") == []
    assert why_illegal(s, A, Action.parse("QH mariage")) == "suit_already_declared"


def test_c11_combinations_each_card_can_carry() -> None:
    s = position("S", (["AD", "KD", "QD", "JD", "7C"], ["9S", "8S", "AC", "KH", "7D"]))
    assert options(s, "AD") == ["quateron"]
    assert options(s, "KD") == ["quateron", "tierce", "mariage"]
    assert options(s, "QD") == ["quateron", "tierce", "mariage"]
    assert options(s, "JD") == ["quateron", "tierce"]
    assert options(s, "7C") == []
    points = {
        str(a): p
        for a in legal_actions(s)
        if a.declaration
        for k, p, _ in rules.declaration_options(
            s.hands[A], rules.card_of(a.card or ""), 0, False, s.trump
        )
        if rules.KINDS[k] == a.declaration
    }
    assert points["KD quateron"] == 40 and points["KD tierce"] == 30
    assert points["KD mariage"] == 20


def test_c12_two_mariages_need_two_cards() -> None:
    s = position(
        "D",
        (["KH", "QH", "KS", "QS", "7C"], ["9S", "8S", "AC", "KD", "7D"]),
        trick_number=2,
        leader=A,
    )
    assert options(s, "KH") == ["mariage"]
    assert why_illegal(s, A, Action.parse("7C mariage")) == "declaration_needs_played_card"
    s = play(s, "KH mariage")
    s = play(s, "AC")  # off-suit: A wins the trick and leads again
    assert s.to_act == A
    assert options(s, "KS") == ["mariage"] and options(s, "QS") == ["mariage"]
    s = play(s, "KS mariage")
    assert rules.declaration_totals(s) == (40, 0)
    assert [d["points"] for d in view(s, A)["declarations"][A]] == [20, 20]


def test_c13_one_quinte_per_seat() -> None:
    s = position(
        "S",
        (["AH", "AS", "TD", "TC", "AD"], ["9S", "8S", "AC", "KH", "7D"]),
        trick_number=2,
        leader=A,
        talon=[
            "TH",
            *[
                "7C",
                "8C",
                "9C",
                "JC",
                "QC",
                "KC",
                "7H",
                "8H",
                "9H",
                "JH",
                "QH",
                "8D",
                "9D",
                "JD",
                "QD",
                "KD",
                "JS",
                "QS",
            ],
        ],
        turn_up="TS",
    )
    assert options(s, "TC") == ["quinte"]
    s = play(s, "TC quinte")
    assert rules.declaration_totals(s) == (50, 0)
    s = play(s, "7D")  # A wins with the ten and draws TH
    assert rules.code_list(s.hands[A]) == ["AS", "TH", "AH", "TD", "AD"]
    assert s.to_act == A
    for card in ("AH", "AS", "TD", "AD", "TH"):
        assert options(s, card) == []
    assert why_illegal(s, A, Action.parse("AH quinte")) == "quinte_already_declared"


def test_c14_opponent_most_recent_trick_only() -> None:
    s = position(
        "H",
        (["7S", "8S", "9S", "JS", "QS"], ["7C", "8C", "9C", "JC", "QC"]),
        trick_number=6,
        leader=A,
        piles=(["AS", "TS", "AD", "TD", "KS", "KD", "AC", "TC"], ["KC", "QD"]),
        trick_winners=[A, A, B, A, A],
    )
    assert view(s, B)["opponent_last_trick"] == ["AC", "TC"]
    assert view(s, A)["opponent_last_trick"] == ["KC", "QD"]
    assert view(s, A)["piles"] == [4, 1]
    flat_b = str(view(s, B))
    for hidden in ("AS", "TS", "AD", "TD", "KS", "KD"):
        assert f"'{hidden}'" not in flat_b


def finished(
    a_pile: list[str], trump: str, dix: int, declarations: Sequence[tuple[int, str, str, int]] = ()
) -> State:
    """A finished partie with ``a_pile`` as A's cards, B holding the rest."""
    rest = rules.code_list(rules.ALL_CARDS & ~rules.mask_of(a_pile))
    a_tricks = len(a_pile) // 2
    winners = [A] * (a_tricks - (dix == A)) + [B] * (16 - a_tricks - (dix == B)) + [dix]
    decl = []
    for seat, kind, suit, points in declarations:
        combo = {"mariage": ["K", "Q"], "tierce": ["K", "Q", "J"]}[kind]
        decl.append((seat, kind, suit, points, [r + suit for r in combo], 1, "K" + suit))
    return position(
        trump,
        ([], []),
        trick_number=16,
        leader=dix,
        piles=(a_pile, rest),
        trick_winners=winners,
        to_act=None,
        declarations=decl,
    )


def test_c15_count_seed_example() -> None:
    a_pile = ["AS", "AH", "AD", "TS", "TH", "KS", "KH", "QS"]
    out = rules.outcome(finished(a_pile, "C", A))
    assert out is not None
    assert out["card_points"] == [64, 56]
    assert out["totals"] == [74, 56] and out["winner"] == A and out["dix_de_der"] == A
    out = rules.outcome(finished(a_pile, "C", A, [(A, "mariage", "D", 20), (B, "tierce", "C", 60)]))
    assert out is not None
    assert out["totals"] == [94, 116] and out["winner"] == B


def test_c16_count_proust_example() -> None:
    jean = ["JS", "JH", "QS", "QH", "KS", "TS", "AS", "AH", "AD", "7S"]
    out = rules.outcome(finished(jean, "D", A, [(A, "mariage", "S", 20), (B, "mariage", "D", 40)]))
    assert out is not None
    assert out["card_points"] == [57, 63]
    assert out["totals"] == [87, 103] and out["winner"] == B


def test_c17_tie_voids_the_partie_and_same_dealer_deals_again() -> None:
    a_pile = ["AS", "TS", "KS", "QS", "JS", "AH", "TH", "KH"]
    s = finished(a_pile, "C", A)
    out = rules.outcome(s)
    assert out is not None
    assert out["totals"] == [65, 65] and out["winner"] is None
    m = match.start_match(s, {"best_of": 3})
    assert m.scores == (0, 0) and match.deal_over(m) and not match.is_over(m)
    assert match.next_dealer(m) == s.dealer
    m2 = match.next_deal(m, random.Random(1))
    assert m2.dealer == s.dealer and m2.number == 2 and m2.scores == (0, 0)


def prompt_position(b_holds_seven: bool) -> State:
    """Trick 10 of a partie with trump S and turn-up QS, A leading AD; after B follows 7D and
    loses, A draws 9H and B draws 8H; B already holds 7S or not."""
    b = ["7D", "7S" if b_holds_seven else "9C", "JC", "8C", "KC"]
    return position(
        "S",
        (["JD", "QD", "KD", "TD"], b),
        trick_number=10,
        leader=A,
        trick=["AD"],
        turn_up="QS",
        talon=["9H", "8H", "8S"],
    )


def test_c18_seven_swap_prompt() -> None:
    s = play(prompt_position(True), "7D")
    assert s.trick_number == 11 and s.prompt and s.to_act == B
    vb, va = view(s, B), view(s, A)
    assert vb["prompt"] == "seven" and vb["legal"] == ["continue", "swap"]
    assert va["to_act"] == B and va["legal"] == []
    assert why_illegal(s, A, Action.parse("JD")) == "not_your_turn"
    assert why_illegal(s, B, Action.parse("7S")) == "answer_prompt_first"
    s = play(s, "swap")
    assert s.hands[B] >> rules.card_of("QS") & 1 and not s.hands[B] >> rules.card_of("7S") & 1
    assert view(s, A)["turn_up"] == "7S" and s.to_act == A and not s.prompt
    s = play(s, "TD")  # A leads trick 11
    assert why_illegal(s, B, Action.parse("swap")) == "swap_not_allowed"
    s = play(s, "8H")  # B loses trick 11 and takes the seven
    assert s.hands[B] >> rules.card_of("7S") & 1 and s.turn_up == -1


def test_c19a_no_prompt_when_seven_is_turn_up() -> None:
    s = position(
        "S",
        (["JD", "QD", "KD", "TD"], ["7D", "9C", "JC", "8C", "KC"]),
        trick_number=10,
        leader=A,
        trick=["AD"],
        turn_up="7S",
        talon=["9H", "8H", "8S"],
    )
    s = play(s, "7D")
    assert not s.prompt and s.to_act == A


def test_c19b_no_prompt_when_seven_was_played() -> None:
    s = position(
        "S",
        (["JD", "QD", "KD", "TD"], ["7D", "9C", "JC", "8C", "KC"]),
        trick_number=10,
        leader=A,
        trick=["AD"],
        turn_up="QS",
        talon=["9H", "8H", "8S"],
        piles=(
            ["7S", "AC", "TC", "AH", "TH", "KH", "QH", "JH", "9S", "9D"],
            ["8D", "7H", "7C", "JS", "KS", "AS", "TS", "QC"],
        ),
        trick_winners=[A, A, A, B, A, B, B, A, B],
    )
    s = play(s, "7D")
    assert not s.prompt and s.to_act == A


def test_c19c_prompt_with_only_carry_on_then_leader_may_swap() -> None:
    s = position(
        "S",
        (["JD", "QD", "KD", "7S"], ["7D", "9C", "JC", "8C", "KC"]),
        trick_number=10,
        leader=A,
        trick=["AD"],
        turn_up="QS",
        talon=["9H", "8H", "8D"],
    )
    s = play(s, "7D")
    assert s.prompt and s.to_act == B
    assert texts(s) == ["continue"]
    assert why_illegal(s, B, Action.parse("swap")) == "swap_not_allowed"
    s = play(s, "continue")
    assert s.to_act == A and "swap" in texts(s)
    s = play(s, "swap")
    assert s.to_act == A and s.turn_up == rules.card_of("7S")


def test_c19_prompt_shown_when_seven_is_last_face_down_card() -> None:
    s = position(
        "S",
        (["JD", "QD", "KD", "TD"], ["7D", "9C", "JC", "8C", "KC"]),
        trick_number=10,
        leader=A,
        trick=["AD"],
        turn_up="QS",
        talon=["9H", "8H", "7S"],
    )
    s = play(s, "7D")
    assert s.prompt and texts(s) == ["continue"] and len(s.talon) == 1


def test_c20_phase_two_declaration_needs_a_legal_card() -> None:
    s = phase2("H", ["KD", "QD", "7S", "8H"], ["9C", "8C", "7C"], "9S")
    assert texts(s) == ["7S"]
    assert why_illegal(s, A, Action.parse("KD mariage")) == "must_follow_suit"


def chouine_deck(a: list[str], b: list[str], turn_up: str) -> list[str]:
    rest = [c for c in rules.PACK if c not in {*a, *b, turn_up}]
    deck = [x for pair in zip(a, b, strict=True) for x in pair]
    return [*deck, turn_up, *rest]


def test_c21_chouine_on_first_lead_wins_the_partie() -> None:
    deck = chouine_deck(["AC", "TC", "KC", "QC", "JC"], ["7S", "8S", "9S", "JS", "QS"], "9D")
    m = match.start_match(rules.deal(deck, dealer=B), {"best_of": 5})
    assert "JC chouine" in texts(m.deal)
    m = match.apply(m, Action.parse("JC chouine"))
    assert match.deal_over(m)
    out = rules.outcome(m.deal)
    assert out is not None and out["winner"] == A and out["chouine"] == A
    assert out["totals"] is None
    assert view(m.deal, B)["outcome"]["chouine_cards"] == ["AC", "TC", "KC", "QC", "JC"]
    assert m.scores == (1, 0)
    assert match.next_deal(m, random.Random(2)).dealer == A


def test_c22_trump_chouine_beats_plain_chouine() -> None:
    deck = chouine_deck(["AC", "TC", "KC", "QC", "JC"], ["AD", "TD", "KD", "QD", "JD"], "9D")
    s = play(rules.deal(deck, dealer=B), "AC chouine")
    assert s.to_act == B
    assert "JD chouine" in texts(s)
    won = play(s, "JD chouine")
    out = rules.outcome(won)
    assert out is not None and out["winner"] == B and out["chouine"] == B
    lost = play(s, "JD quateron")
    out = rules.outcome(lost)
    assert out is not None and out["winner"] == A and out["chouine"] == A


def test_c22_plain_chouine_against_plain_chouine_ends_at_once() -> None:
    deck = chouine_deck(["AC", "TC", "KC", "QC", "JC"], ["AH", "TH", "KH", "QH", "JH"], "9D")
    s = play(rules.deal(deck, dealer=B), "AC chouine")
    assert s.to_act is None
    out = rules.outcome(s)
    assert out is not None and out["winner"] == A
    with pytest.raises(IllegalAction) as e:
        play(s, "JH chouine")
    assert e.value.reason == "deal_over"


def test_c22_leader_trump_chouine_ends_at_once() -> None:
    deck = chouine_deck(["AD", "TD", "KD", "QD", "JD"], ["AC", "TC", "KC", "QC", "JC"], "9D")
    s = play(rules.deal(deck, dealer=B), "QD chouine")
    out = rules.outcome(s)
    assert s.to_act is None and out is not None and out["winner"] == A


def decided(winner: int | None, dealer: int) -> State:
    """A finished partie won by ``winner`` (None: a 65–65 tie) with ``dealer``."""
    a_pile = {
        A: ["AS", "TS", "AH", "TH", "AD", "TD", "AC", "TC"],
        B: ["7S", "8S"],
        None: ["AS", "TS", "KS", "QS", "JS", "AH", "TH", "KH"],
    }[winner]
    return finished(a_pile, "C", A)._replace(dealer=dealer)


def test_c23_match_flow_best_of_three() -> None:
    m = match.start_match(decided(A, B), {"best_of": 3})
    dealers = [m.dealer]
    for result in (None, B, A):
        m = match.next_deal(m, random.Random(0))
        dealers.append(m.dealer)
        m = match._settle(replace(m, deal=decided(result, m.dealer)))
    assert dealers == [B, A, A, B]
    assert [r["winner"] for r in m.results] == [A, None, B, A]
    assert m.scores == (2, 1) and match.is_over(m) and match.winner(m) == A
    assert m.number == 4
    with pytest.raises(IllegalAction) as e:
        match.next_deal(m, random.Random(0))
    assert e.value.reason == "match_over"
