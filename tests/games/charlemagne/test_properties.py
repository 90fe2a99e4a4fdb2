"""Hypothesis properties of the Charlemagne engine over random hands (rules §3–§12)."""

from __future__ import annotations

import itertools
import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from veillee.cards import PIQUET_JOKERS_34, SUITS
from veillee.games import IllegalAction
from veillee.games.charlemagne import POINTS, REASONS, bot, match, rules, views
from veillee.games.charlemagne.rules import LADDER, Action, State

from .seen import accounted, allowed_cards, cards_in

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_hand(seed: int, computer_share: float = 0.5) -> list[State]:
    """Every state of one hand, played by a mix of random moves and the computer player."""
    rng = random.Random(seed)
    state = rules.deal_random(rng, dealer=rng.randrange(4))
    states = [state]
    while state.to_act is not None:
        legal = rules.legal_actions(state)
        if rng.random() < computer_share:
            action = bot.choose(views.observation(state, state.to_act), legal, rng)
        else:
            action = rng.choice(legal)
        state = rules.apply(state, action)
        states.append(state)
    return states


def candidate_actions(state: State) -> list[Action]:
    """Legal and illegal actions of every kind worth trying at ``state``."""
    cands = [Action.pass_(), *(Action.bid(b) for b in LADDER)]
    cands += [Action.choose("kitty"), Action.choose("card")]
    cands += [Action.give(c) for c in PIQUET_JOKERS_34]
    cands += [Action.play(c) for c in PIQUET_JOKERS_34]
    cands += [Action.trump(s) for s in SUITS]
    seat = state.to_act
    hand = state.hands[seat] if seat is not None else ()
    for n in (1, 2, 3):
        cands += [Action.discard(combo) for combo in itertools.combinations(hand, n)]
    cands.append(Action.discard(["7S", "7S"]))
    cands += malformed_actions(state)
    return cands


def malformed_actions(state: State) -> list[Action]:
    """Actions no text parses to: a legal action carrying a stray value or stray cards."""
    out: list[Action] = []
    for action in rules.legal_actions(state)[:3]:
        out.append(Action(action.kind, action.value or "x", action.cards))
        out.append(Action(action.kind, action.value, (*action.cards, "AS")))
    return out


@SETTINGS
@given(st.integers(0, 2**32))
def test_all_34_cards_are_always_accounted_for(seed: int) -> None:
    for state in random_hand(seed):
        assert sorted(accounted(state)) == sorted(PIQUET_JOKERS_34)


@SETTINGS
@given(st.integers(0, 2**32))
def test_exactly_one_team_scores_each_hand_what_the_contract_is_worth(seed: int) -> None:
    final = random_hand(seed)[-1]
    out = rules.outcome(final)
    assert out is not None
    bidding_team = rules.team(out["bidder"])
    made_pts, fail_pts = POINTS[out["contract"]]
    if out["made"]:
        assert (out["scoring_team"], out["points"]) == (bidding_team, made_pts)
    else:
        assert (out["scoring_team"], out["points"]) == (1 - bidding_team, fail_pts)
    assert sum(out["tricks"]) == len(final.tricks) <= 8


@SETTINGS
@given(st.integers(0, 2**32))
def test_views_and_observations_never_hold_a_hidden_card(seed: int) -> None:
    for state in random_hand(seed):
        for seat in range(4):
            allowed = allowed_cards(state, seat)
            view = views.view(state, seat)
            assert cards_in(view) <= allowed
            assert cards_in(views.observation(state, seat)) <= allowed
            assert sorted(view["hand"]) == sorted(state.hands[seat])


@SETTINGS
@given(st.integers(0, 2**32))
def test_state_and_views_round_trip_through_json(seed: int) -> None:
    for state in random_hand(seed):
        assert rules.from_json(json.loads(json.dumps(rules.to_json(state)))) == state
        for seat in range(4):
            view = views.observation(state, seat)
            assert json.loads(json.dumps(view)) == view


