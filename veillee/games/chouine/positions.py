"""Build a Chouine position directly (tests, puzzles, bot and solver checks).

A deal reaches most positions only after many moves; :func:`position` writes one down: the
hands, the trick number, the open trick, the turn-up and talon, the piles. Whatever is not
given is filled so that the 32 cards are accounted for exactly once (rules §3–§4 counts): the
talon gets ``21 - 2 * (trick_number - 1)`` face-down cards while the talon lasts, and the cards
left over go to the piles as completed tricks.

>>> from veillee.games.chouine.rules import legal_actions
>>> s = position("H", (["7H", "AH", "QS", "9D"], ["8S", "9S", "7S"]), trick_number=13,
...              leader=1, trick=["KH"])
>>> s.to_act, [str(a) for a in legal_actions(s)]
(0, ['AH'])
"""

from __future__ import annotations

from collections.abc import Sequence

from veillee.games.chouine.rules import (
    CARD_INDEX,
    KIND_INDEX,
    QUINTE,
    SUIT_LETTERS,
    State,
    code_list,
    mask_of,
)


def position(
    trump: str,
    hands: tuple[Sequence[str], Sequence[str]],
    *,
    trick_number: int = 1,
    leader: int = 0,
    trick: Sequence[str] = (),
    turn_up: str | None = None,
    talon: Sequence[str] | None = None,
    piles: tuple[Sequence[str], Sequence[str]] | None = None,
    trick_winners: Sequence[int] | None = None,
    dealer: int | None = None,
    declarations: Sequence[tuple[int, str, str | None, int, Sequence[str], int, str]] = (),
    to_act: int | None = -1,
    prompt: bool = False,
    taken_turn_ups: Sequence[tuple[int, str, int]] = (),
) -> State:
    """A :class:`State` with the given cards where they are said to be.

    ``hands`` are seat 0's and seat 1's cards; ``trick`` the cards played to the open trick, lead
    first (the lead is ``leader``'s). ``turn_up`` defaults, while the talon lasts, to the
    strongest unused trump; ``talon`` (top first) to unused cards in card order. ``piles``, if
    given, are each seat's won cards; otherwise the leftover cards are split into completed
    tricks. ``trick_winners`` orders the completed tricks (default: seat 0's first).
    ``declarations`` are ``(seat, kind, suit letter or None, points, cards, trick, card played)``.
    ``to_act`` defaults to the seat whose card is due (``None`` ends the partie). Raises
    ``ValueError`` when cards repeat or the counts do not add up.
    """
    t = SUIT_LETTERS.index(trump)
    used: list[str] = [*hands[0], *hands[1], *trick]
    reserved = [*piles[0], *piles[1]] if piles is not None else []
    talon_cards: list[str] = list(talon) if talon is not None else []
    turn = turn_up
    if trick_number <= 11:
        if turn is None:
            free = [c for c in _ordered_unused(used + talon_cards + reserved) if c[1] == trump]
            if not free:
                raise ValueError("no trump left for the turn-up")
            turn = free[-1]
        if talon is None:
            need = 21 - 2 * (trick_number - 1)
            talon_cards = _ordered_unused([*used, *reserved, turn])[:need]
    used += talon_cards
    if turn is not None:
        used.append(turn)
    if piles is None:
        rest = _ordered_unused(used)
        pile_lists: list[list[str]] = [[], []]
        for i in range(0, len(rest), 2):
            pile_lists[(i // 2) % 2] += rest[i : i + 2]
    else:
        pile_lists = [list(piles[0]), list(piles[1])]
    used += pile_lists[0] + pile_lists[1]
    if len(used) != 32 or len(set(used)) != 32:
        raise ValueError("the position must hold every card exactly once")
    if trick_winners is None:
        trick_winners = [0] * (len(pile_lists[0]) // 2) + [1] * (len(pile_lists[1]) // 2)
    if sum(1 for w in trick_winners if w == 0) * 2 != len(pile_lists[0]) or sum(
        1 for w in trick_winners if w == 1
    ) * 2 != len(pile_lists[1]):
        raise ValueError("trick_winners must match the piles")
    queues = [list(pile_lists[0]), list(pile_lists[1])]
    tricks = []
    for w in trick_winners:
        a, b = queues[w].pop(0), queues[w].pop(0)
        tricks.append((w, CARD_INDEX[a], CARD_INDEX[b], w))
    ds = [0, 0]
    qd = [False, False]
    decl = []
    for seat, kind, suit, points, combo, k, card in declarations:
        s = -1 if suit is None else SUIT_LETTERS.index(suit)
        decl.append((seat, KIND_INDEX[kind], s, points, mask_of(combo), k, CARD_INDEX[card]))
        if KIND_INDEX[kind] == QUINTE:
            qd[seat] = True
        else:
            ds[seat] |= 1 << s
    if to_act == -1:
        to_act = leader if len(trick) % 2 == 0 else 1 - leader
    state = State(
        dealer=(1 - leader if trick_number == 1 else 1) if dealer is None else dealer,
        trump=t,
        hands=(mask_of(hands[0]), mask_of(hands[1])),
        talon=tuple(CARD_INDEX[c] for c in talon_cards),
        turn_up=CARD_INDEX[turn] if turn is not None else -1,
        trick_number=trick_number,
        leader=leader,
        trick=tuple(CARD_INDEX[c] for c in trick),
        to_act=to_act,
        prompt=prompt,
        piles=(mask_of(pile_lists[0]), mask_of(pile_lists[1])),
        tricks=tuple(tricks),
        declarations=tuple(decl),
        declared_suits=(ds[0], ds[1]),
        quinte_declared=(qd[0], qd[1]),
        taken_turn_ups=tuple((s, CARD_INDEX[c], how) for s, c, how in taken_turn_ups),
        drawn=((), ()),
        chouine=None,
    )
    return state


def _ordered_unused(used: Sequence[str]) -> list[str]:
    """The cards not in ``used``, in card-int order."""
    return code_list(((1 << 32) - 1) & ~mask_of(used))
