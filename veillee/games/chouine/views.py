"""What each seat may see of a partie: ``view`` and ``observation`` (docs/chouine-views.md).

Implements rules/chouine.md §10 (what each seat may see) and §5.2 (announcement at play, reveal
of the other cards when the trick is complete). Nothing here holds a card of the opponent's hand
that was not shown, nor any card of the talon.
"""

from __future__ import annotations

from typing import Any

from veillee.games.chouine.rules import (
    BRISQUES,
    CARD_CODES,
    CARD_INDEX,
    CHOUINE,
    DIX_DE_DER,
    HOW,
    KINDS,
    POINTS,
    QUINTE,
    SUIT_LETTERS,
    State,
    card_refusal,
    code_list,
    declaration_options,
    display_order,
    legal_actions,
    outcome,
    phase,
)


def _declaration_shown(state: State, completed: int, seat: int, kind: int, trick: int) -> bool:
    """True once the other cards of a declaration are shown to the opponent: when its trick is
    complete (rules §5.2; ``completed`` tricks are), or for the chouine that ended the partie
    (§9). A chouine ends the partie without resolving its trick, so the other declarations of
    that trick stay unshown: the opponent's remaining hand is not revealed (§9)."""
    return completed >= trick or (kind == CHOUINE and state.chouine == seat)


def _declarations(state: State, completed: int) -> list[list[dict[str, Any]]]:
    out: list[list[dict[str, Any]]] = [[], []]
    for seat, kind, suit, points, combo, trick, card in state.declarations:
        if _declaration_shown(state, completed, seat, kind, trick):
            shown = code_list(combo)
        else:
            shown = [CARD_CODES[card]]
        if len(shown) > 1:
            # The card played first, then the others as shown (rules §5.2).
            shown = [CARD_CODES[card]] + [c for c in shown if c != CARD_CODES[card]]
        out[seat].append(
            {
                "kind": KINDS[kind],
                "suit": SUIT_LETTERS[suit] if suit >= 0 else None,
                "points": points,
                "cards": shown,
            }
        )
    return out


def _play_declaration(
    declarations: tuple[tuple[int, int, int, int, int, int, int], ...], trick: int, seat: int
) -> dict[str, Any] | None:
    for d in declarations:
        if d[5] == trick and d[0] == seat:
            return {
                "kind": KINDS[d[1]],
                "suit": SUIT_LETTERS[d[2]] if d[2] >= 0 else None,
                "points": d[3],
            }
    return None


def _trick_in_play(state: State) -> list[dict[str, Any]]:
    out = []
    seat = state.leader
    declarations = state.declarations
    for card in state.trick:
        out.append(
            {
                "seat": seat,
                "card": CARD_CODES[card],
                "declaration": _play_declaration(declarations, state.trick_number, seat),
            }
        )
        seat = 1 - seat
    return out


def _trick_cards(t: tuple[int, int, int, int]) -> list[dict[str, Any]]:
    return [{"seat": t[0], "card": CARD_CODES[t[1]]}, {"seat": 1 - t[0], "card": CARD_CODES[t[2]]}]


def _card_choices(state: State, seat: int, legal: list[str]) -> dict[str, list[dict[str, Any]]]:
    """For each card ``seat`` may play now, the ways to play it in the order a page offers them:
    each declaration the card may carry (a chouine first, then by points, highest first: rules
    §5.2), then the plain play. Each way is ``{"action", "declaration"}``, the declaration
    ``{"kind", "suit" (None for a quinte), "points"}`` or ``None``. Empty when ``legal`` holds
    no card (not ``seat``'s turn, or the seven prompt)."""
    hand = state.hands[seat]
    allowed = set(legal)
    options = (state.declared_suits[seat], state.quinte_declared[seat], state.trump)
    out: dict[str, list[dict[str, Any]]] = {}
    for card in display_order(hand, state.trump):
        code = CARD_CODES[card]
        ways: list[dict[str, Any]] = []
        for kind, points, _ in declaration_options(hand, card, *options):
            action = f"{code} {KINDS[kind]}"
            if action in allowed:
                suit = None if kind == QUINTE else SUIT_LETTERS[card >> 3]
                declaration = {"kind": KINDS[kind], "suit": suit, "points": points}
                ways.append({"action": action, "declaration": declaration})
        if code in allowed:
            ways.append({"action": code, "declaration": None})
        if ways:
            out[code] = ways
    return out


