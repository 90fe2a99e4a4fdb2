"""What a Charlemagne view says of the bids a seat may not make (docs/charlemagne-views.md,
``bid_refusals``): the reason codes of ``rules.why_illegal``, exact, for the seat to bid and for
the others, and nothing once the auction is over; and the suit the trick in play was led in
(``led_suit``, rules §6), which the page names in a refusal to follow."""

from __future__ import annotations

from veillee.cards import PIQUET_JOKERS_34
from veillee.games.charlemagne import rules, views

from .decks import play, position

N, E, S, W = 0, 1, 2, 3
LADDER = ["pass", "5", "6", "7", "8", "mulot", "charlemagne", "gros-mulot", "gros-charlemagne"]


def fresh(dealer: int) -> rules.State:
    return rules.deal(list(PIQUET_JOKERS_34), dealer=dealer)


def test_a_bid_at_or_below_the_highest_is_refused_as_too_low() -> None:
    s = play(fresh(N), ["7", "pass", "pass"])  # East bids 7; South and West pass; North deals
    view = views.view(s, N)
    assert view["bid_refusals"] == {"5": "bid_too_low", "6": "bid_too_low", "7": "bid_too_low"}
    assert view["legal"] == ["pass", "8", "mulot", "charlemagne", "gros-mulot", "gros-charlemagne"]
    # every answer of the ladder is either legal or refused with its reason
    assert sorted(view["legal"] + list(view["bid_refusals"])) == sorted(view["ladder"])


def test_the_other_seats_are_told_it_is_not_their_turn_for_every_answer() -> None:
    s = play(fresh(N), ["7", "pass", "pass"])
    for seat in (E, S, W):
        assert views.view(s, seat)["bid_refusals"] == dict.fromkeys(LADDER, "not_your_turn")


def test_the_stuck_dealer_may_not_pass() -> None:
    s = play(fresh(N), ["pass", "pass", "pass"])
    assert views.view(s, N)["bid_refusals"] == {"pass": "dealer_must_bid"}


def test_the_first_to_speak_may_give_every_answer() -> None:
    assert views.view(fresh(N), E)["bid_refusals"] == {}


def test_no_bid_is_refused_once_the_auction_is_over() -> None:
    s = play(fresh(N), ["6", "pass", "pass", "pass"])  # East takes the contract: discards next
    assert s.phase == "discard"
    assert [views.view(s, seat)["bid_refusals"] for seat in range(4)] == [{}, {}, {}, {}]


def test_the_spectator_view_has_no_seats_bid_refusals() -> None:
    assert "bid_refusals" not in views.spectator_view(play(fresh(N), ["7"]))


def test_the_suit_led_is_the_first_cards_own_suit_in_play() -> None:
    # Hearts are trumps: the jack of diamonds (same colour) and a joker are led as trumps.
    hands = {E: ["JD", "9D", "AS"]}
    assert views.view(position(hands, [], to_act=N), E)["led_suit"] is None
    assert views.view(position(hands, [(N, "KD")], to_act=E), E)["led_suit"] == "D"
    assert views.view(position(hands, [(N, "JD")], to_act=E), S)["led_suit"] == "H"
    assert views.view(position(hands, [(N, "BJ")], to_act=E), W)["led_suit"] == "H"
    # In a Mulot the jokers are a suit of their own, and jacks are plain cards.
    mulot = {"contract": "mulot", "trump": None}
    assert views.view(position(hands, [(N, "LJ")], to_act=E, **mulot), E)["led_suit"] == "JOKER"
    assert views.view(position(hands, [(N, "JH")], to_act=E, **mulot), E)["led_suit"] == "H"
    # The refusal it goes with: the jack of diamonds does not follow diamonds.
    assert views.view(position(hands, [(N, "KD")], to_act=E), E)["refusals"] == {
        "JD": "must_follow_suit",
        "AS": "must_follow_suit",
    }


def test_the_hand_says_each_cards_own_suit() -> None:
    # Hearts trumps: the jack of diamonds and the joker are trumps; in a Mulot the joker is a
    # suit of its own and the jack a diamond.
    hands = {E: ["JD", "9D", "AS", "BJ"]}
    assert views.view(position(hands, [], to_act=E), E)["hand_suits"] == {
        "JD": "H",
        "9D": "D",
        "AS": "S",
        "BJ": "H",
    }
    mulot = views.view(position(hands, [], to_act=E, contract="mulot", trump=None), E)
    assert mulot["hand_suits"] == {"JD": "D", "9D": "D", "AS": "S", "BJ": "JOKER"}
    assert views.view(position(hands, [], to_act=E), N)["hand_suits"] == {}
