"""The Chouine endgame solver: exact search of the last tricks once the talon is empty.

Implements rules/chouine.md §4.3 (phase-2 duties), §5 (declarations: only with a legal card, one
per suit per seat, one quinte), §7 (the count, dix de der) and §9 (the chouine). Once the talon is
gone each seat knows the other's hand exactly (``opponent_known + unseen`` in the observation,
docs/chouine-views.md), so the rest of the partie is a game of perfect information: this module
searches every way it can go with alpha-beta, move ordering and a transposition table.

Cards, hands and every rule (follow duties, who wins a trick, what a card may declare and what it
scores) are those of :mod:`veillee.games.chouine.rules`: a card is an int, a hand a 32-bit mask.
The solver's own bookkeeping is a seat's declarations as one mask: bit ``s`` for each suit ``s``
declared, bit 4 once a quinte is declared.

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
each of my plays is rated by its average :func:`utility` over those cases. The best rating and
any equal to it are exact; a play (a lead, or an answer to the other seat's lead) proven below
a play already rated is stopped early and rated by an upper bound, itself below that rating.

>>> e = Endgame.from_cards("H", ["AH", "7S"], ["TH", "8S"], i_lead=True)
>>> s = solve(e)
>>> s.card, s.value          # the seven first: the ten must then fall to the ace
('7S', 31)

Why one module of this length: one exact search (its move order, bounds and tables) that
split would only hand its private state between modules.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from veillee.games.chouine import rules
from veillee.games.chouine.rules import (
    BEATEN_BY,
    DIX_DE_DER,
    KINDS,
    POINTS,
    QUINTE,
    QUINTE_POINTS,
    SUIT_COMBINATIONS,
    SUIT_LETTERS,
    beats,
    card_of,
    chouine_answerable,
    code,
    declaration_options,
    legal_cards,
    mask_of,
)

CHOUINE = 1000
"""Value of a chouine: above any possible point difference."""

QUINTE_BIT = 1 << 4
_MUTE = 15 | QUINTE_BIT
"""A declarations mask under which nothing can be declared: every suit and the quinte."""
_JACK = 3
"""Rank index of the jack: no card below it carries a declaration (rules §5.1)."""


def declarable_points(declared: int, trump: int) -> int:
    """The most a seat with declarations ``declared`` may still score by declaring without a
    chouine (rules §5.1): the largest suit combination of each suit it has not declared in, and
    the quinte if it has not declared one. A bound: no hand holds all of them."""
    total = 0 if declared & QUINTE_BIT else QUINTE_POINTS
    for s in range(4):
        if not declared >> s & 1:
            total += max(
                rules.declaration_points(kind, s, trump) for kind, _, _ in SUIT_COMBINATIONS
            )
    return total


def declared_mask(suits: Iterable[str], quinte: bool) -> int:
    """The declarations mask of a seat from its declared suits and quinte flag."""
    m = QUINTE_BIT if quinte else 0
    for s in suits:
        m |= 1 << SUIT_LETTERS.index(s)
    return m


def open_chouine(hand: int, declared: int) -> int:
    """The suit of the chouine ``hand`` is, if that suit is still undeclared, else -1 (§9)."""
    s = rules.chouine_suit(hand)
    return s if s >= 0 and not declared >> s & 1 else -1


def declaration_choices(
    hand: int, card: int, declared: int, trump: int
) -> list[tuple[str | None, int, int]]:
    """Every way to play ``card`` from ``hand`` (rules §5): ``(kind, points, declarations mask
    after)``, the plain play first, then :func:`~veillee.games.chouine.rules.declaration_options`
    in its order. A chouine has points ``CHOUINE``.

    >>> [k for k, _, _ in declaration_choices(mask_of(["KD", "QD", "JD"]), card_of("QD"), 0, 0)]
    [None, 'tierce', 'mariage']
    """
    out: list[tuple[str | None, int, int]] = [(None, 0, declared)]
    for kind, points, _ in declaration_options(
        hand, card, declared & 15, bool(declared & QUINTE_BIT), trump
    ):
        if kind == QUINTE:
            out.append((KINDS[kind], points, declared | QUINTE_BIT))
        else:
            after = declared | 1 << (card >> 3)
            out.append((KINDS[kind], CHOUINE if kind == rules.CHOUINE else points, after))
    return out


def best_declaration(hand: int, card: int, declared: int, trump: int) -> tuple[str | None, int]:
    """The most valuable declaration ``card`` can carry from ``hand`` (rules §5): (kind, points).

    A chouine is reported with points ``CHOUINE``; ``(None, 0)`` when the card carries nothing.

    >>> best_declaration(mask_of(["AD", "KD", "QD", "JD", "7C"]), card_of("KD"), 0, 0)  # C11
    ('quateron', 40)
    """
    kind, points, _ = _declare(hand, card, declared, trump)
    return kind, points


_DECLARE_CACHE: dict[int, tuple[str | None, int, int]] = {}


def _declare(hand: int, card: int, declared: int, trump: int) -> tuple[str | None, int, int]:
    """``card`` played with its best declaration: (kind, points, new declarations mask). A phase-2
    hand holds at most five cards, so a quinte and a suit combination never compete and the
    first option (a chouine first, then by points) is the best. Memoized: the search asks the
    same questions many times."""
    if card & 7 < _JACK:
        return None, 0, declared
    key = (hand << 5 | declared) << 7 | card << 2 | trump
    found = _DECLARE_CACHE.get(key)
    if found is not None:
        return found
    options = declaration_options(hand, card, declared & 15, bool(declared & QUINTE_BIT), trump)
    if not options:
        found = (None, 0, declared)
    else:
        kind, points, _ = options[0]
        if kind == QUINTE:
            found = (KINDS[kind], points, declared | QUINTE_BIT)
        else:
            points = CHOUINE if kind == rules.CHOUINE else points
            found = (KINDS[kind], points, declared | 1 << (card >> 3))
    if len(_DECLARE_CACHE) > 200_000:
        _DECLARE_CACHE.clear()
    _DECLARE_CACHE[key] = found
    return found


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
    leader's point of view (leader minus follower, points still to come).

    Positions of two cards each get their exact value (:meth:`pair`), kept apart: they are the
    most frequent, cheap to search whole, and an exact value serves any window. What a hand can
    play (:meth:`_moves`) and answer (:meth:`_replies`) is worked out once per search; the best
    lead and the best answer found are moved to the front of those lists, so that the next
    position where they can be played tries them first. A hand that can declare nothing has its
    declarations mask made ``_MUTE``, so that positions reached with different but no longer
    relevant declarations share their entries."""

    def __init__(self, trump: int) -> None:
        self.trump = trump
        self.beaten_by = BEATEN_BY[trump]
        self.table: dict[tuple[int, int, int, int], tuple[int, int, int]] = {}
        self.pairs: dict[tuple[int, int, int, int], int] = {}
        self.moves: dict[tuple[int, int], tuple[tuple[int, int, int, int, int], ...]] = {}
        self.replies: dict[tuple[int, int, int], tuple[tuple[int, int, int, int, int], ...]] = {}
        self.declaring: dict[int, bool] = {}
        self.nodes = 0

    def lead_trick_12(self, hl: int, hf: int, dl: int, df: int, alpha: int, beta: int) -> int:
        """:meth:`lead` at the start of trick 12, the five-card hands, where a chouine held by
        either seat ends the partie at once (rules §9): the leader declares its chouine with its
        lead, the follower its own with its answer."""
        cs = open_chouine(hl, dl)
        if cs >= 0:
            return -CHOUINE if chouine_answerable(cs, hf, df & 15, self.trump) else CHOUINE
        if open_chouine(hf, df) >= 0:
            return -CHOUINE
        # (declarations that no longer matter made ``_MUTE``, as :meth:`_moves` does)
        if dl != _MUTE and not self._may_declare(hl, dl):
            dl = _MUTE
        if df != _MUTE and not self._may_declare(hf, df):
            df = _MUTE
        return self.lead(hl, hf, dl, df, alpha, beta)

    def lead(self, hl: int, hf: int, dl: int, df: int, alpha: int, beta: int) -> int:
        """Future value for the leader with hands ``hl``/``hf`` of five cards or fewer and
        declarations ``dl``/``df``; fail-soft outside ``(alpha, beta)``."""
        self.nodes += 1
        size = hl.bit_count()
        if size <= 2:
            if not hl & (hl - 1):
                return self.last_trick(hl.bit_length() - 1, hf.bit_length() - 1)
            found = self.pairs.get((hl, hf, dl, df))
            return self.pair(hl, hf, dl, df) if found is None else found
        key = (hl, hf, dl, df)
        entry = self.table.get(key)
        first = -1
        if entry is not None:
            lo, hi, first = entry
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            # (conditionals rather than max/min: this is the search's innermost path)
            if lo > alpha:
                alpha = lo
            if hi < beta:
                beta = hi
        alpha0, beta0 = alpha, beta
        best = -CHOUINE - 1
        best_card = -1
        moves = self.moves.get((hl, dl)) or self._moves(hl, dl)
        if first >= 0 and moves[0][0] != first:
            i = next(i for i, m in enumerate(moves) if m[0] == first)
            moves = (moves[i], *moves[:i], *moves[i + 1 :])
        three = size == 3
        pairs = self.pairs
        beaten_by = self.beaten_by
        best_at = 0
        for at, (lc, _, hl2, pl, dl2) in enumerate(moves):
            if three:
                # (the answers, for two cards left each: the most frequent case)
                worst = CHOUINE + 1
                beaten = beaten_by[lc]
                lp = POINTS[lc]
                replies = self.replies.get((hf, df, lc)) or self._replies(hf, df, lc)
                for fc, bit, hf2, pf, df2 in replies:
                    if beaten & bit:
                        p = pairs.get((hf2, hl2, df2, dl2))
                        if p is None:
                            p = self.pair(hf2, hl2, df2, dl2)
                        v = pl - pf - lp - POINTS[fc] - p
                    else:
                        p = pairs.get((hl2, hf2, dl2, df2))
                        if p is None:
                            p = self.pair(hl2, hf2, dl2, df2)
                        v = pl - pf + lp + POINTS[fc] + p
                    if v < worst:
                        worst = v
                        if worst <= alpha:
                            break
            else:
                # (the answers, for three cards or more left each)
                worst = CHOUINE + 1
                beaten = beaten_by[lc]
                lp = POINTS[lc]
                replies = self.replies.get((hf, df, lc)) or self._replies(hf, df, lc)
                best_i = 0
                for i, (fc, bit, hf2, pf, df2) in enumerate(replies):
                    bound = beta if beta < worst else worst
                    if beaten & bit:
                        base = pl - pf - lp - POINTS[fc]
                        v = base - self.lead(hf2, hl2, df2, dl2, base - bound, base - alpha)
                    else:
                        base = pl - pf + lp + POINTS[fc]
                        v = base + self.lead(hl2, hf2, dl2, df2, alpha - base, bound - base)
                    if v < worst:
                        worst = v
                        best_i = i
                        if worst <= alpha:
                            break
                if best_i:
                    # (the best answer found is tried first the next time this lead meets
                    # this hand)
                    self.replies[hf, df, lc] = (
                        replies[best_i],
                        *replies[:best_i],
                        *replies[best_i + 1 :],
                    )
            if worst > best:
                best = worst
                best_card = lc
                best_at = at
                if best > alpha:
                    alpha = best
                    if best >= beta:
                        break
        if best_at:
            # (the best lead found is tried first the next time this hand leads)
            self.moves[hl, dl] = (moves[best_at], *moves[:best_at], *moves[best_at + 1 :])
        lo, hi = -CHOUINE - 1, CHOUINE + 1
        if best <= alpha0:
            hi = best
        elif best >= beta0:
            lo = best
        else:
            lo = hi = best
        if entry is not None:
            if entry[0] > lo:
                lo = entry[0]
            if entry[1] < hi:
                hi = entry[1]
        self.table[key] = (lo, hi, best_card)
        return best

    def answer(self, hl: int, hf: int, dl: int, df: int, lc: int, alpha: int, beta: int) -> int:
        """The leader's value of leading ``lc`` from ``hl`` (its best declaration included), the
        follower answering as well as it can (:meth:`follow`); fail-soft outside
        ``(alpha, beta)``. (:meth:`lead` works its answers out inline.)"""
        move = next(
            (m for m in self.moves.get((hl, dl)) or self._moves(hl, dl) if m[0] == lc), None
        )
        if move is None:
            raise ValueError("the card is not in the leader's hand")
        _, _, hl2, pl, dl2 = move
        worst = CHOUINE + 1
        for fc, *_ in self.replies.get((hf, df, lc)) or self._replies(hf, df, lc):
            bound = beta if beta < worst else worst
            v = pl - self.follow(lc, hl2, hf, dl2, df, fc, pl - bound, pl - alpha)
            if v < worst:
                worst = v
                if worst <= alpha:
                    break
        return worst

    def last_trick(self, lc: int, fc: int) -> int:
        """The leader's value of the last trick, one card each: no combination is left to
        declare; the dix de der to its winner."""
        pts = POINTS[lc] + POINTS[fc] + DIX_DE_DER
        return -pts if self.beaten_by[lc] >> fc & 1 else pts

    def pair(self, hl: int, hf: int, dl: int, df: int) -> int:
        """Exact value for the leader of the last two tricks, two cards each (a mariage may
        still be declared); kept in ``pairs``."""
        best = -CHOUINE - 1
        beaten_by = self.beaten_by
        replies = self.replies
        for lc, _, hl2, pl, _ in self.moves.get((hl, dl)) or self._moves(hl, dl):
            # (the answers and :meth:`last_trick`, inlined) A lead that cannot beat the
            # best one is cut short: the best stays exact.
            lc2 = hl2.bit_length() - 1
            worst = CHOUINE + 1
            beaten = beaten_by[lc]
            lp = POINTS[lc]
            for fc, bit, hf2, pf, _ in replies.get((hf, df, lc)) or self._replies(hf, df, lc):
                fc2 = hf2.bit_length() - 1
                last = POINTS[lc2] + POINTS[fc2] + DIX_DE_DER
                if beaten & bit:
                    v = pl - pf - lp - POINTS[fc] + (last if beaten_by[fc2] >> lc2 & 1 else -last)
                else:
                    v = pl - pf + lp + POINTS[fc] + (-last if beaten_by[lc2] >> fc2 & 1 else last)
                if v < worst:
                    worst = v
                    if worst <= best:
                        break
            if worst > best:
                best = worst
        self.pairs[hl, hf, dl, df] = best
        return best

    def _moves(self, hand: int, declared: int) -> tuple[tuple[int, int, int, int, int], ...]:
        """Each card of ``hand``, strongest first, with its best declaration: (card, its bit,
        hand after, points of the declaration, declarations after).

        The declarations after are ``_MUTE`` (every suit and the quinte) when the hand after
        can declare nothing: hands only shrink, so it never will, and the rest of the partie no
        longer depends on them (one entry then serves every way the position was reached)."""
        if declared == _MUTE or not self._may_declare(hand, declared):
            found = self.moves[hand, declared] = tuple(
                [(c, 1 << c, hand ^ 1 << c, 0, _MUTE) for c in _ordered(hand)]
            )
            return found
        trump = self.trump
        moves = []
        for c in _ordered(hand):
            bit = 1 << c
            rest = hand ^ bit
            # (testing the rank first spares a call for the cards below the jack)
            if c & 7 >= _JACK:
                _, points, after = _declare(hand, c, declared, trump)
            else:
                points, after = 0, declared
            if after != _MUTE and not self._may_declare(rest, after):
                after = _MUTE
            moves.append((c, bit, rest, points, after))
        found = self.moves[hand, declared] = tuple(moves)
        return found

    def _may_declare(self, hand: int, declared: int) -> bool:
        """True when some card of ``hand`` can carry a declaration (rules §5); kept in
        ``declaring``."""
        key = hand << 5 | declared
        found = self.declaring.get(key)
        if found is None:
            found = False
            for c in _ordered(hand):
                if c & 7 >= _JACK and _declare(hand, c, declared, self.trump)[0] is not None:
                    found = True
                    break
            self.declaring[key] = found
        return found

    def _replies(self, hf: int, df: int, lc: int) -> tuple[tuple[int, int, int, int, int], ...]:
        """The follower's answers to ``lc``: those of its :meth:`_moves` that are legal, in their
        order (the same tuples: who wins and the trick's points are the caller's)."""
        legal = legal_cards(hf, lc, self.trump, True)
        moves = self.moves.get((hf, df)) or self._moves(hf, df)
        found = self.replies[hf, df, lc] = (
            moves if legal == hf else tuple([m for m in moves if legal & m[1]])
        )
        return found

    def follow(
        self, lc: int, hl2: int, hf: int, dl2: int, df: int, fc: int, alpha: int, beta: int
    ) -> int:
        """The follower's value of answering lead ``lc`` (already out of the leader's hand
        ``hl2``, its declaration already scored) with ``fc`` and its best declaration;
        fail-soft outside ``(alpha, beta)``."""
        _, pf, df2 = _declare(hf, fc, df, self.trump)
        hf2 = hf & ~(1 << fc)
        pts = POINTS[lc] + POINTS[fc]
        wins = beats(lc, fc, self.trump)
        if not hf2:
            pts += DIX_DE_DER
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
            SUIT_LETTERS.index(trump),
            mask_of(mine),
            mask_of(theirs),
            my_declared,
            their_declared,
            None if lead is None else card_of(lead),
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
                lost = chouine_answerable(
                    lc >> 3, endgame.theirs, endgame.their_declared & 15, trump
                )
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
        for fc in _ordered(legal_cards(endgame.mine, lc, trump, True)):
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
        code(chosen),
        kind,
        best,
        {code(c): v for c, v in values.items()},
        search.nodes,
    )


