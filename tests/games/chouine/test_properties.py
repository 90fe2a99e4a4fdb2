"""Properties of every partie, over random deals and random legal play (Hypothesis).

- the 32 cards are accounted for exactly once at every step (rules §3–§4);
- the card points of the two piles sum to 120 at the count (rules §1, §7);
- ``why_illegal`` is ``None`` exactly for the actions of ``legal_actions``;
- ``apply`` of an illegal action raises ``IllegalAction`` with that reason and changes nothing;
- ``from_json(to_json(s)) == s`` at every step, through real JSON text;
- views and observations never hold a card the seat may not see (rules §10): a card of the
  opponent's hand that was not shown, or a card of the talon.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from veillee.games import IllegalAction
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
from veillee.games.chouine.views import observation, view

EVERY_ACTION: list[Action] = [
    *(a for row in PLAY_ACTIONS for a in row),
    SWAP_ACTION,
    CONTINUE_ACTION,
]
"""Every well-formed action: each card plain and with each declaration kind, swap, continue."""


def partie(seed: int, eager: bool) -> list[tuple[State, Action | None]]:
    """Every state of a random partie with the action taken from it (``None`` at the end).

    ``eager`` prefers declarations and swaps whenever one is legal, to reach them often."""
    rng = random.Random(seed)
    s = rules.deal_random(rng, dealer=rng.randrange(2))
    out: list[tuple[State, Action | None]] = []
    while s.to_act is not None:
        legal = rules.legal_actions(s)
        special = [a for a in legal if a.declaration or a.verb == "swap"]
        a = rng.choice(special) if eager and special and rng.random() < 0.7 else rng.choice(legal)
        out.append((s, a))
        s = rules.apply(s, a)
    out.append((s, None))
    return out


def where(s: State) -> list[int]:
    """Every card's places: hands, talon, turn-up, the open trick, piles."""
    places = [*rules.cards_in(s.hands[0]), *rules.cards_in(s.hands[1]), *s.talon, *s.trick]
    places += [*rules.cards_in(s.piles[0]), *rules.cards_in(s.piles[1])]
    if s.turn_up >= 0:
        places.append(s.turn_up)
    return places


seeds = st.integers(min_value=0, max_value=2**32)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, eager=st.booleans())
def test_every_card_accounted_for_exactly_once(seed: int, eager: bool) -> None:
    for s, _ in partie(seed, eager):
        assert sorted(where(s)) == list(range(32))


@settings(max_examples=60, deadline=None)
@given(seed=seeds, eager=st.booleans())
def test_card_points_of_the_piles_sum_to_120_at_the_count(seed: int, eager: bool) -> None:
    s = partie(seed, eager)[-1][0]
    out = rules.outcome(s)
    assert out is not None
    if out["chouine"] is None:
        card_points = out["card_points"]
        assert isinstance(card_points, list)
        assert sum(card_points) == 120
        decl = rules.declaration_totals(s)
        totals = out["totals"]
        assert isinstance(totals, list)
        for seat in (0, 1):
            dix = 10 if out["dix_de_der"] == seat else 0
            assert totals[seat] == card_points[seat] + decl[seat] + dix
        assert out["winner"] == (None if totals[0] == totals[1] else int(totals[1] > totals[0]))
    else:
        assert out["winner"] == out["chouine"]


@settings(max_examples=40, deadline=None)
@given(seed=seeds, eager=st.booleans())
def test_why_illegal_is_none_exactly_for_legal_actions(seed: int, eager: bool) -> None:
    for s, _ in partie(seed, eager):
        legal = set(rules.legal_actions(s))
        for seat in (0, 1):
            allowed = {a for a in EVERY_ACTION if rules.why_illegal(s, seat, a) is None}
            assert allowed == (legal if seat == s.to_act else set())


@settings(max_examples=40, deadline=None)
@given(seed=seeds, eager=st.booleans(), pick=st.integers(min_value=0, max_value=10**6))
def test_apply_of_an_illegal_action_raises_and_changes_nothing(
    seed: int, eager: bool, pick: int
) -> None:
    for s, _ in partie(seed, eager):
        before = json.dumps(rules.to_json(s))
        legal = set(rules.legal_actions(s))
        illegal = [a for a in EVERY_ACTION if a not in legal]
        a = illegal[pick % len(illegal)]
        with pytest.raises(IllegalAction) as e:
            rules.apply(s, a)
        assert e.value.reason == rules.why_illegal(s, -1 if s.to_act is None else s.to_act, a)
        assert e.value.reason in rules.REASONS
        assert json.dumps(rules.to_json(s)) == before


@settings(max_examples=60, deadline=None)
@given(seed=seeds, eager=st.booleans())
def test_json_round_trip_at_every_step(seed: int, eager: bool) -> None:
    for s, _ in partie(seed, eager):
        assert rules.from_json(json.loads(json.dumps(rules.to_json(s)))) == s


def card_codes_in(value: Any) -> set[str]:
    """Every card code appearing in a JSON value (strings, keys, and first words of actions)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            found |= card_codes_in(k) | card_codes_in(v)
    elif isinstance(value, list):
        for v in value:
            found |= card_codes_in(v)
    elif isinstance(value, str):
        for word in value.split():
            if word in rules.CARD_INDEX:
                found.add(word)
    return found


def hidden_from(s: State, seat: int) -> set[str]:
    """Cards ``seat`` may not see (rules §10): the talon, and the opponent's hand except cards it
    showed in a declaration whose trick is complete (§5.2) or in the chouine that ended the
    partie (§9), and turn-ups it took."""
    opponent = 1 - seat
    shown = 0
    for d in s.declarations:
        won_by_chouine = KINDS[d[1]] == "chouine" and s.chouine == opponent
        if d[0] == opponent and (len(s.tricks) >= d[5] or won_by_chouine):
            shown |= d[4]
    for t in s.taken_turn_ups:
        if t[0] == opponent:
            shown |= 1 << t[1]
    hidden = s.hands[opponent] & ~shown
    return {CARD_CODES[c] for c in rules.cards_in(hidden)} | {CARD_CODES[c] for c in s.talon}


@settings(max_examples=60, deadline=None)
@given(seed=seeds, eager=st.booleans())
def test_views_never_hold_a_card_the_seat_may_not_see(seed: int, eager: bool) -> None:
    for s, _ in partie(seed, eager):
        for seat in (0, 1):
            hidden = hidden_from(s, seat)
            assert not card_codes_in(view(s, seat)) & hidden
            obs = observation(s, seat)
            # "unseen" names the cards the seat has not seen, which it can work out itself.
            assert not card_codes_in({k: v for k, v in obs.items() if k != "unseen"}) & hidden
            if not s.talon and s.to_act is not None:
                known = set(obs["opponent_known"]) | set(obs["unseen"])
                assert known == set(rules.code_list(s.hands[1 - seat]))


def test_declaration_kinds_and_swaps_all_occur_in_eager_play() -> None:
    """The properties above do meet every declaration kind and both kinds of swap."""
    seen: set[str] = set()
    for seed in range(400):
        for s, a in partie(seed, True):
            if a is not None and a.declaration:
                seen.add(a.declaration)
            if a is not None and a.verb == "swap":
                seen.add("prompt swap" if s.prompt else "swap")
    assert seen >= {*KINDS[1:5], "swap", "prompt swap"}
