"""The computer players of the Charlemagne product page, decision by decision."""

from __future__ import annotations

import random

from veillee.games.charlemagne import bot, rules, views
from veillee.games.charlemagne.rules import Action

from .decks import deck_for, play

N, E, S, W = 0, 1, 2, 3


def decide(state: rules.State) -> Action:
    seat = state.to_act
    assert seat is not None
    return bot.choose(views.observation(state, seat), rules.legal_actions(state), random.Random(0))


def blind_pass_from(partner_hand: list[str]) -> Action:
    s = rules.deal(deck_for(N, {S: partner_hand}), dealer=N)
    s = play(s, ["pass", "pass", "pass", "charlemagne"])  # N bids, S passes blind
    assert s.to_act == S and s.phase == "give"
    return decide(s)


def test_blind_pass_sends_a_joker_then_a_jack_then_an_ace() -> None:
    assert str(blind_pass_from(["LJ", "JH", "AS", "7S", "8S", "9S", "7D", "8D"])) == "give LJ"
    assert str(blind_pass_from(["JH", "AS", "7S", "8S", "9S", "7D", "8D", "9D"])) == "give JH"
    assert str(blind_pass_from(["AS", "7S", "8S", "9S", "7D", "8D", "9D", "TD"])) == "give AS"


def test_eight_and_charlemagne_only_with_both_jokers_both_jacks_and_the_ace() -> None:
    rng = random.Random(8)
    strong = 0
    for n in range(3000):
        s = rules.deal_random(rng, dealer=n % 4)
        while s.phase == "auction":
            seat = s.to_act
            assert seat is not None
            action = decide(s)
            assert str(action) != "gros-mulot"
            if str(action) in ("8", "charlemagne", "gros-charlemagne"):
                strong += 1
                hand = set(s.hands[seat])
                assert {"BJ", "LJ"} <= hand
                assert any({f"J{a}", f"J{b}", f"A{a}"} <= hand for a, b in ("HD", "DH", "SC", "CS"))
            s = rules.apply(s, action)
    assert strong >= 1


def test_dealer_stuck_takes_a_bid() -> None:
    s = play(rules.deal_random(random.Random(4), dealer=N), ["pass", "pass", "pass"])
    assert decide(s).kind == "bid"


def test_never_overtakes_a_winning_partner() -> None:
    hands = {W: ["AS", "7S", "8H", "9H", "7D", "8D", "7C", "8C"]}
    s = rules.State(
        dealer=N,
        hands=tuple(rules.card_order(hands.get(seat, ())) for seat in range(4)),
        kitty=(),
        phase="play",
        to_act=W,
        contract="6",
        bidder=E,
        trump="H",
        trick=((N, "9S"), (E, "KS"), (S, "TS")),
    )
    assert str(decide(s)) == "7S"


def test_follows_with_the_cheapest_card_that_wins() -> None:
    s = rules.State(
        dealer=N,
        hands=((), (), (), rules.card_order(["AS", "KS", "7S", "8H"])),
        kitty=(),
        phase="play",
        to_act=W,
        contract="6",
        bidder=E,
        trump="H",
        trick=((N, "QS"), (E, "9S"), (S, "TS")),
    )
    assert str(decide(s)) == "KS"


def test_mulot_bidder_ducks_with_its_highest_losing_card() -> None:
    s = rules.State(
        dealer=N,
        hands=((), rules.card_order(["QD", "9D", "7D", "8S"]), (), ()),
        kitty=(),
        phase="play",
        to_act=E,
        contract="mulot",
        bidder=E,
        trump=None,
        trick=((S, "TD"), (W, "8D")),
    )
    assert str(decide(s)) == "9D"


def test_greedy_bids_by_counting_jokers_jacks_and_aces() -> None:
    hands = {E: ["BJ", "JS", "AH", "AD", "7C", "8C", "9C", "TC"]}
    s = rules.deal(deck_for(N, hands), dealer=N)
    legal = rules.legal_actions(s)
    assert str(bot.greedy_choose(views.observation(s, E), legal, random.Random(0))) == "5"