class Trick12:
    """Exact values of positions at the start of trick 12 (both hands known, five cards each),
    all of one trump suit, for a caller that asks about many: the search's tables are kept from
    one question to the next, so positions that share their endings are searched once (the
    strong computer's sampled worlds, :mod:`veillee.games.chouine.search`)."""

    def __init__(self, trump: int) -> None:
        self._search = _Search(trump)

    def value(
        self, leader: int, follower: int, leader_declared: int, follower_declared: int,
        alpha: int = -CHOUINE - 1, beta: int = CHOUINE + 1,
    ) -> int:  # fmt: skip
        """The leader's future point difference (its points still to come, the dix de der
        included, minus the follower's; ``±CHOUINE`` when a chouine ends the partie, rules §9)
        with hands ``leader``/``follower`` (masks) and declarations masks (bit ``s`` per suit
        declared, :data:`QUINTE_BIT`); exact inside ``(alpha, beta)``, else a bound on the side
        it falls (fail-soft)."""
        return self._search.lead_trick_12(
            leader, follower, leader_declared, follower_declared, alpha, beta
        )


def settled_margin(obs: Mapping[str, Any], me: int) -> int:
    """Points already settled, ``me`` minus the opponent: card points of the completed tricks
    plus every declaration made so far (rules §7), from the observation only."""
    settled = 0
    for done in obs["tricks"]:
        pts = sum(POINTS[card_of(p["card"])] for p in done["cards"])
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
        SUIT_LETTERS.index(obs["trump"]),
        mask_of(obs["hand"]),
        mask_of(theirs),
        declared_mask(obs["declared_suits"][me], obs["quinte_declared"][me]),
        declared_mask(obs["declared_suits"][them], obs["quinte_declared"][them]),
        None if lead is None else card_of(lead),
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


