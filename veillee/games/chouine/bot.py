"""The Chouine computer player, as the Chouine product page promises ("The computer follows the
usual advice").

``choose(observation, legal_actions, rng)`` decides from ``observation(state, seat)`` only
(docs/chouine-views.md): it never sees the state, so it cannot look at the other hand or the talon.

- While the talon lasts (rules §4.2): it throws away the sevens, eights and nines of non-trump suits
  first; it keeps brisques, trumps, and any king or queen whose partner has not been seen (played or
  shown); it takes a trick whenever a cheap card wins it, most keenly when an ace or a ten was led.
- It declares the best combination whenever it plays a card from one, and a chouine at once
  (§5, §9).
- It swaps the seven of trumps at once under an ace, ten, king, queen or jack, otherwise at its last
  chance: the prompt, or before leading trick 11 (§6).
- Once the talon is empty the other hand is ``opponent_known + unseen``: the endgame solver
  (``solver.py``) searches every way the last tricks can go and plays to win the partie, then for
  the biggest margin.
- In trick 11 the talon holds one face-down card and the turn-up: the solver searches tricks
  11–16 for each card the face-down one can be, and the bot plays the best on average.

That is the ``"usual"`` level, and every one of its decisions is deterministic: ``rng`` is
accepted for the computer-player contract (docs/game-contract.md) and not needed. The
``"strong"`` level (issue 24) plays the same except for the card plays of tricks 1–10, which it
searches over worlds sampled with ``rng`` (:mod:`veillee.games.chouine.search`); the same
``rng`` gives it the same choice.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from veillee.games.chouine import rules, search, solver

SWAP_UNDER = frozenset("ATKQJ")
"""Turn-up ranks under which the seven of trumps is swapped at once (product page)."""


class _Textual(Protocol):
    def __str__(self) -> str: ...


A = TypeVar("A", bound=_Textual)


@dataclass(frozen=True)
class _Play:
    """One legal card play: the card, its declaration kind (or None) and the points it scores."""

    card: str
    kind: str | None
    points: int


def declaration_value(kind: str | None, card: str, trump: str) -> int:
    """What playing ``card`` with a declaration of ``kind`` (a kind name, or ``None`` for a plain
    play) is worth at once: its points (:func:`~veillee.games.chouine.rules.declaration_points`),
    a chouine ``solver.CHOUINE`` (it wins the partie, rules §9), a plain play 0."""
    if kind is None:
        return 0
    if kind == "chouine":
        return solver.CHOUINE
    return rules.declaration_points(
        rules.KIND_INDEX[kind], rules.SUIT_LETTERS.index(card[1]), rules.SUIT_LETTERS.index(trump)
    )


def card_points(card: str) -> int:
    """Card points of a card code (rules §1)."""
    return rules.POINTS[rules.card_of(card)]


def is_brisque(card: str) -> bool:
    """True for an ace or a ten (rules §1)."""
    return bool(rules.BRISQUES >> rules.card_of(card) & 1)


def strength(card: str) -> int:
    """Trick strength of a card code within its suit, 1 (seven) to 8 (ace) (rules §1)."""
    return rules.strength(rules.card_of(card))


def beats(lead: str, follow: str, trump: str) -> bool:
    """True when card code ``follow`` wins the trick against ``lead`` (rules §4.1)."""
    return rules.beats(rules.card_of(lead), rules.card_of(follow), rules.SUIT_LETTERS.index(trump))


def _deal_part(observation: Mapping[str, Any]) -> Mapping[str, Any]:
    """Accept either the partie observation or the match wrapper ``{"match":…, "deal":…}``."""
    deal = observation.get("deal")
    return deal if isinstance(deal, Mapping) else observation


LEVELS: tuple[str, ...] = ("usual", "strong")
"""The computer's levels, the usual one first: ``"usual"`` plays the advice above,
``"strong"`` searches the talon phase (:mod:`veillee.games.chouine.search`, issue 24)."""

STRONG_BUDGET = search.STRONG_BUDGET
"""The strong level's default search size: sampled worlds per talon-phase card play."""


