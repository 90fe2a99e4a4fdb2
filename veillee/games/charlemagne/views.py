"""What each seat may see of a Charlemagne hand (rules §12); keys in docs/charlemagne-views.md.

``view(state, seat)`` is everything that seat's screen may show; ``observation(state, seat)`` adds
the history that seat witnessed (every card played, every completed trick) and is all a computer
player gets. Neither ever holds a discard, an unused kitty, a sitting-out partner's hand, a blind
card the seat is not party to, or an unplayed card of a hand that has stopped.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from veillee.cards import SUITS, is_joker

from .rules import (
    LADDER,
    NUMBER_BIDS,
    SEAT_NAMES,
    TRUMPLESS,
    Action,
    State,
    effective_suit,
    legal_actions,
    outcome,
    partner,
    strength,
    team,
    why_illegal,
)


def display_order(cards: Sequence[str], trump: str | None) -> list[str]:
    """``cards`` grouped by effective suit (S, H, D, C, the trumps or the jokers last), strongest
    first within a group.

    >>> display_order(["7H", "JD", "AS", "BJ", "KD"], "H")
    ['AS', 'KD', 'BJ', 'JD', '7H']
    """
    groups = [s for s in SUITS if s != trump]
    if trump is not None:
        groups.append(trump)

    def key(card: str) -> tuple[int, int]:
        eff = effective_suit(card, trump)
        if is_joker(card) and trump is None:
            return (len(SUITS), -strength(card, None))
        return (groups.index(eff), -strength(card, trump))

    return sorted(cards, key=key)


def _trick_cards(cards: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    return [{"seat": s, "card": c} for s, c in cards]


def bid_refusals(state: State, seat: int) -> dict[str, str]:
    """During the auction, every answer of the ladder (``"pass"``, ``"5"`` … as in
    ``view()["ladder"]``) that ``seat`` may not give now -> the reason code of
    :func:`~veillee.games.charlemagne.rules.why_illegal` (``"bid_too_low"``, ``"dealer_must_bid"``,
    ``"not_your_turn"`` for every answer while another seat bids); ``{}`` once the auction is
    over. Rules §4. The reasons rest on the bids made and whose turn it is, which every seat sees.

    >>> from veillee.cards import PIQUET_JOKERS_34
    >>> from .rules import apply, deal
    >>> s = apply(deal(list(PIQUET_JOKERS_34), dealer=0), Action.bid("6"))
    >>> bid_refusals(s, 2)
    {'5': 'bid_too_low', '6': 'bid_too_low'}
    """
    if state.phase != "auction":
        return {}
    answers = [Action.pass_(), *(Action.bid(b) for b in LADDER)]
    refused = {str(a): why_illegal(state, seat, a) for a in answers}
    return {answer: reason for answer, reason in refused.items() if reason is not None}


def view(state: State, seat: int) -> dict[str, Any]:
    """The JSON-ready view of ``seat`` (0–3), exactly rules §12. Keys: docs/charlemagne-views.md.

    Raises ValueError for a seat outside 0–3.
    """
    if seat not in range(4):
        raise ValueError("seat must be 0..3")
    bidder = state.bidder
    out = state.sitting_out
    is_bidder = bidder is not None and seat == bidder
    blind_party = bidder is not None and seat in (bidder, partner(bidder))
    tricks_won = [0, 0]
    bidder_tricks = 0
    for t in state.tricks:
        tricks_won[team(t.winner)] += 1
        if t.winner == bidder:
            bidder_tricks += 1
    last = state.tricks[-1] if state.tricks else None
    legal = [str(a) for a in legal_actions(state)] if state.to_act == seat else []
    refusals: dict[str, str] = {}
    for card in state.hands[seat]:
        reason = why_illegal(state, seat, Action.play(card))
        if reason is not None:
            refusals[card] = reason
    return {
        "seat": seat,
        "seat_names": list(SEAT_NAMES),
        "teams": [team(s) for s in range(4)],
        "ladder": ["pass", *LADDER],
        "dealer": state.dealer,
        "phase": state.phase,
        "to_act": state.to_act,
        "bids": [{"seat": s, "bid": b} for s, b in state.bids],
        "contract": state.contract,
        "contract_kind": None
        if state.contract is None
        else "number"
        if state.contract in NUMBER_BIDS
        else "mulot"
        if state.contract in TRUMPLESS
        else "charlemagne",
        "bidder": bidder,
        "sitting_out": out,
        "choice": state.choice,
        "trump": state.trump,
        "hand": display_order(state.hands[seat], state.trump),
        "hand_suits": {card: effective_suit(card, state.trump) for card in state.hands[seat]},
        "hand_counts": [len(h) for h in state.hands],
        "kitty_count": 0 if state.kitty_taken else 2,
        "kitty": list(state.kitty) if is_bidder and state.kitty_taken else None,
        "discards": list(state.discards) if is_bidder and state.discards else None,
        "card_passed": state.blind is not None,
        "blind_card": state.blind if blind_party and state.blind is not None else None,
        "trick_number": min(len(state.tricks) + 1, 8)
        if state.phase == "play"
        else len(state.tricks),
        "trick": _trick_cards(state.trick),
        "led_suit": effective_suit(state.trick[0][1], state.trump) if state.trick else None,
        "last_trick": (
            {"cards": _trick_cards(last.cards), "winner": last.winner} if last is not None else None
        ),
        "tricks_won": tricks_won,
        "stopped_early": state.phase == "over" and len(state.tricks) < 8,  # §10
        "bidder_tricks": bidder_tricks
        if bidder is not None and state.contract not in NUMBER_BIDS
        else None,
        "opponent_tricks": len(state.tricks) - bidder_tricks
        if bidder is not None and state.contract not in NUMBER_BIDS
        else None,
        "spread": (
            display_order(state.hands[bidder], None)
            if state.spread and bidder is not None
            else None
        ),
        "legal": legal,
        "refusals": refusals,
        "bid_refusals": bid_refusals(state, seat),
        "outcome": outcome(state),
    }


def observation(state: State, seat: int) -> dict[str, Any]:
    """``view(state, seat)`` plus the history it witnessed; all a computer player may use.

    Extra keys: ``plays`` (every card played, in order: trick number, seat, card) and ``tricks``
    (every completed trick: number, cards, winner).
    """
    obs = view(state, seat)
    plays: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    for n, t in enumerate(state.tricks, start=1):
        plays += [{"trick": n, "seat": s, "card": c} for s, c in t.cards]
        tricks.append({"trick": n, "cards": _trick_cards(t.cards), "winner": t.winner})
    current = len(state.tricks) + 1
    plays += [{"trick": current, "seat": s, "card": c} for s, c in state.trick]
    obs["plays"] = plays
    obs["tricks"] = tricks
    return obs


SEAT_PARTS = ("hand", "kitty", "discards", "blind_card", "legal", "refusals", "bid_refusals")
"""Parts of :func:`view` that belong to one seat's screen; :func:`spectator_view` shows every
hand instead."""


def spectator_view(state: State) -> dict[str, Any]:
    """The whole hand, every hand face up, for a table nobody plays (a demonstration, where the
    computer holds all four seats): never sent to a seat of a table a person plays.

    The keys of :func:`view` except the one seat's parts (``seat`` is ``None``; no ``legal``,
    ``refusals`` or ``bid_refusals``), plus ``hands`` (all four, in display order), ``kitty``
    (the two cards, once the auction is over), ``discards`` (the bidder's), ``blind_card`` (the
    card passed blind, or ``None``), and ``plays`` and ``tricks`` as in :func:`observation`.
    """
    out = {k: v for k, v in observation(state, 0).items() if k not in SEAT_PARTS}
    out["seat"] = None
    out["hands"] = [display_order(h, state.trump) for h in state.hands]
    out["kitty"] = list(state.kitty) if state.phase != "auction" else None
    out["discards"] = list(state.discards)
    out["blind_card"] = state.blind
    return out
