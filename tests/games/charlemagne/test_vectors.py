"""The 24 test vectors of rules/charlemagne.md §15 (K1–K24), with their exact values."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from veillee.cards import PIQUET_JOKERS_34
from veillee.games import IllegalAction
from veillee.games.charlemagne import rules, views
from veillee.games.charlemagne.match import MATCH as match
from veillee.games.charlemagne.rules import Action, effective_suit, strength

from .decks import cards_of, deck_for, play, position

N, E, S, W = 0, 1, 2, 3
NS, EW = 0, 1
ALL_BIDS = ["5", "6", "7", "8", "mulot", "charlemagne", "gros-mulot", "gros-charlemagne"]


def order_of(suit_letter: str, trump: str | None) -> list[str]:
    """Cards whose effective suit is ``suit_letter``, strongest first."""
    cards = [c for c in PIQUET_JOKERS_34 if effective_suit(c, trump) == suit_letter]
    return sorted(cards, key=lambda c: -strength(c, trump))


# K1, K2 -------------------------------------------------------------------------------------


def test_k1_trump_order_hearts_is_eleven_cards_jokers_then_both_red_jacks() -> None:
    assert order_of("H", "H") == ["BJ", "LJ", "JH", "JD", "AH", "KH", "QH", "TH", "9H", "8H", "7H"]
    assert order_of("D", "H") == ["AD", "KD", "QD", "TD", "9D", "8D", "7D"]
    assert order_of("S", "H") == ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S"]
    assert order_of("C", "H") == ["AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C"]
    assert [len(order_of(s, "H")) for s in "HDSC"] == [11, 7, 8, 8]


def test_k2_trump_order_spades_takes_the_jack_of_clubs() -> None:
    assert order_of("S", "S") == ["BJ", "LJ", "JS", "JC", "AS", "KS", "QS", "TS", "9S", "8S", "7S"]
    assert order_of("C", "S") == ["AC", "KC", "QC", "TC", "9C", "8C", "7C"]
    assert order_of("H", "S") == ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"]
    assert order_of("D", "S") == ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"]


# K3–K8: follow rules and trick winners in trump contracts --------------------------------


def test_k3_same_colour_jack_is_not_its_printed_suit() -> None:
    s = position({E: ["JD", "8S", "9S"]}, [(N, "KD")], to_act=E)
    assert cards_of(rules.legal_actions(s)) == {"JD", "8S", "9S"}
    assert effective_suit("JD", "H") == "H"


def test_k4_must_follow_the_real_suit() -> None:
    s = position({E: ["JD", "9D", "AS"]}, [(N, "KD")], to_act=E)
    assert cards_of(rules.legal_actions(s)) == {"9D"}
    assert rules.why_illegal(s, E, Action.parse("JD")) == "must_follow_suit"
    assert rules.why_illegal(s, E, Action.parse("AS")) == "must_follow_suit"


def test_k5_jokers_and_little_jack_follow_a_trump_lead() -> None:
    s = position({E: ["BJ", "LJ", "JD", "AS", "KS"]}, [(N, "7H")], to_act=E)
    assert cards_of(rules.legal_actions(s)) == {"BJ", "LJ", "JD"}


def test_k6_a_joker_lead_is_a_trump_lead() -> None:
    s = position({E: ["7H", "AC"]}, [(N, "LJ")], to_act=E)
    assert cards_of(rules.legal_actions(s)) == {"7H"}
    s = position({S: ["AC", "KS"]}, [(N, "LJ"), (E, "7H")], to_act=S)
    assert cards_of(rules.legal_actions(s)) == {"AC", "KS"}
    assert rules.trick_winner([(N, "LJ"), (E, "7H"), (S, "AC"), (W, "8H")], "H") == N
    assert rules.trick_winner([(N, "LJ"), (E, "BJ"), (S, "AC"), (W, "8H")], "H") == E


def test_k7_little_jack_beats_a_low_trump() -> None:
    trick = [(N, "AD"), (E, "7H"), (S, "JD"), (W, "KD")]
    assert rules.trick_winner(trick, "H") == S
    assert rules.team(rules.trick_winner(trick, "H")) == NS


def test_k8_off_suit_ace_cannot_win() -> None:
    assert rules.trick_winner([(N, "KS"), (E, "AS"), (S, "9S"), (W, "AC")], "H") == E


# K9–K11, K24: Mulot ------------------------------------------------------------------------

K9_HANDS = {
    N: ["9C", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
    E: ["LJ", "AS", "7H", "8H", "9H", "TH", "JH", "QH"],
    W: ["7C", "KC", "BJ", "KH", "AH", "7D", "8D", "9D"],
}


def test_k9_mulot_void_means_joker_and_the_bidder_loses_nothing_yet() -> None:
    s = rules.deal(deck_for(W, K9_HANDS), dealer=W)
    s = play(s, ["mulot", "pass", "pass", "pass"])
    assert s.sitting_out == S
    s = play(s, ["9C"])
    assert s.to_act == E
    assert cards_of(rules.legal_actions(s)) == {"LJ"}
    assert rules.why_illegal(s, E, Action.parse("AS")) == "must_play_joker"
    s = play(s, ["LJ"])
    assert s.to_act == W
    assert cards_of(rules.legal_actions(s)) == {"7C", "KC"}
    assert rules.why_illegal(s, W, Action.parse("BJ")) == "must_follow_suit"
    s = play(s, ["7C"])
    assert s.tricks[0].winner == E
    # N has no trick: the Mulot stays alive and E leads trick 2
    assert s.phase == "play" and s.to_act == E


def test_k10_mulot_joker_lead_forces_the_other_joker() -> None:
    hands = {
        N: ["LJ", "7S", "8S", "9S", "TS", "JS", "QS", "KS"],
        E: ["BJ", "AS", "7H", "8H", "9H", "TH", "JH", "QH"],
    }
    s = play(rules.deal(deck_for(W, hands), dealer=W), ["mulot", "pass", "pass", "pass", "LJ"])
    assert cards_of(rules.legal_actions(s)) == {"BJ"}
    assert rules.why_illegal(s, E, Action.parse("7H")) == "must_play_other_joker"
    s = play(s, ["BJ"])
    assert s.to_act == W
    assert cards_of(rules.legal_actions(s)) == set(s.hands[W])
    s = play(s, [str(rules.legal_actions(s)[0])])
    assert s.tricks[0].winner == E


def test_k11_mulot_other_joker_out_of_play_the_bidder_wins_and_fails() -> None:
    hands = {N: ["LJ", "7S", "8S", "9S", "TS", "JS", "QS", "KS"]}
    s = rules.deal(deck_for(W, hands, kitty=["BJ", "7D"]), dealer=W)
    s = play(s, ["mulot", "pass", "pass", "pass", "LJ"])
    assert cards_of(rules.legal_actions(s)) == set(s.hands[E])
    s = play(s, [str(rules.legal_actions(s)[-1])])
    assert cards_of(rules.legal_actions(s)) == set(s.hands[W])
    s = play(s, [str(rules.legal_actions(s)[-1])])
    assert s.tricks[0].winner == N
    assert s.phase == "over" and len(s.tricks) == 1
    out = rules.outcome(s)
    assert out is not None
    assert (out["made"], out["scoring_team"], out["points"]) == (False, EW, 7)


def test_k24_mulot_jack_of_diamonds_is_a_diamond_between_queen_and_ten() -> None:
    diamonds = order_of("D", None)
    assert diamonds == ["AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D"]
    s = position({E: ["JD", "AS", "LJ"]}, [(N, "9D")], to_act=E, contract="mulot", trump=None)
    assert cards_of(rules.legal_actions(s)) == {"JD"}


# K12–K15: auction and order of play -----------------------------------------------------


def fresh(dealer: int) -> rules.State:
    return rules.deal(list(PIQUET_JOKERS_34), dealer=dealer)


def test_k12_dealer_stuck_must_bid() -> None:
    s = play(fresh(N), ["pass", "pass", "pass"])
    assert s.to_act == N
    assert [str(a) for a in rules.legal_actions(s)] == ALL_BIDS
    assert rules.why_illegal(s, N, Action.pass_()) == "dealer_must_bid"
    with pytest.raises(IllegalAction) as err:
        rules.apply(s, Action.pass_())
    assert err.value.reason == "dealer_must_bid"


def test_k13_ordinary_auction_left_of_bidder_leads() -> None:
    s = play(fresh(N), ["5", "6", "pass", "pass"])
    assert (s.contract, s.bidder) == ("6", S)
    assert len(s.hands[S]) == 10 and s.to_act == S and s.phase == "discard"
    s = rules.apply(s, rules.legal_actions(s)[0])
    assert len(s.hands[S]) == 8
    s = play(s, ["trump C"])
    assert s.to_act == W
    rng = random.Random(13)
    while s.to_act is not None:
        s = rules.apply(s, rng.choice(rules.legal_actions(s)))
    out = rules.outcome(s)
    assert out is not None
    assert out["made"] == (out["tricks"][NS] >= 6)
    assert out["points"] == 6


def test_k14_bid_ladder_solo_over_numbers() -> None:
    s = play(fresh(N), ["mulot"])
    assert [str(a) for a in rules.legal_actions(s)] == [
        "pass",
        "charlemagne",
        "gros-mulot",
        "gros-charlemagne",
    ]
    assert rules.why_illegal(s, S, Action.parse("8")) == "bid_too_low"
    s = play(fresh(N), ["gros-charlemagne"])
    for seat in (S, W, N):
        assert s.to_act == seat
        assert [str(a) for a in rules.legal_actions(s)] == ["pass"]
        s = play(s, ["pass"])
    assert (s.contract, s.bidder) == ("gros-charlemagne", E)


def test_k15_play_order_skips_the_sitting_out_partner() -> None:
    s = play(fresh(N), ["mulot", "pass", "pass", "pass"])
    assert s.sitting_out == W and s.to_act == E
    order: list[int | None] = []
    for _ in range(3):
        order.append(s.to_act)
        s = rules.apply(s, rules.legal_actions(s)[0])
    assert order == [E, S, N]

    s = play(fresh(N), ["pass", "pass", "charlemagne", "pass"])
    assert s.sitting_out == E
    s = rules.apply(s, rules.legal_actions(s)[0])  # E's blind card
    s = rules.apply(s, rules.legal_actions(s)[0])  # W discards 3
    s = play(s, ["trump S"])
    order = []
    for _ in range(3):
        order.append(s.to_act)
        s = rules.apply(s, rules.legal_actions(s)[0])
    assert order == [W, N, S]


# K16–K17: solo card flow -------------------------------------------------------------------


def test_k16_charlemagne_card_flow() -> None:
    s = play(fresh(S), ["charlemagne", "pass", "pass", "pass"])
    assert (s.contract, s.bidder) == ("charlemagne", W)
    assert len(s.hands[W]) == 10 and s.to_act == E and s.phase == "give"
    given = s.hands[E][0]
    s = play(s, [f"give {given}"])
    assert len(s.hands[W]) == 11 and given in s.hands[W]
    assert s.hands[E] == () and len(s.out_discards) == 7
    assert s.to_act == W and len(rules.legal_actions(s)[0].cards) == 3
    s = rules.apply(s, rules.legal_actions(s)[0])
    assert len(s.hands[W]) == 8 and s.phase == "trump"
    s = play(s, ["trump D"])
    assert s.to_act == W and s.phase == "play"


def test_k17_gros_charlemagne_with_the_partners_card_never_shows_the_kitty() -> None:
    s = play(fresh(S), ["gros-charlemagne", "pass", "pass", "pass"])
    assert s.phase == "choose" and s.to_act == W
    s = play(s, ["card"])
    assert s.to_act == E
    s = play(s, [f"give {s.hands[E][0]}"])
    assert len(s.hands[W]) == 9 and s.hands[E] == ()
    assert [len(a.cards) for a in rules.legal_actions(s)] == [1] * 9
    s = rules.apply(s, rules.legal_actions(s)[0])
    s = play(s, ["trump H"])
    assert s.to_act == W
    kitty = set(s.kitty)

    def shown(state: rules.State) -> set[str]:
        seen: set[str] = set()
        for seat in range(4):
            text = str(views.observation(state, seat))
            seen |= {c for c in kitty if f"'{c}'" in text}
        return seen

    assert shown(s) == set()
    while s.to_act is not None:
        s = rules.apply(s, rules.legal_actions(s)[0])
        assert shown(s) == set()


# K18–K23: hands stopping and scoring -----------------------------------------------------


def match_with(deal: rules.State, scores: tuple[int, int]) -> match.Match:
    return replace(match.start_match(deal, {}), scores=scores)


def test_k18_scoring_at_the_edge_reaching_32_wins() -> None:
    hands = {
        N: ["BJ", "LJ", "JH", "JD", "AH", "KH", "QH", "TH"],
        S: ["9H", "8H", "7H", "AS", "AD", "AC", "KS", "KD"],
    }
    m = match_with(rules.deal(deck_for(W, hands), dealer=W), (27, 0))
    for text in ["5", "pass", "pass", "pass"]:
        m = match.apply(m, Action.parse(text))
    m = match.apply(m, Action.discard(m.deal.kitty))
    m = match.apply(m, Action.parse("trump H"))
    while not match.deal_over(m):
        acts = match.legal_actions(m)
        # the bidding team plays its strongest card, the others their first
        seat = match.to_act(m)
        m = match.apply(m, acts[-1] if seat in (N, S) else acts[0])
    assert m.scores == (32, 0)
    assert match.is_over(m) and match.winner(m) == NS
    assert len(m.deal.tricks) == 5

    hands = {
        E: ["BJ", "LJ", "JH", "JD", "AH", "KH", "QH", "TH"],
        N: ["9H", "8H", "7S", "8S", "7D", "8D", "7C", "8C"],
    }
    m = match_with(rules.deal(deck_for(W, hands), dealer=W), (27, 0))
    for text in ["5", "pass", "pass", "pass"]:
        m = match.apply(m, Action.parse(text))
    m = match.apply(m, Action.discard(m.deal.kitty))
    m = match.apply(m, Action.parse("trump H"))
    while not match.deal_over(m):
        acts = match.legal_actions(m)
        m = match.apply(m, acts[-1] if match.to_act(m) in (E, W) else acts[0])
    assert [t.winner for t in m.deal.tricks] == [E, E, E, E]
    assert m.scores == (27, 5)
    assert not match.is_over(m)


def test_k19_no_credit_for_overtricks() -> None:
    assert rules.score("6", N, 7) == (NS, 6)
    assert rules.score("6", E, 7) == (EW, 6)


def test_k20_gros_charlemagne_wins_from_nothing() -> None:
    hands = {E: ["BJ", "LJ", "JH", "JD", "AH", "KH", "QH", "TH"]}
    m = match_with(rules.deal(deck_for(N, hands), dealer=N), (31, 0))
    for text in ["gros-charlemagne", "pass", "pass", "pass", "kitty"]:
        m = match.apply(m, Action.parse(text))
    m = match.apply(m, Action.discard(m.deal.kitty))
    m = match.apply(m, Action.parse("trump H"))
    while not match.deal_over(m):
        acts = match.legal_actions(m)
        m = match.apply(m, acts[-1] if match.to_act(m) == E else acts[0])
    assert len(m.deal.tricks) == 8 and all(t.winner == E for t in m.deal.tricks)
    assert m.scores == (31, 32)
    assert match.winner(m) == EW


def test_k21_charlemagne_fails_at_the_first_lost_trick() -> None:
    hands = {
        E: ["AS", "KS", "QS", "JS", "TS", "9S", "AC", "KC"],
        S: ["BJ", "LJ", "7S", "8S", "7D", "8D", "7C", "8C"],
        W: ["AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H"],
        N: ["AD", "KD", "QD", "JD", "TD", "9D", "QC", "JC"],
    }
    s = rules.deal(deck_for(E, hands, kitty=["TC", "9C"]), dealer=E)
    s = play(s, ["charlemagne", "pass", "pass", "pass", "give JD", "discard TC 9C JD", "trump H"])
    s = play(s, ["BJ", "7H", "9S", "LJ", "8H", "TS", "7S", "9H", "AS"])
    assert [t.winner for t in s.tricks] == [S, S, W]
    assert s.phase == "over"
    out = rules.outcome(s)
    assert out is not None
    assert (out["made"], out["scoring_team"], out["points"]) == (False, EW, 8)


K22_DECK = [
    "JD",
    "9H",
    "KH",
    "BJ",
    "TH",
    "JS",
    "7D",
    "JH",
    "TC",
    "8S",
    "8D",
    "9S",
    "8H",
    "7H",
    "AH",
    "AC",
    "QC",
    "9D",
    "QH",
    "7C",
    "AS",
    "KS",
    "KD",
    "9C",
    "LJ",
    "AD",
    "TD",
    "7S",
    "JC",
    "8C",
    "QD",
    "QS",
    "KC",
    "TS",
]
K22_SCRIPT = (
    "7 pass pass pass|discard QC AD|trump H|8D 8C 7D 9D 8S 9S JS QS AH LJ QH 8H KC 7C JC 9C "
    "JD KH TH JH"
)


def test_k22_number_bid_fails_when_the_opponents_take_9_minus_b() -> None:
    s = rules.deal(K22_DECK, dealer=N)
    for chunk in K22_SCRIPT.split("|"):
        words = chunk.split()
        s = play(s, [chunk] if words[0] in ("discard", "trump") else words)
    assert [rules.team(t.winner) for t in s.tricks] == [EW, NS, EW, EW, NS]
    assert s.phase == "over" and len(s.tricks) == 5
    out = rules.outcome(s)
    assert out is not None
    assert (out["contract"], out["bidder"], out["made"]) == ("7", E, False)
    assert (out["scoring_team"], out["points"]) == (NS, 7)


K23_MADE_DECK = [
    "QS",
    "TH",
    "8S",
    "9C",
    "8H",
    "KD",
    "QH",
    "TC",
    "8C",
    "9S",
    "7S",
    "8D",
    "AC",
    "7H",
    "7C",
    "AS",
    "JD",
    "JS",
    "KC",
    "JH",
    "TD",
    "QC",
    "AD",
    "7D",
    "KS",
    "QD",
    "BJ",
    "9H",
    "KH",
    "TS",
    "JC",
    "LJ",
    "AH",
    "9D",
]
K23_MADE_PLAY = [
    "QS",
    "8S",
    "AS",
    "AD",
    "QD",
    "8D",
    "JC",
    "8C",
    "9C",
    "7D",
    "JD",
    "BJ",
    "KC",
    "7C",
    "9S",
    "JH",
    "QH",
    "TH",
    "LJ",
    "JS",
    "7S",
    "TC",
    "KS",
    "9H",
]
K23_FAILED_DECK = [
    "AD",
    "AC",
    "TD",
    "LJ",
    "QS",
    "9C",
    "AS",
    "TS",
    "QH",
    "7S",
    "8H",
    "KD",
    "JC",
    "8C",
    "7H",
    "TH",
    "9H",
    "TC",
    "QD",
    "KS",
    "8D",
    "8S",
    "JD",
    "AH",
    "KH",
    "9D",
    "KC",
    "7D",
    "7C",
    "QC",
    "JH",
    "BJ",
    "9S",
    "JS",
]
K23_FAILED_PLAY = ["AC", "KC", "BJ", "TS", "7S", "KS", "KD", "JD", "AD"]


def test_k23_gros_mulot_spread_after_trick_1_and_made() -> None:
    s = play(rules.deal(K23_MADE_DECK, dealer=E), ["gros-mulot", "pass", "pass", "pass"])
    assert (s.bidder, s.sitting_out) == (S, N)
    s = play(s, K23_MADE_PLAY[:2])
    assert all(views.view(s, seat)["spread"] is None for seat in range(4))
    s = play(s, K23_MADE_PLAY[2:3])
    assert s.tricks[0].winner != S
    for seat in (N, E, W):
        assert sorted(views.view(s, seat)["spread"]) == sorted(s.hands[S])
        assert len(views.view(s, seat)["spread"]) == 7
    s = play(s, K23_MADE_PLAY[3:])
    out = rules.outcome(s)
    assert out is not None and len(s.tricks) == 8
    assert (out["made"], out["scoring_team"], out["points"]) == (True, NS, 30)


def test_k23_gros_mulot_failed_at_the_bidders_first_trick() -> None:
    s = play(rules.deal(K23_FAILED_DECK, dealer=E), ["gros-mulot", "pass", "pass", "pass"])
    s = play(s, K23_FAILED_PLAY)
    assert s.tricks[-1].winner == S and len(s.tricks) == 3
    # the spread, public since trick 1, stays visible; nothing else is revealed
    assert sorted(views.view(s, E)["spread"]) == sorted(s.hands[S])
    out = rules.outcome(s)
    assert out is not None
    assert (out["made"], out["scoring_team"], out["points"]) == (False, EW, 15)


def test_match_deal_passes_left_and_refuses_early_next_deal() -> None:
    m = match.new_match(random.Random(1), {}, first_dealer=W)
    assert m.dealer == W and m.deal.to_act == N
    with pytest.raises(IllegalAction) as err:
        match.next_deal(m, random.Random(2))
    assert err.value.reason == "deal_not_over"
    assert match.why_illegal(m, E, Action.pass_()) == "not_your_turn"
    while not match.deal_over(m):
        m = match.apply(m, match.legal_actions(m)[-1])
    assert match.why_illegal(m, N, Action.pass_()) == "deal_over"
    m = match.next_deal_from(m, list(PIQUET_JOKERS_34))
    assert (m.dealer, m.number, m.deal.to_act) == (N, 2, E)


def test_k23_gros_mulot_bidder_winning_trick_1_is_never_spread() -> None:
    hands = {S: ["BJ", "7S", "8S", "9S", "7D", "8D", "7C", "8C"]}
    s = rules.deal(deck_for(E, hands), dealer=E)
    s = play(s, ["gros-mulot", "pass", "pass", "pass", "BJ"])
    while s.to_act is not None:
        s = rules.apply(s, rules.legal_actions(s)[0])
    assert s.tricks[0].winner == S and len(s.tricks) == 1
    for seat in (N, E, W):
        view = views.view(s, seat)
        assert view["spread"] is None
        assert not set(s.hands[S]) & set(str(view).replace("'", " ").split())
    out = rules.outcome(s)
    assert out is not None and (out["scoring_team"], out["points"]) == (EW, 15)
