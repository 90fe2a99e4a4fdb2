"""The Chouine endgame solver: exact search of the last tricks once the talon is empty.

Implements rules/chouine.md §4.3 (phase-2 duties), §5 (declarations: only with a legal card, one
per suit per seat, one quinte), §7 (the count, dix de der) and §9 (the chouine). Once the talon is
gone each seat knows the other's hand exactly (``opponent_known + unseen`` in the observation,
docs/chouine-views.md), so the rest of the partie is a game of perfect information: this module
searches every way it can go with alpha-beta, move ordering and a transposition table.

Representation: a card is an index ``8 * suit + (strength - 1)`` with suits in the order
``S H D C`` and strengths ``7 8 9 J Q K T A`` = 1..8, so inside a suit a higher index is a
stronger card; a hand is a 32-bit mask. A seat's declarations are a mask: bit ``s`` for each suit
``s`` declared, bit 4 once a quinte is declared.

The value searched is the final point difference (the searching seat's total minus the other's,
counting only what is still to come). Winning the partie then maximising the margin is the same
as maximising that difference, since both follow its order; a chouine counts as ``±CHOUINE``.

Declaring in phase 2 is never worse than playing the same card plain: hands only shrink, the
combinations of a suit are nested (mariage ⊂ tierce ⊂ quateron ⊂ chouine) and the largest one held
contains every card of the smaller ones, so the search plays each card with its best declaration
(the brute-force test over every legal action checks this).

Trick 11 (``solve_last_draw``): the talon then holds one face-down card and the turn-up, so the
unseen cards are the other hand plus that one card. For each card it can be, tricks 11–16 are
searched exactly (every declaration option in trick 11, where declaring early may not pay), and
each of my plays is rated by its average :func:`utility` over those cases.

>>> e = Endgame.from_cards("H", ["AH", "7S"], ["TH", "8S"], i_lead=True)
>>> s = solve(e)
>>> s.card, s.value          # the seven first: the ten must then fall to the ace
('7S', 31)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

SUIT_ORDER = "SHDC"
RANK_ORDER = "789JQKTA"
"""Ranks weakest first: the position is the strength minus one (rules §1)."""

CHOUINE = 1000
"""Value of a chouine: above any possible point difference."""

_POINTS_BY_RANK = (0, 0, 0, 2, 3, 4, 10, 11)
POINTS: tuple[int, ...] = tuple(_POINTS_BY_RANK[i & 7] for i in range(32))
"""Card points of each card index (rules §1)."""

SUIT_MASKS: tuple[int, ...] = tuple(0xFF << (8 * s) for s in range(4))
BRISQUES: int = sum((1 << (8 * s + 7)) | (1 << (8 * s + 6)) for s in range(4))
QUINTE_BIT = 1 << 4

_J, _Q, _K, _T, _A = 3, 4, 5, 6, 7
# The suit combinations, largest first, as rank masks inside one suit, with their plain points.
_MARIAGE = (1 << _K) | (1 << _Q)
_TIERCE = _MARIAGE | (1 << _J)
_QUATERON = _TIERCE | (1 << _A)
_CHOUINE = _QUATERON | (1 << _T)
_SUIT_COMBINATIONS = (
    ("quateron", _QUATERON, 40),
    ("tierce", _TIERCE, 30),
    ("mariage", _MARIAGE, 20),
)


def card_index(code: str) -> int:
    """Index of a card code (``"AH"`` -> 15). Raises ValueError for a code not in the pack."""
    return 8 * SUIT_ORDER.index(code[1]) + RANK_ORDER.index(code[0])


def card_code(index: int) -> str:
    """Card code of an index (15 -> ``"AH"``)."""
    return RANK_ORDER[index & 7] + SUIT_ORDER[index >> 3]


def mask_of(cards: Iterable[str]) -> int:
    """The hand mask holding the given card codes."""
    m = 0
    for c in cards:
        m |= 1 << card_index(c)
    return m


def cards_of(mask: int) -> list[str]:
    """The card codes of a mask, in index order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(card_code(low.bit_length() - 1))
        mask ^= low
    return out


