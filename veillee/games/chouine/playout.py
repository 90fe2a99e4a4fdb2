"""Fast random playouts of a Chouine partie, on the compact form (ints and bitmasks).

The same rules as :mod:`veillee.games.chouine.rules` (rules/chouine.md §4–§9: phase-1 freedom,
draws, phase-2 duties, every declaration, the seven swap and prompt, the chouine, the count), in
one tight loop over local variables, for benchmarks and Monte Carlo players. At every decision it
enumerates the legal actions exactly as :func:`~veillee.games.chouine.rules.legal_actions` does (as
a set; the order differs) and picks one uniformly at random. ``tests/games/chouine/test_playout.py``
replays traces through ``legal_actions``/``apply`` step by step to prove they agree.

>>> import random
>>> from veillee.games.chouine.rules import deal_random
>>> winner, totals, chouine = playout(deal_random(random.Random(3), dealer=1), random.Random(4))
>>> winner in (0, 1, None), chouine is None or totals is None
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable

from veillee.games.chouine.rules import (
    BRISQUES,
    CARD_CODES,
    CHOUINE,
    CHOUINE_BYTE,
    KINDS,
    POINTS,
    QUINTE,
    State,
    cards_in,
    declaration_options,
)

Outcome = tuple[int | None, tuple[int, int] | None, int | None]
"""``(winner or None for a tie, (total 0, total 1) or None after a chouine,
chouine seat or None)``."""

Trace = list[tuple[list[str], str]]
"""One entry per decision: the legal actions' texts (in the playout's own order) and the one
taken."""

_KQ = 0x10101010  # bit 4 of each suit byte: after ``h & h >> 1`` it says "holds K and Q"


def playout(state: State, rng: random.Random, trace: Trace | None = None) -> Outcome:
    """Play ``state`` to the end, each decision uniform among the legal actions of the seat to act.

    Returns :data:`Outcome`. When ``trace`` is a list, every decision is appended to it.
    """
    piles = state.piles[0] | state.piles[1]
    for c in state.trick:
        piles |= 1 << c
    lead = state.trick[0] if state.trick else -1
    lead_kind = 0
    dp = [0, 0]
    for d in state.declarations:
        dp[d[0]] += d[3]
        if d[5] == state.trick_number and d[0] == state.leader and state.trick:
            lead_kind = d[1]
    if state.to_act is None:
        if state.chouine is not None:
            return (state.chouine, None, state.chouine)
        cp = [sum(POINTS[c] for c in cards_in(p)) for p in state.piles]
        dix = state.tricks[-1][3]
        t0 = cp[0] + dp[0] + (10 if dix == 0 else 0)
        t1 = cp[1] + dp[1] + (10 if dix == 1 else 0)
        return (None if t0 == t1 else (0 if t0 > t1 else 1), (t0, t1), None)
    return _run(
        [state.hands[0], state.hands[1]],
        state.talon,
        state.turn_up,
        state.trump,
        state.trick_number,
        state.leader,
        state.to_act,
        lead,
        lead_kind,
        state.prompt,
        [state.declared_suits[0], state.declared_suits[1]],
        [state.quinte_declared[0], state.quinte_declared[1]],
        dp,
        [sum(POINTS[c] for c in cards_in(p)) for p in state.piles],
        bool(piles >> (8 * state.trump) & 1),
        rng.random,
        trace,
    )


def random_partie(rng: random.Random, dealer: int = 1) -> Outcome:
    """Deal a uniformly shuffled partie (rules §3 order) and play it out at random: the
    benchmark's unit of work, without building any :class:`State`."""
    rand = rng.random
    deck = list(range(32))
    # Fisher–Yates with floats: cheaper than random.shuffle's integer draws, and as uniform for
    # a playout (the bias of int(rand() * n) is below 2**-48).
    for i in range(31, 0, -1):
        j = int(rand() * (i + 1))
        deck[i], deck[j] = deck[j], deck[i]
    nd = 1 - dealer
    hands = [0, 0]
    for i in range(0, 10, 2):
        hands[nd] |= 1 << deck[i]
        hands[dealer] |= 1 << deck[i + 1]
    tu = deck[10]
    return _run(
        hands,
        tuple(deck[11:]),
        tu,
        tu >> 3,
        1,
        nd,
        nd,
        -1,
        0,
        False,
        [0, 0],
        [False, False],
        [0, 0],
        [0, 0],
        False,
        rand,
        None,
    )


