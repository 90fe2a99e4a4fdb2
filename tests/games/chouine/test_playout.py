"""The fast playout (``playout.py``) follows the same rules as ``legal_actions``/``apply``.

Each decision of a traced playout lists its legal actions; replaying the trace through the
public engine must meet exactly the same set at every step and end on the same outcome.
"""

from __future__ import annotations

import random

import pytest

from veillee.games.chouine import rules
from veillee.games.chouine.playout import Outcome, Trace, playout, random_partie
from veillee.games.chouine.rules import Action, State


def replay(state: State, trace: Trace) -> State:
    for texts, chosen in trace:
        assert sorted(str(a) for a in rules.legal_actions(state)) == sorted(texts)
        state = rules.apply(state, Action.parse(chosen))
    return state


def as_outcome(state: State) -> Outcome:
    out = rules.outcome(state)
    assert out is not None
    totals = out["totals"]
    chouine = out["chouine"]
    winner = out["winner"]
    assert winner is None or isinstance(winner, int)
    assert chouine is None or isinstance(chouine, int)
    return (winner, (totals[0], totals[1]) if isinstance(totals, list) else None, chouine)


def test_playout_agrees_with_legal_actions_and_apply_from_the_deal() -> None:
    rng = random.Random(11)
    kinds: set[str] = set()
    # 1000 random parties meet every kind below (all met by party 544 with these seeds).
    for i in range(1000):
        s = rules.deal_random(rng, dealer=i & 1)
        trace: Trace = []
        result = playout(s, random.Random(i), trace)
        end = replay(s, trace)
        assert end.to_act is None
        assert as_outcome(end) == result
        kinds |= {chosen.split()[1] for _, chosen in trace if " " in chosen}
        kinds |= {chosen for _, chosen in trace if chosen in ("swap", "continue")}
    assert kinds >= {"mariage", "tierce", "quateron", "quinte", "swap", "continue"}


def test_playout_agrees_from_any_state_of_a_partie() -> None:
    rng = random.Random(12)
    for i in range(1500):
        s = rules.deal_random(rng, dealer=i & 1)
        for _ in range(rng.randrange(40)):
            if s.to_act is None:
                break
            s = rules.apply(s, rng.choice(rules.legal_actions(s)))
        trace: Trace = []
        result = playout(s, random.Random(i), trace)
        assert as_outcome(replay(s, trace)) == result


@pytest.mark.parametrize("turn_up", ["7S", "9D"])
def test_playout_of_chouine_positions(turn_up: str) -> None:
    """The chouine resolutions of rules §9 through the fast path: two plain chouines, and a
    plain one against the trump chouine (turn-up 9D)."""
    a, b = ["AC", "TC", "KC", "QC", "JC"], ["AD", "TD", "KD", "QD", "JD"]
    rest = [c for c in rules.PACK if c not in {*a, *b, turn_up}]
    deck = [x for pair in zip(a, b, strict=True) for x in pair] + [turn_up, *rest]
    s = rules.deal(deck, dealer=1)
    seen = set()
    for seed in range(200):
        trace: Trace = []
        result = playout(s, random.Random(seed), trace)
        assert as_outcome(replay(s, trace)) == result
        seen.add(result[2])
    assert seen >= {0, 1}


def test_random_partie_ends_with_a_result() -> None:
    rng = random.Random(5)
    results = [random_partie(rng, i & 1) for i in range(2000)]
    wins = [r[0] for r in results]
    assert wins.count(0) > 500 and wins.count(1) > 500
    assert all(r[1] is None or sum(r[1]) >= 130 for r in results)