def declared_mask(suits: Iterable[str], quinte: bool) -> int:
    """The declarations mask of a seat from its declared suits and quinte flag."""
    m = QUINTE_BIT if quinte else 0
    for s in suits:
        m |= 1 << SUIT_ORDER.index(s)
    return m


def legal_follows(hand: int, lead: int, trump: int) -> int:
    """Mask of the cards of ``hand`` that may follow ``lead`` in phase 2 (rules §4.3).

    >>> cards_of(legal_follows(mask_of(["7H", "AH", "QS", "9D"]), card_index("KH"), 1))  # C1
    ['AH']
    """
    ls = lead >> 3
    same = hand & SUIT_MASKS[ls]
    if same:
        if ls == trump:
            higher = same & ~((2 << lead) - 1)
            return higher or same
        return same
    trumps = hand & SUIT_MASKS[trump]
    return trumps or hand


def follower_wins(lead: int, follow: int, trump: int) -> bool:
    """True when ``follow`` beats ``lead`` (rules §4.1)."""
    fs = follow >> 3
    if fs == lead >> 3:
        return follow > lead
    return fs == trump


def has_chouine(hand: int, declared: int) -> int:
    """The suit of a chouine held in an undeclared suit, or -1 (rules §9)."""
    for s in range(4):
        if not declared & (1 << s) and (hand >> (8 * s)) & _CHOUINE == _CHOUINE:
            return s
    return -1


def best_declaration(hand: int, card: int, declared: int, trump: int) -> tuple[str | None, int]:
    """The most valuable declaration ``card`` can carry from ``hand`` (rules §5): (kind, points).

    A chouine is reported with points ``CHOUINE``; ``(None, 0)`` when the card carries nothing.

    >>> best_declaration(mask_of(["AD", "KD", "QD", "JD", "7C"]), card_index("KD"), 0, 0)  # C11
    ('quateron', 40)
    """
    s = card >> 3
    r = card & 7
    if r >= _J and not declared & (1 << s):
        ranks = (hand >> (8 * s)) & 0xFF
        if ranks & _CHOUINE == _CHOUINE:
            return "chouine", CHOUINE
        for kind, combo, points in _SUIT_COMBINATIONS:
            if ranks & combo == combo and combo & (1 << r):
                return kind, points * 2 if s == trump else points
    if (
        r >= _T
        and not declared & QUINTE_BIT
        and (hand & BRISQUES).bit_count() >= 5
        and (hand >> card) & 1
    ):
        return "quinte", 50
    return None, 0


def _declare(hand: int, card: int, declared: int, trump: int) -> tuple[int, int]:
    """(points, new declarations mask) of ``card`` played with its best declaration."""
    kind, points = best_declaration(hand, card, declared, trump)
    if kind is None:
        return 0, declared
    if kind == "quinte":
        return points, declared | QUINTE_BIT
    return points, declared | (1 << (card >> 3))


_ORDER_CACHE: dict[int, tuple[int, ...]] = {}


def _ordered(mask: int) -> tuple[int, ...]:
    """Cards of a mask, strongest rank first: strong leads and follows cut the search early."""
    order = _ORDER_CACHE.get(mask)
    if order is None:
        cards = []
        m = mask
        while m:
            low = m & -m
            cards.append(low.bit_length() - 1)
            m ^= low
        cards.sort(key=lambda i: (i & 7, POINTS[i]), reverse=True)
        order = tuple(cards)
        if len(_ORDER_CACHE) > 200_000:
            _ORDER_CACHE.clear()
        _ORDER_CACHE[mask] = order
    return order


