"""Charlemagne's own properties of random hands, played as the conformance suite plays them
(``tests/games/test_contract.py``): what each hand scores (rules §9–§11), the match to 32 with
the deal passing left (§2), and that the golden playthroughs meet each kind of contract."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.test_contract import random_deal
from veillee.games.charlemagne import POINTS, bot, rules
from veillee.games.charlemagne.match import MATCH as match
from veillee.games.charlemagne.rules import Action

GOLDEN = Path(__file__).parent / "golden"


@settings(max_examples=40)
@given(st.integers(0, 2**32))
def test_exactly_one_team_scores_each_hand_what_the_contract_is_worth(seed: int) -> None:
    final = random_deal("charlemagne", seed)[-1][0]
    out = rules.outcome(final)
    assert out is not None
    bidding_team = rules.team(out["bidder"])
    made_pts, fail_pts = POINTS[out["contract"]]
    if out["made"]:
        assert (out["scoring_team"], out["points"]) == (bidding_team, made_pts)
    else:
        assert (out["scoring_team"], out["points"]) == (1 - bidding_team, fail_pts)
    assert sum(out["tricks"]) == len(final.tricks) <= 8


@settings(max_examples=10)
@given(st.integers(0, 2**32))
def test_match_runs_to_32_with_the_deal_passing_left(seed: int) -> None:
    rng = random.Random(seed)
    m = match.new_match(rng, {})
    first = m.dealer
    while not match.is_over(m):
        if match.deal_over(m):
            m = match.next_deal(m, rng)
            assert m.dealer == (first + m.number - 1) % 4
        seat = match.to_act(m)
        assert seat is not None
        obs = match.observation(m, seat)["deal"]
        m = match.apply(m, bot.choose(obs, match.legal_actions(m), rng))
    winner = match.winner(m)
    assert winner is not None and m.scores[winner] >= 32 and m.scores[1 - winner] < 32
    assert sum(r["points"] for r in m.results) == sum(m.scores)
    assert match.why_illegal(m, 0, Action.pass_()) == "match_over"


def test_golden_playthroughs_cover_each_kind_of_contract() -> None:
    contracts = set()
    for path in GOLDEN.glob("*.txt"):
        outcome_line = next(
            line for line in path.read_text().splitlines() if line.startswith("outcome: ")
        )
        contracts.add(json.loads(outcome_line.removeprefix("outcome: "))["contract"])
    assert contracts == {"6", "mulot", "charlemagne", "gros-mulot"}
