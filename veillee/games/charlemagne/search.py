"""The strong computer level of Charlemagne: determinized search over sampled deals (issue 24).

At each decision that has a choice, :func:`choose` deals the cards the seat has not seen into
``budget`` worlds consistent with what it has witnessed (its own hand, kitty and discards, every
card played, the voids shown by a seat not following the suit led, a Gros Mulot spread, and in
the auction the bids made before it, read with the usual level's bidding), plays every candidate
out to the end of the hand in each world with the engine (``rules.apply``) and the usual level's
play for all four seats, and takes the candidate with the best average score for its team
(rules §11: the contract's points, to the side that scores them). The usual level's own move is
kept unless another beats it clearly over the same worlds (:data:`CLEAR_MARGIN`).

Decisions searched: the bid (every contract up to Charlemagne against passing, the rest of the
auction and the whole hand played out), the bidder's discard and trump (one discard planned for
each trump suit), and the play of the cards. The blind pass and the Gros Charlemagne choice are
the usual level's.

Only the observation is read (``views.observation``, docs/charlemagne-views.md); the worlds are
drawn from ``rng`` alone, so the same ``rng`` state gives the same choice.

Why one module of this length: the strong level's one search (worlds consistent with the
bids, playouts, rating) for every phase it plays.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from veillee.cards import PIQUET_JOKERS_34

from . import bot
from .rules import (
    LADDER,
    TRUMPLESS,
    Action,
    State,
    Trick,
    apply,
    card_order,
    effective_suit,
    legal_actions,
    legal_cards,
    outcome,
    partner,
    team,
)
from .views import display_order

Observation = dict[str, Any]

STRONG_BUDGET = 60
"""Sampled deals a decision at the strong level (each candidate is played out in every one).
Measured (bench/RESULTS.md): 69 % of the points against the usual level, decisions p50 84 ms
and p99 301 ms of CPU here."""

CLEAR_MARGIN = 1.0
"""How many standard errors of the paired difference a candidate must beat the usual level's
move by, over the same worlds, to be played instead of it."""

_SEARCHED_BIDS = frozenset(LADDER[: LADDER.index("charlemagne") + 1])
"""Bids the auction search weighs against passing (the usual level's choice always is)."""

_SAMPLE_TRIES = 24
"""Deals drawn for one world before the voids (or, in the auction, the bids) are let go."""

_INFER_TRIES = 8
"""Deals drawn for one world of the play before the bids and the contract are let go."""


# --- what the seat has witnessed ---------------------------------------------------------------


def _unseen(obs: Observation) -> list[str]:
    """The cards this seat has not seen, in pack order (the usual level's reading)."""
    hidden = bot._unseen(obs)
    return [c for c in PIQUET_JOKERS_34 if c in hidden]


def _voids(obs: Observation) -> dict[int, tuple[set[str], set[str]]]:
    """Per seat: (effective suits it cannot hold, cards it cannot hold), from its plays (§7.2,
    §7.3): a seat that did not follow the suit led holds none of it; in Mulot a seat that
    played a plain card off suit holds no joker, and one that did not answer a joker led with
    the other holds not that one."""
    trump = obs["trump"]
    trumpless = obs["contract"] in TRUMPLESS
    out: dict[int, tuple[set[str], set[str]]] = {s: (set(), set()) for s in range(4)}
    tricks = [t["cards"] for t in obs["tricks"]]
    if obs["trick"]:
        tricks.append(obs["trick"])
    for cards in tricks:
        first = cards[0]["card"]
        led = effective_suit(first, trump)
        for p in cards[1:]:
            seat, card = p["seat"], p["card"]
            suits, held = out[seat]
            if trumpless and first in ("BJ", "LJ"):
                other = "LJ" if first == "BJ" else "BJ"
                if card != other:
                    held.add(other)
                continue
            if effective_suit(card, trump) != led:
                suits.add(led)
                if trumpless and card not in ("BJ", "LJ"):
                    suits.add(effective_suit("BJ", None))
    return out


def _deal_hidden(
    pool: Sequence[str],
    counts: dict[int, int],
    fits: Callable[[int, str], bool],
    rng: random.Random,
) -> tuple[dict[int, list[str]], list[str]]:
    """Deal ``pool`` into ``counts[seat]`` cards a seat, every card fitting its seat; what is
    left over is dead (kitty, discards). The most constrained seat draws first; after
    :data:`_SAMPLE_TRIES` deals that do not fit, the constraints are let go."""
    for attempt in range(_SAMPLE_TRIES + 1):
        cards = list(pool)
        rng.shuffle(cards)
        free = attempt == _SAMPLE_TRIES
        allowed = {s: [c for c in cards if free or fits(s, c)] for s in counts}
        hands: dict[int, list[str]] = {}
        taken: set[str] = set()
        for seat in sorted(counts, key=lambda s: (len(allowed[s]) - counts[s], s)):
            mine = [c for c in allowed[seat] if c not in taken][: counts[seat]]
            if len(mine) < counts[seat]:
                break
            hands[seat] = mine
            taken.update(mine)
        else:
            return hands, [c for c in cards if c not in taken]
    raise AssertionError("the unconstrained deal always fits")


def _bids(obs: Observation) -> tuple[tuple[int, str], ...]:
    return tuple((b["seat"], b["bid"]) for b in obs["bids"])


# --- the playout: the usual level for every seat, read from a determinized state -------------


def _seat_view(state: State, seat: int) -> Observation:
    """The parts of ``views.observation(state, seat)`` the usual level reads, built cheaply:
    the world is the search's own guess, and each seat in it sees only its own cards."""
    bidder = state.bidder
    trump = state.trump
    plays = [{"card": c} for t in state.tricks for _, c in t.cards]
    plays += [{"card": c} for _, c in state.trick]
    return {
        "seat": seat,
        "phase": state.phase,
        # the usual level's play reads the hand as a set; its blind pass and discard read it
        # in display order, as views.observation gives it
        "hand": state.hands[seat]
        if state.phase == "play"
        else display_order(state.hands[seat], trump),
        "bids": [{"seat": s, "bid": b} for s, b in state.bids],
        "contract": state.contract,
        "bidder": bidder,
        "sitting_out": state.sitting_out,
        "trump": trump,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "plays": plays,
        "kitty": list(state.kitty) if seat == bidder and state.kitty_taken else None,
        "discards": list(state.discards) if seat == bidder else None,
        "blind_card": state.blind
        if bidder is not None and seat in (bidder, partner(bidder))
        else None,
        "spread": list(state.hands[bidder]) if state.spread and bidder is not None else None,
    }


def _usual_action(state: State) -> Action:
    """The usual level's action for ``state.to_act``, seeing only that seat's part."""
    seat = state.to_act
    assert seat is not None
    if state.phase == "play":
        cards = legal_cards(state)
        if len(cards) == 1:
            return Action.play(cards[0])
        legal = [Action.play(c) for c in cards]
    elif state.phase == "discard":
        hand = state.hands[seat]
        # the usual level reads only how many cards a discard holds
        legal = [Action.discard(hand[: len(hand) - 8])]
    else:
        legal = legal_actions(state)
    return bot.choose(_seat_view(state, seat), legal)


def _play_out(state: State) -> State:
    """``state`` played to the end of the hand (§10) by the usual level in every seat."""
    while state.to_act is not None:
        state = apply(state, _usual_action(state))
    return state


def _value(final: State, side: int) -> int:
    """The hand's points to ``side`` (team 0 or 1), negative when the other team scores (§11)."""
    out = outcome(final)
    assert out is not None
    return out["points"] if out["scoring_team"] == side else -out["points"]


def _best(
    worlds: Sequence[State],
    candidates: Sequence[Sequence[Action]],
    usual: int,
    side: int,
) -> int:
    """Index of the candidate (a sequence of actions taken in turn) with the best mean value
    over ``worlds``; the ``usual`` one unless another beats it by :data:`CLEAR_MARGIN`
    standard errors of the paired difference."""
    values = []
    for actions in candidates:
        row = []
        for world in worlds:
            s = world
            for action in actions:
                s = apply(s, action)
            row.append(_value(_play_out(s), side))
        values.append(row)
    means = [sum(r) / len(r) for r in values]
    best = max(range(len(candidates)), key=lambda i: (means[i], i == usual))
    if best == usual or len(worlds) < 2:
        return best if len(worlds) >= 2 else usual
    diffs = [a - b for a, b in zip(values[best], values[usual], strict=True)]
    mean = sum(diffs) / len(diffs)
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    if mean > CLEAR_MARGIN * math.sqrt(var / len(diffs)):
        return best
    return usual


# --- the worlds of each kind of decision ------------------------------------------------------


def _state(obs: Observation, hands: Mapping[int, Sequence[str]], kitty: Sequence[str]) -> State:
    """The determinized state of ``obs`` with the other seats holding ``hands``."""
    seat = obs["seat"]
    every = [card_order(hands.get(s, ())) for s in range(4)]
    every[seat] = card_order(obs["hand"])
    return State(
        dealer=obs["dealer"],
        hands=tuple(every),
        kitty=tuple(kitty),
        phase=obs["phase"],
        to_act=obs["to_act"],
        bids=_bids(obs),
        contract=obs["contract"],
        bidder=obs["bidder"],
        choice=obs["choice"],
        kitty_taken=obs["kitty_count"] == 0 and obs["contract"] is not None,
        blind=obs["blind_card"],
        discards=tuple(obs["discards"] or ()),
        trump=obs["trump"],
        trick=tuple((p["seat"], p["card"]) for p in obs["trick"]),
        tricks=tuple(
            Trick(tuple((p["seat"], p["card"]) for p in t["cards"]), t["winner"])
            for t in obs["tricks"]
        ),
    )


def _play_worlds(obs: Observation, n: int, rng: random.Random) -> list[State]:
    """Worlds of the play (or of the bidder's discard and trump): every other playing seat holds
    as many unseen cards as it has, none of a suit it showed void in; a Gros Mulot spread is the
    bidder's hand."""
    seat = obs["seat"]
    out = obs["sitting_out"]
    counts = {s: obs["hand_counts"][s] for s in range(4) if s not in (seat, out)}
    fixed: dict[int, list[str]] = {}
    spread = obs.get("spread")
    if spread and obs["bidder"] != seat:
        fixed[obs["bidder"]] = list(spread)
        counts.pop(obs["bidder"], None)
    pool = [c for c in _unseen(obs) if not any(c in h for h in fixed.values())]
    voids = _voids(obs)
    trump = obs["trump"]

    def fits(s: int, card: str) -> bool:
        suits, held = voids[s]
        return card not in held and effective_suit(card, trump) not in suits

    played: dict[int, list[str]] = {s: [] for s in range(4)}
    for p in obs["plays"]:
        played[p["seat"]].append(p["card"])
    worlds = []
    for _ in range(n):
        for attempt in range(_INFER_TRIES + 1):
            hands, _dead = _deal_hidden(pool, counts, fits, rng)
            if attempt == _INFER_TRIES:
                break
            held = {s: [*h, *played[s]] for s, h in hands.items()}
            if _contract_agrees(obs, held) and _bids_agree(_bids(obs), held):
                break
        worlds.append(_state(obs, {**hands, **fixed}, obs.get("kitty") or ()))
    return worlds


def _contract_agrees(obs: Observation, held: dict[int, list[str]]) -> bool:
    """True unless the bidder is another seat whose sampled cards (held and played) the usual
    level would not have played this contract with: another trump named, or Mulot bid with a
    hand easily forced to win a trick. The bidder's cards leave ``held``: its bid was made on
    cards (before the kitty) that the world does not know."""
    bidder = obs["bidder"]
    cards = held.pop(bidder, None)
    if cards is None:
        return True
    if obs["contract"] in TRUMPLESS:
        return bot._mulot_danger(cards) <= bot.MULOT_DANGER + 1.0
    return obs["trump"] is None or bot._best_trump(cards)[0] == obs["trump"]


def _auction_worlds(obs: Observation, n: int, rng: random.Random) -> list[State]:
    """Whole deals: the unseen cards to the other three seats and the kitty, drawn again (up to
    :data:`_SAMPLE_TRIES` times) until the usual level, holding each seat's sampled hand, would
    have bid as that seat did."""
    seat = obs["seat"]
    pool = _unseen(obs)
    counts = {s: 8 for s in range(4) if s != seat}
    made = _bids(obs)
    worlds = []
    for _ in range(n):
        for attempt in range(_SAMPLE_TRIES + 1):
            hands, kitty = _deal_hidden(pool, counts, lambda s, c: True, rng)
            if attempt == _SAMPLE_TRIES or _bids_agree(made, hands):
                break
        worlds.append(_state(obs, hands, kitty))
    return worlds


def _bids_agree(made: Sequence[tuple[int, str]], hands: Mapping[int, Sequence[str]]) -> bool:
    """True if the usual level, holding ``hands[seat]`` at the auction, would have made each bid
    of ``made`` of the seats in ``hands``."""
    for i, (s, bid) in enumerate(made):
        if s not in hands:
            continue
        before = [{"seat": b_seat, "bid": b} for b_seat, b in made[:i]]
        view = {"seat": s, "hand": hands[s], "bids": before, "phase": "auction"}
        high = next((b for _, b in reversed(made[:i]) if b != "pass"), None)
        start = 0 if high is None else LADDER.index(high) + 1
        legal = [Action.pass_(), *(Action.bid(b) for b in LADDER[start:])]
        if str(bot.choose(view, legal)) != bid:
            return False
    return True


# --- the decisions ------------------------------------------------------------------------------


def _bid_candidates(legal: Sequence[Action], usual: Action) -> list[Action]:
    wanted = [a for a in legal if a.kind == "pass" or a.value in _SEARCHED_BIDS]
    if usual not in wanted:
        wanted.append(usual)
    return wanted


def _discard_candidates(obs: Observation, usual: Action) -> list[list[Action]]:
    """For each trump suit, the usual level's discard planned for that trump, then the trump."""
    hand = obs["hand"]
    n = len(hand) - 8
    kept = [c for c in hand if c not in usual.cards]
    out = [[usual, Action.trump(bot._best_trump(kept)[0])]]
    for t in ("S", "H", "D", "C"):
        ordered = sorted(hand, key=lambda c: bot._keep_value(c, hand, t))
        pair = [Action.discard(ordered[:n]), Action.trump(t)]
        if pair not in out:
            out.append(pair)
    return out


def choose(
    observation: Observation,
    legal_actions: Sequence[Action],
    rng: random.Random | None = None,
    *,
    budget: int | None = None,
) -> Action:
    """The strong level's action, one of ``legal_actions`` (see the module's docstring).

    ``observation`` as for :func:`bot.choose`; ``budget`` the sampled deals of this decision
    (None: :data:`STRONG_BUDGET`; at least 1). The usual level's action when there is no choice
    or nothing searched beats it clearly. Raises ValueError for no legal action or a budget
    below 1.
    """
    if not legal_actions:
        raise ValueError("no legal action")
    n = STRONG_BUDGET if budget is None else budget
    if n < 1:
        raise ValueError("budget must be at least 1 sampled deal")
    rng = rng if rng is not None else random.Random()
    obs = observation.get("deal", observation)
    usual = bot.choose(obs, legal_actions)
    if len(legal_actions) == 1:
        return usual
    side = team(obs["seat"])
    phase = obs["phase"]
    if phase == "auction":
        bids = _bid_candidates(legal_actions, usual)
        worlds = _auction_worlds(obs, n, rng)
        return bids[_best(worlds, [[b] for b in bids], bids.index(usual), side)]
    if phase == "discard":
        pairs = _discard_candidates(obs, usual)
        worlds = _play_worlds(obs, n, rng)
        return pairs[_best(worlds, pairs, 0, side)][0]
    if phase == "trump":
        suits = list(legal_actions)
        worlds = _play_worlds(obs, n, rng)
        return suits[_best(worlds, [[a] for a in suits], suits.index(usual), side)]
    if phase == "play":
        worlds = _play_worlds(obs, n, rng)
        cards = list(legal_actions)
        return cards[_best(worlds, [[a] for a in cards], cards.index(usual), side)]
    return usual


__all__ = ["CLEAR_MARGIN", "STRONG_BUDGET", "choose"]