class _Search:
    """Alpha-beta over whole tricks, fail-soft, with a transposition table keyed on both hands
    and both declaration masks (the future does not depend on the past score). Values are in the
    leader's point of view (leader minus follower, points still to come)."""

    def __init__(self, trump: int) -> None:
        self.trump = trump
        self.table: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
        self.nodes = 0

    def lead(self, hl: int, hf: int, dl: int, df: int, alpha: int, beta: int) -> int:
        """Future value for the leader with hands ``hl``/``hf`` and declarations ``dl``/``df``."""
        self.nodes += 1
        trump = self.trump
        if not hl & (hl - 1):
            # Last trick: one card each, nothing left to declare with; dix de der to its winner.
            lc = hl.bit_length() - 1
            fc = hf.bit_length() - 1
            pts = POINTS[lc] + POINTS[fc] + 10
            return -pts if follower_wins(lc, fc, trump) else pts
        if hl.bit_count() == 5:
            cs = has_chouine(hl, dl)
            fcs = has_chouine(hf, df)
            if cs >= 0:
                return -CHOUINE if cs != trump and fcs == trump else CHOUINE
            if fcs >= 0:
                return -CHOUINE
        key = (hl, hf, dl, df)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        alpha0, beta0 = alpha, beta
        best = -CHOUINE - 1
        best_card = -1
        leads = _ordered(hl)
        if first >= 0 and leads[0] != first:
            leads = (first, *(c for c in leads if c != first))
        for lc in leads:
            worst = self.answer(hl, hf, dl, df, lc, alpha, beta)
            if worst > best:
                best = worst
                best_card = lc
                if best > alpha:
                    alpha = best
                    if best >= beta:
                        break
        lo, hi = -CHOUINE - 1, CHOUINE + 1
        if best <= alpha0:
            hi = best
        elif best >= beta0:
            lo = best
        else:
            lo = hi = best
        if entry is not None:
            lo = max(lo, entry[0])
            hi = min(hi, entry[1])
        self.table[key] = (lo, hi, best_card)
        return best

    def answer(self, hl: int, hf: int, dl: int, df: int, lc: int, alpha: int, beta: int) -> int:
        """The leader's value of leading ``lc`` from ``hl`` (its best declaration included), the
        follower answering as well as it can; fail-soft outside ``(alpha, beta)``."""
        trump = self.trump
        hl2 = hl & ~(1 << lc)
        if not hl2:
            # The last trick, one card each: no combination, the dix de der to its winner.
            fc = hf.bit_length() - 1
            pts = POINTS[lc] + POINTS[fc] + 10
            return -pts if follower_wins(lc, fc, trump) else pts
        pl, dl2 = _declare(hl, lc, dl, trump) if lc & 7 >= _J else (0, dl)
        worst = CHOUINE + 1
        for fc in _ordered(legal_follows(hf, lc, trump)):
            pf, df2 = _declare(hf, fc, df, trump) if fc & 7 >= _J else (0, df)
            hf2 = hf & ~(1 << fc)
            bound = min(beta, worst)
            if follower_wins(lc, fc, trump):
                base = pl - pf - POINTS[lc] - POINTS[fc]
                v = base - self.lead(hf2, hl2, df2, dl2, base - bound, base - alpha)
            else:
                base = pl - pf + POINTS[lc] + POINTS[fc]
                v = base + self.lead(hl2, hf2, dl2, df2, alpha - base, bound - base)
            if v < worst:
                worst = v
                if worst <= alpha:
                    break
        return worst

    def follow(
        self, lc: int, hl2: int, hf: int, dl2: int, df: int, fc: int, alpha: int, beta: int
    ) -> int:
        """The follower's value of answering lead ``lc`` (already out of the leader's hand
        ``hl2``, its declaration already scored) with ``fc`` and its best declaration;
        fail-soft outside ``(alpha, beta)``."""
        pf, df2 = _declare(hf, fc, df, self.trump)
        hf2 = hf & ~(1 << fc)
        pts = POINTS[lc] + POINTS[fc]
        wins = follower_wins(lc, fc, self.trump)
        if not hf2:
            pts += 10
            return pf + pts if wins else pf - pts
        if wins:
            c = pf + pts
            return c + self.lead(hf2, hl2, df2, dl2, alpha - c, beta - c)
        c = pf - pts
        return c - self.lead(hl2, hf2, dl2, df2, c - beta, c - alpha)