def choose(
    observation: Mapping[str, Any],
    legal_actions: Sequence[A],
    rng: random.Random | None = None,
    *,
    level: str = "usual",
    budget: int | None = None,
) -> A:
    """The computer's action among ``legal_actions`` (engine ``Action`` values, text notation of
    docs/notation.md) given ``observation`` (docs/chouine-views.md, the match observation
    ``{"match":…, "deal":…}`` or the partie's alone) of the seat to act.

    ``level`` is one of :data:`LEVELS`. ``"usual"`` implements the product page's promises
    (module docstring) and does not use ``rng``. ``"strong"`` plays the same except for the
    card plays of tricks 1–10 (the talon phase, rules §4.2): there it plays each card it may in
    ``budget`` worlds sampled with ``rng`` (default :data:`STRONG_BUDGET`; ``None`` for ``rng``
    is ``random.Random(0)``) and keeps the usual card unless another is clearly better
    (:func:`veillee.games.chouine.search.best_candidate`). The same ``rng`` state gives the same
    choice. Raises ValueError when there is no legal action, for an unknown level or a budget
    below 1.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level: {level!r}")
    if budget is not None and budget < 1:
        raise ValueError("the budget is at least one world")
    if not legal_actions:
        raise ValueError("no legal action")
    obs = _deal_part(observation)
    by_text = {str(a): a for a in legal_actions}
    text = decide(obs, list(by_text))
    if level == "strong":
        text = _strong_play(observation, obs, by_text, text, budget, rng)
    return by_text[text]


def _strong_play(
    observation: Mapping[str, Any],
    obs: Mapping[str, Any],
    by_text: Mapping[str, A],
    usual: str,
    budget: int | None,
    rng: random.Random | None,
) -> str:
    """The strong level's action text: ``usual`` outside the talon phase's card plays, else the
    search's choice among each playable card with its best declaration."""
    if obs["talon_count"] < 2 or obs.get("prompt") is not None or usual in ("swap", "continue"):
        return usual
    plays = _plays(obs, list(by_text))
    if any(p.kind == "chouine" for p in plays):
        return usual
    texts = [_text(p) for p in _best_per_card(plays).values()]
    if usual not in texts:
        texts.append(usual)
    if len(texts) < 2:
        return usual
    candidates = [rules.Action.parse(t) for t in texts]
    try:
        chosen = search.best_candidate(
            observation,
            candidates,
            candidates[texts.index(usual)],
            STRONG_BUDGET if budget is None else budget,
            rng if rng is not None else random.Random(0),
        )
    except ValueError:
        # Only an observation breaking its contract gets here; the usual move stays legal.
        return usual
    return str(chosen)


def decide(obs: Mapping[str, Any], legal: Sequence[str], *, last_draw_search: bool = True) -> str:
    """The text of the chosen action among the legal action texts ``legal``.

    ``last_draw_search=False`` plays trick 11 by the talon-phase advice instead of searching it
    (kept to measure what the search adds).
    """
    if "swap" in legal and _swap_now(obs):
        return "swap"
    if "continue" in legal:
        return "continue"
    plays = _plays(obs, legal)
    for p in plays:
        if p.kind == "chouine":
            return _text(p)
    if obs["talon_count"] == 0 and obs.get("turn_up") is None:
        chosen = _endgame_play(obs, plays)
    elif last_draw_search and obs["talon_count"] == 1 and obs["trick_number"] == 11:
        chosen = _last_draw_play(obs, plays)
    else:
        chosen = _talon_play(obs, plays)
    return _text(chosen)


def _text(p: _Play) -> str:
    return p.card if p.kind is None else f"{p.card} {p.kind}"


def _plays(obs: Mapping[str, Any], legal: Sequence[str]) -> list[_Play]:
    trump = obs["trump"]
    out = []
    for t in legal:
        parts = t.split()
        if parts[0] in ("swap", "continue"):
            continue
        kind = parts[1] if len(parts) > 1 else None
        out.append(_Play(parts[0], kind, declaration_value(kind, parts[0], trump)))
    if not out:
        raise ValueError("no card can be played")
    return out


def _best_per_card(plays: Sequence[_Play]) -> dict[str, _Play]:
    """Each playable card with the most valuable declaration it can carry (or plain)."""
    best: dict[str, _Play] = {}
    for p in plays:
        if p.card not in best or p.points > best[p.card].points:
            best[p.card] = p
    return best


def _swap_now(obs: Mapping[str, Any]) -> bool:
    """Swap at once under A, T, K, Q, J; otherwise only at the last chance (rules §6)."""
    turn_up = obs.get("turn_up")
    if turn_up is not None and turn_up[0] in SWAP_UNDER:
        return True
    if obs.get("prompt") == "seven":
        return True
    return obs["trick_number"] == 11 and not obs["trick"]


# --- phase 2: the exact search ------------------------------------------------------------


def _endgame_play(obs: Mapping[str, Any], plays: Sequence[_Play]) -> _Play:
    try:
        endgame, _ = solver.endgame_from_observation(obs)
    except ValueError:
        # Only an observation breaking its contract gets here; still answer legally.
        return _talon_play(obs, plays)
    solution = solver.solve(endgame)
    for p in plays:
        if p.card == solution.card and p.kind == solution.declaration:
            return p
    # The solver's declaration is always offered by a correct engine; stay legal regardless.
    return max((p for p in plays if p.card == solution.card), key=lambda p: p.points)


