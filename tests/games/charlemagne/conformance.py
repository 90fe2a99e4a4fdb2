"""What the conformance suite (``tests/games/test_contract.py``) needs to know of Charlemagne
beyond the contract: where each card lies, which cards a seat may see (rules §12), computed here
from the state independently of ``views.py``, and the actions worth trying at any state."""

from __future__ import annotations

import itertools
from typing import Any

from veillee.cards import PIQUET_JOKERS_34, SUITS
from veillee.games.charlemagne import rules
from veillee.games.charlemagne.rules import LADDER, Action, State, partner

PACK: tuple[str, ...] = PIQUET_JOKERS_34

NOT_SCANNED: frozenset[str] = frozenset()
"""Observation keys naming cards the seat has not seen: none."""


def candidate_actions(state: State) -> list[Action]:
    """Legal and illegal actions of every kind worth trying at ``state``."""
    cands = [Action.pass_(), *(Action.bid(b) for b in LADDER)]
    cands += [Action.choose("kitty"), Action.choose("card")]
    cands += [Action.give(c) for c in PACK]
    cands += [Action.play(c) for c in PACK]
    cands += [Action.trump(s) for s in SUITS]
    seat = state.to_act
    hand = state.hands[seat] if seat is not None else ()
    for n in (1, 2, 3):
        cands += [Action.discard(combo) for combo in itertools.combinations(hand, n)]
    cands.append(Action.discard(["7S", "7S"]))
    # Actions no text parses to: a legal action carrying a stray value or stray cards.
    for action in rules.legal_actions(state)[:3]:
        cands.append(Action(action.kind, action.value or "x", action.cards))
        cands.append(Action(action.kind, action.value, (*action.cards, "AS")))
    return cands


def allowed_cards(state: State, seat: int) -> set[str]:
    """Every card ``seat`` may see now: its hand, every card played, the kitty it took and its
    own discards (bidder), the blind card (bidder and partner), a Gros Mulot spread."""
    allowed = set(state.hands[seat])
    allowed |= {c for t in state.tricks for _, c in t.cards}
    allowed |= {c for _, c in state.trick}
    if state.bidder is not None:
        if seat == state.bidder:
            if state.kitty_taken:
                allowed |= set(state.kitty)
            allowed |= set(state.discards)
        if state.blind is not None and seat in (state.bidder, partner(state.bidder)):
            allowed.add(state.blind)
        # rules §8: face up once trick 1 is complete and was not the bidder's (which stops it)
        if (
            state.contract == "gros-mulot"
            and state.tricks
            and state.tricks[0].winner != state.bidder
        ):
            allowed |= set(state.hands[state.bidder])
    return allowed


def places(state: State) -> list[str]:
    """Every card wherever it lies: hands, kitty left in the middle, discards, tricks."""
    cards = [c for h in state.hands for c in h]
    if not state.kitty_taken:
        cards += list(state.kitty)
    cards += list(state.discards) + list(state.out_discards)
    cards += [c for t in state.tricks for _, c in t.cards] + [c for _, c in state.trick]
    return cards


def won_in_one_deal(match: Any) -> bool:
    """Whether ``match``, over after its first hand, may be: when that hand alone scored the
    target (rules §11: a made Gros Charlemagne scores 32)."""
    return bool(match.results) and match.results[0]["points"] >= match.options["target"]