@dataclass(frozen=True)
class Endgame:
    """A phase-2 position seen by the seat about to act ("mine"), hands known on both sides.

    ``lead`` is the card the other seat has led to the open trick (``None`` when I lead); its
    declaration, if any, is already in ``their_declared`` and already scored.
    """

    trump: int
    mine: int
    theirs: int
    my_declared: int = 0
    their_declared: int = 0
    lead: int | None = None

    @classmethod
    def from_cards(
        cls,
        trump: str,
        mine: Iterable[str],
        theirs: Iterable[str],
        *,
        i_lead: bool,
        lead: str | None = None,
        my_declared: int = 0,
        their_declared: int = 0,
    ) -> Endgame:
        """Build from card codes; ``lead`` is the card led by the other seat when I follow."""
        if i_lead == (lead is not None):
            raise ValueError("give a lead card exactly when the other seat leads")
        return cls(
            SUIT_ORDER.index(trump),
            mask_of(mine),
            mask_of(theirs),
            my_declared,
            their_declared,
            None if lead is None else card_index(lead),
        )


@dataclass(frozen=True)
class Solution:
    """The solver's choice: the card to play, its declaration kind (or None), and the exact
    value (my future points minus theirs with best play on both sides, ``±CHOUINE``)."""

    card: str
    declaration: str | None
    value: int
    values: Mapping[str, int]
    nodes: int


def solve(endgame: Endgame, *, exact: bool = False) -> Solution:
    """Search the endgame to its end and return the best card for me, with its declaration.

    ``values`` holds, for each playable card, its exact value when it is within one point of the
    best (so ties are exact), else an upper bound; ``exact=True`` makes every value exact (tests).
    Ties between equal values go to the card worth the fewest points, then the weakest, so the
    choice is deterministic. Raises ValueError on an empty hand.
    """
    if not endgame.mine:
        raise ValueError("no card to play")
    search = _Search(endgame.trump)
    trump = endgame.trump
    big = CHOUINE + 1
    values: dict[int, int] = {}
    best = -big
    if endgame.lead is None:
        for lc in _ordered(endgame.mine):
            kind, _ = best_declaration(endgame.mine, lc, endgame.my_declared, trump)
            if kind == "chouine":
                theirs_chouine = has_chouine(endgame.theirs, endgame.their_declared)
                lost = lc >> 3 != trump and theirs_chouine == trump
                values[lc] = -CHOUINE if lost else CHOUINE
            else:
                alpha = -big if exact else best - 1
                values[lc] = search.answer(
                    endgame.mine, endgame.theirs, endgame.my_declared, endgame.their_declared,
                    lc, alpha, big,
                )  # fmt: skip
            best = max(best, values[lc])
    else:
        lc = endgame.lead
        hl2 = endgame.theirs
        for fc in _ordered(legal_follows(endgame.mine, lc, trump)):
            kind, _ = best_declaration(endgame.mine, fc, endgame.my_declared, trump)
            if kind == "chouine":
                values[fc] = CHOUINE
            else:
                alpha = -big if exact else best - 1
                values[fc] = search.follow(
                    lc, hl2, endgame.mine, endgame.their_declared, endgame.my_declared,
                    fc, alpha, big,
                )  # fmt: skip
            best = max(best, values[fc])
    # A lost chouine plus points can score below -big, the window's floor: best is the value.
    best = max(values.values())
    chosen = min((c for c, v in values.items() if v == best), key=lambda c: (POINTS[c], c & 7, c))
    kind, _ = best_declaration(endgame.mine, chosen, endgame.my_declared, trump)
    return Solution(
        card_code(chosen),
        kind,
        best,
        {card_code(c): v for c, v in values.items()},
        search.nodes,
    )


def settled_margin(obs: Mapping[str, Any], me: int) -> int:
    """Points already settled, ``me`` minus the opponent: card points of the completed tricks
    plus every declaration made so far (rules §7), from the observation only."""
    settled = 0
    for done in obs["tricks"]:
        pts = sum(POINTS[card_index(p["card"])] for p in done["cards"])
        settled += pts if done["winner"] == me else -pts
    for seat, decls in enumerate(obs["declarations"]):
        for d in decls:
            settled += d["points"] if seat == me else -d["points"]
    return settled