def _last_draw_play(obs: Mapping[str, Any], plays: Sequence[_Play]) -> _Play:
    """Trick 11: the talon holds one unseen card and the turn-up, so every case can be searched
    to the end (``solver.solve_last_draw``); the best expected result is played."""
    try:
        position = solver.last_draw_from_observation(obs)
    except ValueError:
        return _talon_play(obs, plays)
    values = solver.solve_last_draw(position)
    memory = _Memory(obs)
    scored = [(values[(p.card, p.kind)], p) for p in plays if (p.card, p.kind) in values]
    if not scored:
        return _talon_play(obs, plays)
    best = max(v for v, _ in scored)
    return min(
        (p for v, p in scored if v == best),
        key=lambda p: (memory.keep_value(p.card) + card_points(p.card), -p.points, p.card),
    )


# --- phase 1: the usual advice ------------------------------------------------------------


class _Memory:
    """What the seat has seen: cards played, cards shown, and which suits are still open."""

    def __init__(self, obs: Mapping[str, Any]) -> None:
        self.seat: int = obs["seat"]
        self.trump: str = obs["trump"]
        self.hand: list[str] = list(obs["hand"])
        self.played = {p["card"] for p in obs.get("plays", [])}
        for t in obs.get("tricks", []):
            self.played.update(c["card"] for c in t["cards"])
        self.played.update(c["card"] for c in obs["trick"])
        self.opponent_known = set(obs.get("opponent_known", []))
        self.my_declared = set(obs["declared_suits"][self.seat])

    def partner_alive(self, card: str) -> bool:
        """True while the K/Q partner of ``card`` has not been seen out of play: not played and
        not shown in the other hand (rules: "whose partner has not yet been seen")."""
        partner = ("Q" if card[0] == "K" else "K") + card[1]
        return partner not in self.played and partner not in self.opponent_known

    def keep_value(self, card: str) -> float:
        """What keeping ``card`` is worth beyond its own card points, for the discard order:
        non-trump 7/8/9 lowest, then plain jacks and dead kings and queens, then live kings and
        queens, trumps and brisques."""
        r, s = card[0], card[1]
        rank_strength = strength(card)
        if s == self.trump:
            if r in "789":
                return 6.0 + rank_strength
            if r == "J":
                return 10.0 + self._combo_bonus(card)
            if r in "KQ":
                return 10.0 + self._combo_bonus(card)
            return 20.0 if r == "T" else 25.0
        if r in "789":
            return 0.1 * rank_strength
        if r == "J":
            return 1.0 + self._combo_bonus(card)
        if r in "KQ":
            return 1.0 + self._combo_bonus(card)
        return 3.0 if r == "T" else 4.0

    def _combo_bonus(self, card: str) -> float:
        r, s = card[0], card[1]
        if s in self.my_declared:
            return 0.0
        if r in "KQ":
            if not self.partner_alive(card):
                return 0.0
            partner = ("Q" if r == "K" else "K") + s
            held = partner in self.hand
            base = 12.0 if held else 8.0
            return 2 * base if s == self.trump else base
        if r == "J":
            king_alive = ("K" + s) not in self.played and ("K" + s) not in self.opponent_known
            queen_alive = ("Q" + s) not in self.played and ("Q" + s) not in self.opponent_known
            return 3.0 if king_alive and queen_alive else 0.0
        return 0.0


def _talon_play(obs: Mapping[str, Any], plays: Sequence[_Play]) -> _Play:
    memory = _Memory(obs)
    trump = memory.trump
    candidates = _best_per_card(plays)
    trick = obs["trick"]

    def cost(card: str) -> float:
        return memory.keep_value(card)

    def after_declaring(p: _Play) -> float:
        # Declaring cashes the combination: the card then only keeps its ordinary worth.
        if p.kind is None:
            return cost(p.card)
        r = p.card[0]
        if p.card[1] == trump:
            return {"J": 10.0, "K": 10.0, "Q": 10.0, "T": 20.0, "A": 25.0}.get(r, 8.0)
        return 1.0

    scores: dict[str, float] = {}
    if trick:
        lead = trick[0]["card"]
        lead_points = card_points(lead)
        for card, p in candidates.items():
            pts = lead_points + card_points(card)
            if beats(lead, card, trump):
                # Winning banks the trick; brisques led make it worth the most.
                score = pts - after_declaring(p) + 0.5
            else:
                score = -pts - after_declaring(p)
            scores[card] = score + p.points
    else:
        for card, p in candidates.items():
            exposed = card_points(card) * (0.4 if card[1] == trump else 0.9)
            scores[card] = p.points - after_declaring(p) - exposed
    best = max(scores.values())
    chosen = min(
        (c for c, v in scores.items() if v == best),
        key=lambda c: (cost(c), strength(c), c),
    )
    return candidates[chosen]