def _dix_de_der_points(result: dict[str, Any]) -> int | None:
    """Points the dix de der scored in a counted partie (rules §7), ``None`` after a chouine
    (no count)."""
    return None if result.get("dix_de_der") is None else DIX_DE_DER


def view(state: State, seat: int) -> dict[str, Any]:
    """Everything ``seat``'s screen may show now, JSON-ready (docs/chouine-views.md, rules §10).

    Raises ``ValueError`` for a seat other than 0 or 1.
    """
    if seat not in (0, 1):
        raise ValueError("seat must be 0 or 1")
    over = state.to_act is None
    hands = state.hands
    hand = hands[seat]
    tricks = state.tricks  # (read once: the state works it out at each reading)
    trump = state.trump
    last_trick = None
    if tricks and not state.trick:
        t = tricks[-1]
        last_trick = {"cards": _trick_cards(t), "winner": t[3]}
    opponent = 1 - seat
    opponent_last = None
    for t in reversed(tricks):
        if t[3] == opponent:
            opponent_last = [CARD_CODES[t[1]], CARD_CODES[t[2]]]
            break
    legal = [str(a) for a in legal_actions(state)] if state.to_act == seat else []
    won_by_1 = sum(t[3] for t in tricks)  # tricks taken by seat 1 (the winner is 0 or 1)
    refusals: dict[str, str] = {}
    for c in display_order(hand, trump):
        reason = card_refusal(state, seat, c)
        if reason is not None:
            refusals[CARD_CODES[c]] = reason
    result: dict[str, Any] | None = None
    if over:
        result = dict(outcome(state) or {})
        result["piles"] = [code_list(p) for p in state.piles]
        chouine_cards = None
        if state.chouine is not None:
            for d in state.declarations:
                if d[0] == state.chouine and KINDS[d[1]] == "chouine":
                    chouine_cards = [CARD_CODES[c] for c in display_order(d[4], trump)]
        result["chouine_cards"] = chouine_cards
        result["dix_de_der_points"] = _dix_de_der_points(result)
    turn_up = state.turn_up
    return {
        "seat": seat,
        "dealer": state.dealer,
        "trump": SUIT_LETTERS[trump],
        "turn_up": CARD_CODES[turn_up] if turn_up >= 0 else None,
        "talon_count": len(state.talon),
        "trick_number": state.trick_number,
        "phase": phase(state),
        "to_act": state.to_act,
        "prompt": "seven" if state.prompt else None,
        "hand": [CARD_CODES[c] for c in display_order(hand, trump)],
        "hand_counts": [hands[0].bit_count(), hands[1].bit_count()],
        "trick": _trick_in_play(state),
        "last_trick": last_trick,
        "declarations": _declarations(state, len(tricks)),
        "declared_suits": [
            [SUIT_LETTERS[s] for s in range(4) if m >> s & 1] for m in state.declared_suits
        ],
        "quinte_declared": list(state.quinte_declared),
        "piles": [len(tricks) - won_by_1, won_by_1],
        "own_tricks": [[CARD_CODES[t[1]], CARD_CODES[t[2]]] for t in tricks if t[3] == seat],
        "opponent_last_trick": opponent_last,
        "taken_turn_ups": [
            {"seat": t[0], "card": CARD_CODES[t[1]], "how": HOW[t[2]]} for t in state.taken_turn_ups
        ],
        "legal": legal,
        "card_choices": _card_choices(state, seat, legal),
        "refusals": refusals,
        "outcome": result,
    }


def opponent_known_mask(state: State, seat: int) -> int:
    """Mask of the cards ``seat`` knows to be in the opponent's hand now: cards of its shown
    declarations and turn-ups it took, not played since (rules §5.2, §6, §10)."""
    piles = state.piles
    return _opponent_known(state, seat, piles[0] | piles[1])