def _run(
    h: list[int],
    talon: tuple[int, ...],
    tu: int,
    t: int,
    k: int,
    leader: int,
    actor: int,
    lead: int,
    lead_kind: int,
    prompt: bool,
    ds: list[int],
    qd: list[bool],
    dp: list[int],
    cp: list[int],
    seven_played: bool,
    rand: Callable[[], float],
    trace: Trace | None,
) -> Outcome:
    """The playout loop. ``h`` hands, ``ds`` declared-suit masks, ``qd`` quinte flags, ``dp``
    declaration points, ``cp`` card points won; the others as in :class:`State`."""
    tb = 8 * t
    seven = tb
    sevenbit = 1 << seven
    trump_chouine = CHOUINE_BYTE << tb
    ti = 0  # index of the top face-down card in ``talon``
    dk = [0, 0]
    for seat in (0, 1):
        for s in range(4):
            if ds[seat] >> s & 1:
                dk[seat] |= 0x10 << (8 * s)
    while True:
        if prompt:
            # §6: the follower of trick 11 answers; swap only if it holds the seven.
            can = tu >= 0 and h[actor] >> seven & 1
            if trace is not None:
                trace.append((["continue", "swap"] if can else ["continue"], ""))
            if can and rand() < 0.5:
                h[actor] = h[actor] ^ sevenbit | 1 << tu
                tu = seven
                if trace is not None:
                    trace[-1] = (trace[-1][0], "swap")
            elif trace is not None:
                trace[-1] = (trace[-1][0], "continue")
            prompt = False
            actor = leader
            continue
        hand = h[actor]
        if lead < 0 or k <= 11:
            legal = hand
        else:
            s8 = lead & 24
            same = (hand >> s8) & 0xFF
            if same:
                if s8 == tb:
                    higher = same & ~((2 << (lead & 7)) - 1)
                    legal = (higher or same) << s8
                else:
                    legal = same << s8
            else:
                trumps = (hand >> tb) & 0xFF
                legal = trumps << tb if trumps else hand
        n = legal.bit_count()
        options: list[tuple[int, int, int, int]] = []
        if (hand & (hand >> 1) & _KQ & ~dk[actor]) or (
            not qd[actor] and (hand & BRISQUES).bit_count() == 5
        ):
            for c in cards_in(legal):
                for kind, points, _ in declaration_options(hand, c, ds[actor], qd[actor], t):
                    options.append((c, kind, points, 0))
        swap_ok = tu >= 0 and hand & sevenbit and not (k == 11 and lead >= 0)
        total = n + len(options) + (1 if swap_ok else 0)
        r = int(rand() * total)
        if trace is not None:
            texts = [CARD_CODES[c] for c in cards_in(legal)]
            texts += [f"{CARD_CODES[o[0]]} {KINDS[o[1]]}" for o in options]
            if swap_ok:
                texts.append("swap")
            trace.append((texts, texts[r]))
        if r < n:
            m = legal
            for _ in range(r):
                m &= m - 1
            card = (m & -m).bit_length() - 1
            kind = 0
        elif r < n + len(options):
            card, kind, points, _ = options[r - n]
            dp[actor] += points
            if kind == QUINTE:
                qd[actor] = True
            else:
                ds[actor] |= 1 << (card >> 3)
                dk[actor] |= 0x10 << (card & 24)
        else:
            h[actor] = hand ^ sevenbit | 1 << tu
            tu = seven
            continue
        h[actor] = hand ^ (1 << card)
        other = 1 - actor
        if lead < 0:
            if kind == CHOUINE:
                if (card & 24) != tb and h[other] == trump_chouine and not ds[other] >> t & 1:
                    lead = card
                    lead_kind = kind
                    actor = other
                    continue
                return (actor, None, actor)
            lead = card
            lead_kind = kind
            actor = other
            continue
        if kind == CHOUINE:
            return (actor, None, actor)
        if lead_kind == CHOUINE:
            return (leader, None, leader)
        # §4.1: the follower wins with a higher card of the suit led, or a trump on a plain lead.
        if (card & 24) == (lead & 24):
            winner = actor if card > lead else leader
        else:
            winner = actor if (card & 24) == tb else leader
        cp[winner] += POINTS[lead] + POINTS[card]
        if card == seven or lead == seven:
            seven_played = True
        if k == 16:
            t0 = cp[0] + dp[0]
            t1 = cp[1] + dp[1]
            if winner:
                t1 += 10
            else:
                t0 += 10
            return (None if t0 == t1 else (0 if t0 > t1 else 1), (t0, t1), None)
        loser = 1 - winner
        if k < 11:
            h[winner] |= 1 << talon[ti]
            h[loser] |= 1 << talon[ti + 1]
            ti += 2
        elif k == 11:
            h[winner] |= 1 << talon[ti]
            h[loser] |= 1 << tu
            tu = -1
        k += 1
        leader = winner
        actor = winner
        lead = -1
        lead_kind = 0
        if k == 11 and tu != seven and not seven_played:
            prompt = True
            actor = loser
