"""What rules §12 lets a seat see, computed from the state independently of ``views``."""

from __future__ import annotations

import json
import re
from typing import Any

from veillee.cards import PIQUET_JOKERS_34
from veillee.games.charlemagne.rules import State, partner

CARDS = frozenset(PIQUET_JOKERS_34)


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


_WORD = re.compile(r"\w+")


def cards_in(value: Any) -> set[str]:
    """Every card code appearing anywhere in a JSON-like value: strings, words of strings
    (action texts such as ``"discard 7C 8D"``) and dict keys.

    Reads the JSON text of ``value`` once (fast enough to scan every view of hundreds of
    hands); a card code standing as a word anywhere in it counts, which is never less than
    the words of its strings and keys."""
    return set(_WORD.findall(json.dumps(value))) & CARDS


def accounted(state: State) -> list[str]:
    """Every card wherever it lies: hands, kitty left in the middle, discards, tricks."""
    cards = [c for h in state.hands for c in h]
    if not state.kitty_taken:
        cards += list(state.kitty)
    cards += list(state.discards) + list(state.out_discards)
    cards += [c for t in state.tricks for _, c in t.cards] + [c for _, c in state.trick]
    return cards
