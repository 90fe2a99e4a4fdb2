"""Chouine for two: the engine contract of DESIGN.md §2 (rules: rules/chouine.md).

>>> import random
>>> s = deal_random(random.Random(7), dealer=1)
>>> s.to_act, len(view(s, 0)["hand"]), outcome(s) is None
(0, 5, True)
"""

from __future__ import annotations

from veillee.games.chouine.rules import (
    REASONS,
    Action,
    State,
    apply,
    deal,
    deal_random,
    from_json,
    legal_actions,
    outcome,
    to_json,
    why_illegal,
)
from veillee.games.chouine.views import observation, view
from veillee.games.contract import GameInfo, Option

INFO = GameInfo(
    name="chouine",
    seats=2,
    seat_names=("A", "B"),
    options={"best_of": Option(values=(3, 5), default=5)},
    levels=("usual", "strong"),
)
"""Two seats; one manche, best of 3 or best of 5 parties (rules §2)."""

__all__ = [
    "INFO",
    "REASONS",
    "Action",
    "State",
    "apply",
    "deal",
    "deal_random",
    "from_json",
    "legal_actions",
    "observation",
    "outcome",
    "to_json",
    "view",
    "why_illegal",
]
