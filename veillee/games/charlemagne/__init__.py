"""Charlemagne (Canadian form, 34 cards): the engine contract of DESIGN.md §2.

Rules: ``shared/rules/charlemagne.md``. Text notation: docs/notation.md (Charlemagne); what
``view`` and ``observation`` hold: docs/charlemagne-views.md. The match to 32 is in ``match``,
the computer players in ``bot``.
"""

from __future__ import annotations

from veillee.games.contract import GameInfo, Option

from .rules import (
    LADDER,
    POINTS,
    REASONS,
    Action,
    State,
    apply,
    deal,
    deal_random,
    effective_suit,
    from_json,
    legal_actions,
    outcome,
    partner,
    strength,
    to_json,
    why_illegal,
)
from .views import observation, view

INFO = GameInfo(
    name="charlemagne",
    seats=4,
    seat_names=("N", "E", "S", "W"),
    options={"target": Option(values=(32,), default=32)},
    partners=tuple(partner(seat) for seat in range(4)),
    levels=("usual", "strong"),
)
"""Four seats N, E, S, W clockwise, partners opposite; first team to 32 (rules §2)."""

__all__ = [
    "INFO",
    "LADDER",
    "POINTS",
    "REASONS",
    "Action",
    "State",
    "apply",
    "deal",
    "deal_random",
    "effective_suit",
    "from_json",
    "legal_actions",
    "observation",
    "outcome",
    "strength",
    "to_json",
    "view",
    "why_illegal",
]