@SETTINGS
@given(st.integers(0, 2**32))
def test_why_illegal_is_none_exactly_for_the_legal_actions(seed: int) -> None:
    for state in random_hand(seed, computer_share=0.7)[:-1]:
        seat = state.to_act
        assert seat is not None
        legal = set(rules.legal_actions(state))
        assert len(legal) == len(rules.legal_actions(state))
        for action in candidate_actions(state):
            reason = rules.why_illegal(state, seat, action)
            assert (reason is None) == (action in legal), (str(action), reason)
            if reason is not None:
                assert reason in REASONS
            for other in range(4):
                if other != seat:
                    assert rules.why_illegal(state, other, action) == "not_your_turn"
        for action in legal:
            assert Action.parse(str(action)) == action


@SETTINGS
@given(st.integers(0, 2**32))
def test_apply_of_an_illegal_action_raises_and_changes_nothing(seed: int) -> None:
    for state in random_hand(seed, computer_share=0.7):
        before = json.dumps(rules.to_json(state))
        seat = state.to_act
        for action in candidate_actions(state)[::3]:
            reason = rules.why_illegal(state, -1 if seat is None else seat, action)
            if reason is None:
                continue
            try:
                rules.apply(state, action)
            except IllegalAction as err:
                assert err.reason == reason
            else:
                raise AssertionError(f"{action} was applied")
            assert json.dumps(rules.to_json(state)) == before


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32))
def test_match_runs_to_32_with_the_deal_passing_left(seed: int) -> None:
    rng = random.Random(seed)
    m = match.new_match(rng, {})
    first = m.dealer
    while not match.is_over(m):
        if match.deal_over(m):
            m = match.next_deal(m, rng)
            assert m.dealer == (first + m.hand - 1) % 4
        seat = match.to_act(m)
        assert seat is not None
        action = bot.choose(match.observation(m, seat), match.legal_actions(m), rng)
        m = match.apply(m, action)
        assert match.from_json(json.loads(json.dumps(match.to_json(m)))) == m
    winner = match.winner(m)
    assert winner is not None and m.scores[winner] >= 32 and m.scores[1 - winner] < 32
    assert sum(r["points"] for r in m.results) == sum(m.scores)
    assert match.why_illegal(m, 0, Action.pass_()) == "match_over"


def test_design_2_why_illegal_refuses_an_action_with_stray_fields() -> None:
    # DESIGN §2: why_illegal is None exactly for the members of legal_actions, and apply
    # refuses the rest; an Action built by hand with a stray value or card is not a legal action
    s = rules.deal(list(PIQUET_JOKERS_34), dealer=0)
    for stray in (Action("bid", "5", ("AS",)), Action("pass", "x"), Action("pass", cards=("AS",))):
        assert stray not in rules.legal_actions(s)
        assert rules.why_illegal(s, 1, stray) == "unknown_action"
        try:
            rules.apply(s, stray)
        except IllegalAction as err:
            assert err.reason == "unknown_action"
        else:
            raise AssertionError(f"{stray!r} was applied")
    for text in ["pass", "pass", "pass", "5"]:
        s = rules.apply(s, Action.parse(text))
    s = rules.apply(s, rules.legal_actions(s)[0])
    s = rules.apply(s, Action.parse("trump H"))
    card = rules.legal_actions(s)[0].card
    assert rules.why_illegal(s, 1, Action("play", "x", (card,))) == "unknown_action"
    assert rules.why_illegal(s, 1, Action.play(card)) is None


def test_every_action_text_round_trips() -> None:
    texts = ["pass", *LADDER, "kitty", "card", "give AS", "discard 7C 8D", "discard 7C 8D BJ"]
    texts += ["trump H", "AS", "BJ", "LJ", "TD"]
    for text in texts:
        assert str(Action.parse(text)) == text
    for bad in ["", "bid", "9", "give", "trump X", "ZZ", "discard 7C 1X", "give AS KS"]:
        try:
            Action.parse(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")