def _opponent_known(state: State, seat: int, won: int) -> int:
    """:func:`opponent_known_mask`, the cards of the piles (``won``) given."""
    opponent = 1 - seat
    played = won
    for c in state.trick:
        played |= 1 << c
    known = 0
    completed = len(state.tricks_and_draws)
    for d in state.declarations:
        if d[0] == opponent and _declaration_shown(state, completed, d[0], d[1], d[5]):
            known |= d[4]
    for t in state.taken_turn_ups:
        if t[0] == opponent:
            known |= 1 << t[1]
    return known & ~played


def unseen_mask(state: State, seat: int) -> int:
    """Mask of the cards ``seat`` has never seen: not in its hand, never played, not the turn-up,
    not known in the opponent's hand. Once the talon is empty the opponent's hand is exactly
    ``opponent_known_mask | unseen_mask``."""
    piles = state.piles
    won = piles[0] | piles[1]
    seen = state.hands[seat] | won | _opponent_known(state, seat, won)
    for c in state.trick:
        seen |= 1 << c
    turn_up = state.turn_up
    if turn_up >= 0:
        seen |= 1 << turn_up
    for t in state.taken_turn_ups:
        seen |= 1 << t[1]
    return ((1 << 32) - 1) & ~seen


def observation(state: State, seat: int) -> dict[str, Any]:
    """:func:`view` plus what ``seat`` has witnessed: ``plays``, ``tricks``, ``drawn``,
    ``opponent_known`` and ``unseen`` (docs/chouine-views.md). Computer players decide from this
    only; it holds nothing ``seat`` did not see."""
    obs = view(state, seat)
    plays: list[dict[str, Any]] = []
    tricks: list[dict[str, Any]] = []
    declarations = state.declarations
    for i, t in enumerate(state.tricks, start=1):  # (``state.tricks`` is worked out: read once)
        leader = t[0]
        for player, card in ((leader, t[1]), (1 - leader, t[2])):
            plays.append(
                {
                    "trick": i,
                    "seat": player,
                    "card": CARD_CODES[card],
                    "declaration": (
                        _play_declaration(declarations, i, player) if declarations else None
                    ),
                }
            )
        tricks.append({"trick": i, "cards": _trick_cards(t), "winner": t[3]})
    for entry in _trick_in_play(state):
        plays.append({"trick": state.trick_number, **entry})
    obs["plays"] = plays
    obs["tricks"] = tricks
    obs["drawn"] = [CARD_CODES[c] for c in state.drawn[seat]]
    obs["opponent_known"] = code_list(opponent_known_mask(state, seat))
    obs["unseen"] = code_list(unseen_mask(state, seat))
    return obs


SEAT_PARTS = ("hand", "legal", "card_choices", "refusals", "own_tricks")
"""Parts of :func:`view` that belong to one seat's screen (its hand, what it may do, its own
tricks); :func:`spectator_view` shows both hands instead."""


def spectator_view(state: State) -> dict[str, Any]:
    """The whole partie, both hands face up, for a table nobody plays (a demonstration, where
    the computer holds both seats): never sent to a seat of a table a person plays.

    The keys of :func:`view` except the one seat's parts (``seat`` is ``None``; no ``hand``,
    ``legal``, ``card_choices``, ``refusals``, ``own_tricks``;
    ``opponent_last_trick`` is ``None``), plus ``hands`` (both, in display order), ``plays``
    (every card played, in order: ``trick``, ``seat``, ``card``, ``points`` (its card points,
    rules §1), ``brisque`` (bool), ``declaration``) and ``tricks`` (every completed trick:
    ``trick``, ``cards``, ``winner``, ``points``). The talon's order stays hidden: a watcher
    learns a card when it is drawn into a hand, as the table shows it.
    """
    out = {k: v for k, v in view(state, 0).items() if k not in SEAT_PARTS}
    out["seat"] = None
    out["opponent_last_trick"] = None
    out["hands"] = [[CARD_CODES[c] for c in display_order(h, state.trump)] for h in state.hands]
    plays = observation(state, 0)["plays"]
    for play in plays:
        card = CARD_INDEX[play["card"]]
        play["points"] = POINTS[card]
        play["brisque"] = bool(BRISQUES >> card & 1)
    out["plays"] = plays
    out["tricks"] = [
        {
            "trick": i,
            "cards": _trick_cards(t),
            "winner": t[3],
            "points": POINTS[t[1]] + POINTS[t[2]],
        }
        for i, t in enumerate(state.tricks, start=1)
    ]
    return out
