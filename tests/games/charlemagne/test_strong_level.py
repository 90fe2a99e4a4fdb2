"""The strong computer level of Charlemagne (issue 24): it sees its observation only, plays only
legal actions in every phase, chooses the same with the same rng, and plays out with the usual
level."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from veillee.games.charlemagne import bot, rules, search, views
from veillee.games.charlemagne.rules import LADDER, Action, State

BUDGET = 3
"""Sampled deals a decision in these tests: small, so that they stay quick."""

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def strong(state: State, rng: random.Random, budget: int = BUDGET) -> Action:
    seat = state.to_act
    assert seat is not None
    obs = views.observation(state, seat)
    return bot.choose(obs, rules.legal_actions(state), rng, level="strong", budget=budget)


def forced(state: State, contract: str, bidder: int) -> State:
    """``state`` (a fresh deal) through an auction where ``bidder`` bids ``contract`` and every
    other seat passes."""
    while state.phase == "auction":
        seat = state.to_act
        state = rules.apply(state, Action.bid(contract) if seat == bidder else Action.pass_())
    return state


def hidden_swapped(state: State, seat: int, rng: random.Random) -> State:
    """``state`` with the cards ``seat`` cannot see dealt again among the places it cannot see
    into (the other hands still playing, an unused kitty, the sitting-out partner's hand, the
    bidder's discards when ``seat`` is not the bidder), each place keeping its size."""
    hands = [list(h) for h in state.hands]
    places: list[list[str]] = [
        hands[s] for s in range(4) if s != seat and not (state.spread and s == state.bidder)
    ]
    kitty = list(state.kitty) if not state.kitty_taken else None
    if kitty is not None:
        places.append(kitty)
    out = list(state.out_discards)
    places.append(out)
    discards = list(state.discards) if seat != state.bidder else None
    if discards is not None:
        places.append(discards)
    cards = [c for p in places for c in p]
    rng.shuffle(cards)
    for place in places:
        place[:], cards = cards[: len(place)], cards[len(place) :]
    return state._replace(
        hands=tuple(rules.card_order(h) for h in hands),
        kitty=tuple(kitty) if kitty is not None else state.kitty,
        out_discards=tuple(out),
        discards=tuple(discards) if discards is not None else state.discards,
    )


def test_an_unknown_level_is_refused() -> None:
    state = rules.deal_random(random.Random(1), dealer=0)
    obs = views.observation(state, 1)
    with pytest.raises(ValueError, match="unknown level"):
        bot.choose(obs, rules.legal_actions(state), random.Random(1), level="hard")
    assert bot.LEVELS == ("usual", "strong")


def test_a_budget_below_one_deal_is_refused() -> None:
    state = rules.deal_random(random.Random(1), dealer=0)
    obs = views.observation(state, 1)
    with pytest.raises(ValueError, match="budget"):
        bot.choose(obs, rules.legal_actions(state), random.Random(1), level="strong", budget=0)


@settings(max_examples=12)
@given(seed=seeds, contract=st.sampled_from(LADDER), bidder=st.integers(0, 3))
def test_strong_plays_only_legal_actions_in_every_phase(
    seed: int, contract: str, bidder: int
) -> None:
    rng = random.Random(seed)
    dealer = seed % 4
    state = rules.deal_random(rng, dealer=dealer)
    # half the hands bid freely (the strong level in the auction), half reach the contract drawn
    if seed % 2:
        state = forced(state, contract, bidder)
    while state.to_act is not None:
        action = strong(state, rng)
        assert action in rules.legal_actions(state)
        state = rules.apply(state, action)
    assert rules.outcome(state) is not None


@settings(max_examples=12)
@given(seed=seeds, contract=st.sampled_from(LADDER), bidder=st.integers(0, 3))
def test_strong_never_looks_past_its_observation(seed: int, contract: str, bidder: int) -> None:
    """Two states that differ only in cards the seat cannot see: the same choice with the same
    rng, at every decision of a hand."""
    rng = random.Random(seed)
    state = rules.deal_random(rng, dealer=seed % 4)
    if seed % 2:
        state = forced(state, contract, bidder)
    while state.to_act is not None:
        seat = state.to_act
        other = hidden_swapped(state, seat, rng)
        assert views.observation(other, seat) == views.observation(state, seat)
        pick = rng.randrange(10**9)
        assert strong(other, random.Random(pick)) == strong(state, random.Random(pick))
        state = rules.apply(state, strong(state, rng))


def test_the_same_rng_gives_the_same_choice() -> None:
    rng = random.Random(24)
    decisions = 0
    for n in range(4):
        state = forced(rules.deal_random(rng, dealer=n), LADDER[n * 2], n)
        while state.to_act is not None:
            first = strong(state, random.Random(n), budget=6)
            assert strong(state, random.Random(n), budget=6) == first
            decisions += 1
            state = rules.apply(state, first)
    assert decisions > 12


def test_the_playouts_play_the_usual_level() -> None:
    """The search's playout policy is the usual level reading only the seat's own part."""
    rng = random.Random(7)
    checked = 0
    for n in range(60):
        state = rules.deal_random(rng, dealer=n % 4)
        if n % 3:
            state = forced(state, LADDER[n % len(LADDER)], n % 4)
        while state.to_act is not None:
            seat = state.to_act
            legal = rules.legal_actions(state)
            usual = bot.choose(views.observation(state, seat), legal)
            assert search._usual_action(state) == usual
            checked += 1
            state = rules.apply(state, usual)
    assert checked > 500
