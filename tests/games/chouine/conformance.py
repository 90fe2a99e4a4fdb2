"""What the conformance suite (``tests/games/test_contract.py``) needs to know of Chouine beyond
the contract: where each card lies, which cards a seat may see (rules §10), computed here from the
state independently of ``views.py``, and the actions worth trying at any state."""

from __future__ import annotations

from typing import Any

from veillee.games.chouine import rules
from veillee.games.chouine.rules import (
    CARD_CODES,
    CONTINUE_ACTION,
    KINDS,
    PLAY_ACTIONS,
    SWAP_ACTION,
    Action,
    State,
)

PACK: tuple[str, ...] = rules.PACK

NOT_SCANNED: frozenset[str] = frozenset({"unseen"})
"""Observation keys naming cards the seat has *not* seen, which it can work out itself."""

EVERY_ACTION: list[Action] = [
    *(a for row in PLAY_ACTIONS for a in row),
    SWAP_ACTION,
    CONTINUE_ACTION,
    # Malformed actions no text parses to: never legal.
    Action("play", "ZZ"),
    Action("play", "JH", "belote"),
    Action("dance"),
    Action("swap", "7H"),
]
"""Every well-formed action (each card plain and with each declaration kind, swap, continue)
and a few malformed ones."""


def candidate_actions(state: State) -> list[Action]:
    """Legal and illegal actions worth trying at ``state``."""
    return EVERY_ACTION


def places(state: State) -> list[str]:
    """Every card where it lies: hands, talon, turn-up, the open trick, piles."""
    cards = [*rules.cards_in(state.hands[0]), *rules.cards_in(state.hands[1]), *state.talon]
    cards += [*state.trick, *rules.cards_in(state.piles[0]), *rules.cards_in(state.piles[1])]
    if state.turn_up >= 0:
        cards.append(state.turn_up)
    return [CARD_CODES[c] for c in cards]


def allowed_cards(state: State, seat: int) -> set[str]:
    """Every card ``seat`` may see (rules §10): all but the talon and the opponent's hand, except
    the cards of that hand shown in a declaration whose trick is complete (§5.2) or in the
    chouine that ended the partie (§9), and the turn-ups it took."""
    opponent = 1 - seat
    shown = 0
    for d in state.declarations:
        won_by_chouine = KINDS[d[1]] == "chouine" and state.chouine == opponent
        if d[0] == opponent and (len(state.tricks) >= d[5] or won_by_chouine):
            shown |= d[4]
    for t in state.taken_turn_ups:
        if t[0] == opponent:
            shown |= 1 << t[1]
    hidden = rules.code_list(state.hands[opponent] & ~shown) + rules.code_list(
        sum(1 << c for c in state.talon)
    )
    return set(PACK) - set(hidden)


def won_in_one_deal(match: Any) -> bool:
    """Whether ``match``, over after its first partie, may be: never (rules §2: the first to win 2
    or 3 parties; §9: a chouine wins its partie, not the match)."""
    return False