def endgame_from_observation(obs: Mapping[str, Any]) -> tuple[Endgame, int]:
    """The endgame of a phase-2 observation (docs/chouine-views.md) for the seat to act, and the
    point difference already settled (my card points and declarations minus theirs).

    The opponent's hand is ``opponent_known + unseen`` (the talon is empty). Raises ValueError when
    the talon is not empty or the counts do not add up.
    """
    if obs["talon_count"] != 0 or obs.get("turn_up") is not None:
        raise ValueError("the talon is not empty")
    me = obs["seat"]
    them = 1 - me
    theirs = list(obs["opponent_known"]) + list(obs["unseen"])
    if len(theirs) != obs["hand_counts"][them]:
        raise ValueError("opponent's hand does not match the unseen cards")
    trick = obs["trick"]
    lead = None
    if trick:
        if trick[0]["seat"] == me:
            raise ValueError("not my turn")
        lead = trick[0]["card"]
    settled = settled_margin(obs, me)
    endgame = Endgame(
        SUIT_ORDER.index(obs["trump"]),
        mask_of(obs["hand"]),
        mask_of(theirs),
        declared_mask(obs["declared_suits"][me], obs["quinte_declared"][me]),
        declared_mask(obs["declared_suits"][them], obs["quinte_declared"][them]),
        None if lead is None else card_index(lead),
    )
    return endgame, settled


# --- trick 11: the last draw ----------------------------------------------------------------

WIN_BONUS = 2 * CHOUINE
"""Added to a won partie's difference (taken from a lost one) when averaging over the possible
worlds of trick 11: winning comes first, the margin second."""


def utility(diff: int) -> int:
    """Worth of a final point difference: any win above any loss, then the margin (a chouine
    counts as ``±CHOUINE``)."""
    if diff > 0:
        return diff + WIN_BONUS
    if diff < 0:
        return diff - WIN_BONUS
    return 0


def declaration_choices(
    hand: int, card: int, declared: int, trump: int
) -> list[tuple[str | None, int, int]]:
    """Every way to play ``card`` from ``hand`` (rules §5): ``(kind, points, declarations mask
    after)``, the plain play first. A chouine has points ``CHOUINE``.

    >>> [k for k, _, _ in declaration_choices(mask_of(["KD", "QD", "JD"]), card_index("QD"), 0, 0)]
    [None, 'tierce', 'mariage']
    """
    out: list[tuple[str | None, int, int]] = [(None, 0, declared)]
    s = card >> 3
    r = card & 7
    if r >= _J and not declared & (1 << s):
        ranks = (hand >> (8 * s)) & 0xFF
        if hand == _CHOUINE << (8 * s):
            out.append(("chouine", CHOUINE, declared | (1 << s)))
        for kind, combo, points in _SUIT_COMBINATIONS:
            if ranks & combo == combo and combo & (1 << r):
                out.append((kind, points * 2 if s == trump else points, declared | (1 << s)))
    if r >= _T and not declared & QUINTE_BIT and (hand & BRISQUES).bit_count() >= 5:
        out.append(("quinte", 50, declared | QUINTE_BIT))
    return out


@dataclass(frozen=True)
class LastDraw:
    """Trick 11 seen by the seat about to act: the talon holds one face-down card (one of
    ``unseen``, the others being in the other hand beside ``their_known``) and the turn-up, which
    goes to the loser of the trick (rules §4.2). ``settled`` is my total so far minus theirs;
    ``lead`` the card the other seat led (its declaration already in ``settled``)."""

    trump: int
    mine: int
    their_known: int
    unseen: int
    turn_up: int
    my_declared: int = 0
    their_declared: int = 0
    lead: int | None = None
    settled: int = 0