def needed_difference(target: int) -> int:
    """The smallest point difference whose :func:`utility` reaches ``target``: ``utility`` rises
    strictly, so ``utility(d) >= target`` exactly when ``d >= needed_difference(target)``.

    >>> [needed_difference(t) for t in (2050, 2001, 1, 0, -2000, -2001, -2050)]
    [50, 1, 1, 0, 0, -1, -50]
    """
    if target > WIN_BONUS:
        return target - WIN_BONUS
    if target > 0:
        return 1
    if target > -WIN_BONUS - 1:
        return 0
    return target + WIN_BONUS


def solve_last_draw(pos: LastDraw, *, exact: bool = False) -> dict[tuple[str, str | None], float]:
    """Expected :func:`utility` of each way I can play to trick 11, averaged over which unseen card
    is the last face-down one (each equally likely), with exact play of tricks 11–16 in each case
    (the other seat answering as if it knew that case, and both seeing all once the talon is
    gone). Keys are ``(card code, declaration kind or None)``.

    The best value, and any value equal to it, is exact. A play whose average is proven below
    that of a play already rated gets an upper bound, itself below that rating, instead of its
    value; ``exact=True`` makes every value exact (tests).
    """
    search = _Search(pos.trump)
    trump = pos.trump
    turn_up = pos.turn_up
    worlds = _ordered(pos.unseen)
    big = CHOUINE + 1
    # (below and above every difference, chouines included)
    floor, ceiling = -4 * big, 4 * big
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
        lo: int,
        hi: int,
    ) -> int:
        # My future difference from the end of trick 11 on, trick points included; exact inside
        # (lo, hi), else a bound on the side it falls (fail-soft).
        pts = POINTS[lc] + POINTS[fc]
        if beats(lc, fc, trump) != i_lead:
            mine |= 1 << talon_card
            theirs |= 1 << turn_up
            return pts + search.lead_trick_12(mine, theirs, my_d, their_d, lo - pts, hi - pts)
        mine |= 1 << turn_up
        theirs |= 1 << talon_card
        return -pts - search.lead_trick_12(theirs, mine, their_d, my_d, -hi - pts, -lo - pts)

    if pos.lead is not None:
        # Every play is searched exactly in the first world, and the plays taken in the order
        # of that difference, best first: the best total found early cuts the others short.
        # A play is then tested world by world against the best play so far: a null window at
        # the best one's difference there gives, where the play does no better, a bound on its
        # own; where it may do better, the bound is everything still to win (every card point in
        # play, the dix de der, each declaration I may still make). A play whose bounds sum
        # below the best total is given that sum. Otherwise each world is searched exactly, no
        # lower than the difference at or below which the total could no longer reach the best
        # (the later worlds counted at their bounds); a play stopped there is given that bound.
        lead = pos.lead
        in_play = pos.mine | pos.their_known | pos.unseen | 1 << turn_up | 1 << lead
        card_points = sum(POINTS[c] for c in _ordered(in_play)) + DIX_DE_DER
        n = len(worlds)
        hands = [pos.their_known | (pos.unseen & ~(1 << w)) for w in worlds]

        def diff_in(play: tuple[int, int, int, int], i: int, lo: int, hi: int) -> int:
            # My difference in world ``i`` after ``play``; fail-soft in (lo, hi).
            mc, mine2, base, my_d = play
            return base + after_trick(
                lead, mc, False, mine2, hands[i], my_d, pos.their_declared, worlds[i],
                lo - base, hi - base,
            )  # fmt: skip

        plays = []
        for mc in _ordered(pos.mine):
            mine2 = pos.mine & ~(1 << mc)
            for kind, points, my_d in declaration_choices(pos.mine, mc, pos.my_declared, trump):
                out[(code(mc), kind)] = 0.0  # (the keys in the order of the plays)
                play = (mc, mine2, pos.settled + points, my_d)
                first = CHOUINE if kind == "chouine" else diff_in(play, 0, floor, ceiling)
                plays.append((utility(first), first, kind, play))
        plays.sort(key=lambda p: -p[0])
        best_total = floor * n
        best_diffs: list[int] = []
        for _, first, kind, play in plays:
            mc, mine2, base, my_d = play
            if kind == "chouine":
                total = utility(CHOUINE) * n
                if total > best_total:
                    best_total, best_diffs = total, [CHOUINE] * n
                out[(code(mc), kind)] = total / n
                continue
            if any(open_chouine(mine2 | 1 << c, my_d) >= 0 for c in (*worlds, turn_up)):
                most = base + card_points + CHOUINE
            else:
                most = base + card_points + declarable_points(my_d, trump)
            uppers = [first] + [most] * (n - 1)
            if best_diffs and not exact:
                for i in range(1, n):
                    b = best_diffs[i]
                    d = diff_in(play, i, b, b + 1)
                    if d <= b:
                        uppers[i] = d
                bound = sum(utility(u) for u in uppers)
                if bound < best_total:
                    out[(code(mc), kind)] = bound / n
                    continue
            rest_upper = sum(utility(u) for u in uppers)
            total = 0
            diffs = []
            for i in range(n):
                rest_upper -= utility(uppers[i])
                alpha = (
                    floor
                    if exact
                    else max(floor, needed_difference(best_total - total - rest_upper) - 1)
                )
                diff = first if i == 0 else diff_in(play, i, alpha, uppers[i] + 1)
                total += utility(diff)
                if diff <= alpha:
                    total += rest_upper
                    break
                diffs.append(diff)
            else:
                if total > best_total:
                    best_total, best_diffs = total, diffs
            out[(code(mc), kind)] = total / n
        return out

    # I lead. The other seat's hand in each world, and its answers: each card with each of its
    # declarations, the declarations first (they tend to hurt most).
    hands = [pos.their_known | (pos.unseen & ~(1 << w)) for w in worlds]
    answers = [
        [
            (fc, fkind, fpoints, their_d)
            for fc in _ordered(theirs)
            for fkind, fpoints, their_d in reversed(
                declaration_choices(theirs, fc, pos.their_declared, trump)
            )
        ]
        for theirs in hands
    ]

    def answered(i: int, j: int, mc: int, points: int, my_d: int, lo: int, hi: int) -> int:
        # My difference when I lead ``mc`` in world ``i`` and the other seat gives answer ``j``;
        # fail-soft in (lo, hi).
        fc, fkind, fpoints, their_d = answers[i][j]
        if fkind == "chouine":
            return -CHOUINE
        base = pos.settled + points - fpoints
        theirs2 = hands[i] & ~(1 << fc)
        mine2 = pos.mine & ~(1 << mc)
        return base + after_trick(
            mc, fc, True, mine2, theirs2, my_d, their_d, worlds[i], lo - base, hi - base
        )

    # Each lead, with each world bounded by what the other seat's first answer gives (searched
    # exactly): the value in a world is at most that.
    leads = []
    for mc in _ordered(pos.mine):
        # Answers that take the trick tend to hurt most: first.
        orders = [
            [j for j, (fc, *_) in enumerate(a) if beats(mc, fc, trump)]
            + [j for j, (fc, *_) in enumerate(a) if not beats(mc, fc, trump)]
            for a in answers
        ]
        for kind, points, my_d in declaration_choices(pos.mine, mc, pos.my_declared, trump):
            if kind == "chouine":
                uppers = [CHOUINE] * len(worlds)
            else:
                uppers = [
                    answered(i, order[0], mc, points, my_d, floor, ceiling)
                    for i, order in enumerate(orders)
                ]
            leads.append((sum(utility(u) for u in uppers), mc, kind, points, my_d, orders, uppers))
            out[(code(mc), kind)] = 0.0  # (the keys in the order of the plays)
    # The most promising leads first: the best total found early cuts the others short. In each
    # world the other seat's answers are searched no lower than the difference at or below which
    # the lead's total could no longer reach the best so far (the later worlds counted at their
    # bounds); a lead stopped there is given that bound, below the best.
    leads.sort(key=lambda lead: -lead[0])
    best_total = floor * len(worlds)
    for rest_upper, mc, kind, points, my_d, orders, uppers in leads:
        if kind == "chouine":
            best_total = max(best_total, rest_upper)
            out[(code(mc), kind)] = rest_upper / len(worlds)
            continue
        total = 0
        proven_worse = False
        for i, order in enumerate(orders):
            rest_upper -= utility(uppers[i])
            alpha = (
                floor
                if exact
                else max(floor, needed_difference(best_total - total - rest_upper) - 1)
            )
            worst = uppers[i]
            if worst > alpha:
                for j in order[1:]:
                    d = answered(i, j, mc, points, my_d, alpha, worst)
                    if d < worst:
                        worst = d
                        if worst <= alpha:
                            break
            total += utility(worst)
            if worst <= alpha:
                total += rest_upper
                proven_worse = True
                break
        if not proven_worse:
            best_total = max(best_total, total)
        out[(code(mc), kind)] = total / len(worlds)
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
        lead = card_of(trick[0]["card"])
    settled = settled_margin(obs, me)
    return LastDraw(
        SUIT_LETTERS.index(obs["trump"]),
        mask_of(obs["hand"]),
        mask_of(obs["opponent_known"]),
        mask_of(obs["unseen"]),
        card_of(obs["turn_up"]),
        declared_mask(obs["declared_suits"][me], obs["quinte_declared"][me]),
        declared_mask(obs["declared_suits"][them], obs["quinte_declared"][them]),
        lead,
        settled,
    )
