"""Building decks and positions for Charlemagne tests (rules §3 canonical deal order)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from veillee.cards import PIQUET_JOKERS_34
from veillee.games.charlemagne import rules
from veillee.games.charlemagne.rules import Action, State


def deck_for(
    dealer: int,
    hands: Mapping[int, Sequence[str]],
    kitty: Sequence[str] = (),
) -> list[str]:
    """The 34-card deck (top first) that deals ``hands`` (seat -> 8 cards) and ``kitty`` when
    ``dealer`` deals; seats and kitty cards not given are filled from the rest of the pack in
    pack order."""
    used = [c for h in hands.values() for c in h] + list(kitty)
    assert len(set(used)) == len(used), "a card is named twice"
    rest = [c for c in PIQUET_JOKERS_34 if c not in used]
    full: dict[int, list[str]] = {}
    for seat in range(4):
        given = list(hands.get(seat, ()))
        assert len(given) in (0, 8)
        if not given:
            given, rest = rest[:8], rest[8:]
        full[seat] = given
    kit = list(kitty) or rest[:2]
    deck = [""] * 34
    for r in range(4):
        for k in range(1, 5):
            seat = (dealer + k) % 4
            base = 8 * r + 2 * (k - 1)
            deck[base], deck[base + 1] = full[seat][2 * r], full[seat][2 * r + 1]
    deck[32], deck[33] = kit
    return deck


def play(state: State, script: Iterable[str]) -> State:
    """``state`` after the actions written in ``script`` (text notation), in turn."""
    for text in script:
        state = rules.apply(state, Action.parse(text))
    return state


def position(
    hands: Mapping[int, Sequence[str]],
    trick: Sequence[tuple[int, str]],
    to_act: int,
    contract: str = "5",
    bidder: int = 0,
    trump: str | None = "H",
) -> State:
    """A play-phase position for legality tests: only the hands named matter."""
    full = tuple(rules.card_order(hands.get(seat, ())) for seat in range(4))
    return State(
        dealer=3,
        hands=full,
        kitty=(),
        phase="play",
        to_act=to_act,
        contract=contract,
        bidder=bidder,
        trump=trump,
        trick=tuple(trick),
    )


def cards_of(actions: Iterable[Action]) -> set[str]:
    """The card texts of a list of play actions."""
    return {str(a) for a in actions}
