"""Rules §12 over 200+ computer-only hands: every view at every step shows only what that seat
may see, and the computer players are handed ``observation(state, seat)`` and nothing else."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

from veillee.games.charlemagne import bot, rules, selfplay, views
from veillee.games.charlemagne.rules import Action, State

from ..card_scan import cards_named
from .conformance import PACK, allowed_cards

HANDS = 240


class Witness:
    """Wraps the computer players of one hand and checks every call against a shadow copy of
    the hand, replayed from the actions the players return."""

    def __init__(self, state: State) -> None:
        self.shadow = state
        self.calls = 0
        self.bids: list[str] = []

    def check_views(self) -> None:
        for seat in range(4):
            allowed = allowed_cards(self.shadow, seat)
            assert cards_named(views.view(self.shadow, seat), PACK) <= allowed
            assert cards_named(views.observation(self.shadow, seat), PACK) <= allowed

    def player(self, inner: selfplay.Player) -> selfplay.Player:
        def play(
            observation: dict[str, Any], legal: Sequence[Action], rng: random.Random
        ) -> Action:
            seat = self.shadow.to_act
            assert seat is not None
            # exactly the seat's observation, as plain JSON data: no state, no deck, no seed
            assert observation == views.observation(self.shadow, seat)
            assert json.loads(json.dumps(observation)) == observation
            assert cards_named(observation, PACK) <= allowed_cards(self.shadow, seat)
            assert list(legal) == rules.legal_actions(self.shadow)
            self.check_views()
            action = inner(observation, legal, rng)
            assert action in legal
            if self.shadow.phase == "auction":
                self.bids.append(str(action))
            self.shadow = rules.apply(self.shadow, action)
            self.calls += 1
            return action

        return play


def test_computer_only_hands_never_see_a_hidden_card() -> None:
    rng = random.Random(2026)
    contracts: set[str] = set()
    for n in range(HANDS):
        state = rules.deal_random(rng, dealer=n % 4)
        witness = Witness(state)
        inner = bot.choose if n % 3 else bot.greedy_choose
        players = [witness.player(inner if seat % 2 else bot.choose) for seat in range(4)]
        final = selfplay.play_hand(state, players, rng)
        assert final == witness.shadow
        witness.check_views()  # the stopped hand: unplayed cards stay hidden
        assert witness.calls >= 4
        assert "gros-mulot" not in witness.bids
        contracts.add(str(final.contract))
    # the hands exercised number bids and a solo bid at least
    assert {"5", "mulot"} <= contracts


def test_a_stopped_hand_reveals_no_unplayed_card() -> None:
    rng = random.Random(5)
    for n in range(60):
        final = selfplay.play_hand(rules.deal_random(rng, dealer=n % 4), [bot.choose] * 4, rng)
        if len(final.tricks) == 8:
            continue
        for seat in range(4):
            others = {c for s in range(4) if s != seat for c in final.hands[s]}
            bidder = final.bidder
            assert bidder is not None
            if final.contract == "gros-mulot" and final.tricks[0].winner != bidder:
                others -= set(final.hands[bidder])
            assert not cards_named(views.view(final, seat), PACK) & others


def with_unseen_cards_shuffled(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with the cards ``seat`` does not hold (the other hands and the kitty) dealt
    again at random: what that seat sees of it is the same."""
    unseen = [c for s in range(4) if s != seat for c in state.hands[s]] + list(state.kitty)
    rng.shuffle(unseen)
    hands = []
    for s in range(4):
        if s == seat:
            hands.append(state.hands[s])
        else:
            hands.append(rules.card_order(unseen[:8]))
            unseen = unseen[8:]
    return state._replace(hands=tuple(hands), kitty=tuple(unseen))


def test_an_auction_view_is_the_same_whatever_cards_the_seat_does_not_hold() -> None:
    """During the auction a seat's whole view, its bid refusals and card refusals included, is
    made of its own cards and the public bids: two deals that differ only in the cards it does
    not hold give it the same view, step by step."""
    rng = random.Random(1201)
    refused = 0
    for n in range(120):
        dealt = rules.deal_random(rng, dealer=n % 4)
        for seat in range(4):
            a, b = dealt, with_unseen_cards_shuffled(dealt, seat, rng)
            assert a.hands != b.hands
            while a.phase == "auction":
                view_a = views.view(a, seat)
                assert view_a == views.view(b, seat)
                refused += len(view_a["bid_refusals"])
                action = rng.choice(rules.legal_actions(a))
                a, b = rules.apply(a, action), rules.apply(b, action)
    assert refused > 1000  # the bid refusals were there to compare