def solve_last_draw(pos: LastDraw) -> dict[tuple[str, str | None], float]:
    """Expected :func:`utility` of each way I can play to trick 11, averaged over which unseen card
    is the last face-down one (each equally likely), with exact play of tricks 11–16 in each case
    (the other seat answering as if it knew that case, and both seeing all once the talon is
    gone). Keys are ``(card code, declaration kind or None)``."""
    search = _Search(pos.trump)
    trump = pos.trump
    worlds = _ordered(pos.unseen)
    big = CHOUINE + 1
    out: dict[tuple[str, str | None], float] = {}

    def after_trick(
        lc: int,
        fc: int,
        i_lead: bool,
        mine: int,
        theirs: int,
        my_d: int,
        their_d: int,
        talon_card: int,
        below: int,
    ) -> int:
        # My future difference from the end of trick 11 on, trick points included; exact when
        # below ``below``, otherwise only known to be at least ``below``.
        pts = POINTS[lc] + POINTS[fc]
        if follower_wins(lc, fc, trump) != i_lead:
            mine |= 1 << talon_card
            theirs |= 1 << pos.turn_up
            return pts + search.lead(mine, theirs, my_d, their_d, -big, below - pts)
        mine |= 1 << pos.turn_up
        theirs |= 1 << talon_card
        return -pts - search.lead(theirs, mine, their_d, my_d, -below - pts, big)

    for mc in _ordered(pos.mine):
        mine2 = pos.mine & ~(1 << mc)
        for kind, points, my_d in declaration_choices(pos.mine, mc, pos.my_declared, trump):
            total = 0
            for w in worlds:
                theirs = pos.their_known | (pos.unseen & ~(1 << w))
                if kind == "chouine":
                    total += utility(CHOUINE)
                elif pos.lead is not None:
                    rest = after_trick(
                        pos.lead, mc, False, mine2, theirs, my_d, pos.their_declared, w, big
                    )
                    total += utility(pos.settled + points + rest)
                else:
                    # The other seat picks my worst difference; a reply that cannot go below
                    # the worst found so far is cut off by the search window.
                    worst = 4 * big
                    # Replies that take the trick, and declarations, tend to hurt most: first.
                    replies = sorted(
                        _ordered(theirs), key=lambda f: not follower_wins(mc, f, trump)
                    )
                    for fc in replies:
                        theirs2 = theirs & ~(1 << fc)
                        for fkind, fpoints, their_d in reversed(
                            declaration_choices(theirs, fc, pos.their_declared, trump)
                        ):
                            if fkind == "chouine":
                                d = -CHOUINE
                            else:
                                base = pos.settled + points - fpoints
                                rest = after_trick(
                                    mc, fc, True, mine2, theirs2, my_d, their_d, w, worst - base
                                )
                                d = base + rest
                            worst = min(worst, d)
                    total += utility(worst)
            out[(card_code(mc), kind)] = total / len(worlds)
    return out


def last_draw_from_observation(obs: Mapping[str, Any]) -> LastDraw:
    """The trick-11 position of an observation (docs/chouine-views.md) for the seat to act.

    Raises ValueError unless it is trick 11 with one face-down talon card and the turn-up, and the
    counts add up.
    """
    if obs["talon_count"] != 1 or obs.get("turn_up") is None or obs["trick_number"] != 11:
        raise ValueError("not the last draw")
    me = obs["seat"]
    them = 1 - me
    if len(obs["opponent_known"]) + len(obs["unseen"]) - 1 != obs["hand_counts"][them]:
        raise ValueError("opponent's hand does not match the unseen cards")
    trick = obs["trick"]
    lead = None
    if trick:
        if trick[0]["seat"] == me:
            raise ValueError("not my turn")
        lead = card_index(trick[0]["card"])
    settled = settled_margin(obs, me)
    return LastDraw(
        SUIT_ORDER.index(obs["trump"]),
        mask_of(obs["hand"]),
        mask_of(obs["opponent_known"]),
        mask_of(obs["unseen"]),
        card_index(obs["turn_up"]),
        declared_mask(obs["declared_suits"][me], obs["quinte_declared"][me]),
        declared_mask(obs["declared_suits"][them], obs["quinte_declared"][them]),
        lead,
        settled,
    )
