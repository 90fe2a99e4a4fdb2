"""The Chouine match: one manche, best of 3 (first to 2) or best of 5 (first to 3).

Implements rules/chouine.md §2 as the parts of the match shell (:mod:`veillee.games.match`): a
random first dealer; after a decided partie the deal passes to the other seat; after a tie the
same seat deals again and nothing is scored; the match ends the moment a seat reaches the target.
``MATCH`` is the match contract the registry holds.

>>> import random
>>> m = MATCH.new_match(random.Random(1), {"best_of": 3})
>>> m.scores, m.number, MATCH.to_act(m) == 1 - m.dealer
((0, 0), 1, True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from veillee.games.chouine import INFO, rules, views
from veillee.games.contract import BadOptions
from veillee.games.match import Match, MatchShell


def target(m: Match) -> int:
    """Partie wins needed to win the match: 2 in best of 3, 3 in best of 5."""
    return m.options["best_of"] // 2 + 1


class Parties:
    """Chouine's parts of its match (rules §2): seats are the sides; the score counts parties
    won (``"wins"``), the deal's number is the partie's (``"partie"``, ties included)."""

    score_name = "wins"
    number_name = "partie"

    def options(self, given: Mapping[str, int]) -> dict[str, int]:
        """``{"best_of": n}`` (best of 5 when not given). Raises BadOptions for an unknown
        option or an even ``best_of``: a manche is won by the first to more than half its
        parties (tables offer 3 and 5: ``INFO.table_options``)."""
        full = INFO.match_options(given)
        if full["best_of"] < 1 or full["best_of"] % 2 == 0:
            raise BadOptions("best_of")
        return full

    def side(self, seat: int) -> int:
        """Each seat plays for itself."""
        return seat

    def scored(self, outcome: dict[str, Any]) -> tuple[int, int]:
        """A decided partie is one win for its winner; a tie scores nothing."""
        winner = outcome["winner"]
        return (int(winner == 0), int(winner == 1)) if winner is not None else (0, 0)

    def result(self, number: int, dealer: int, outcome: dict[str, Any]) -> dict[str, Any]:
        """``{"partie", "winner" (None for a tie), "totals" ([seat 0, seat 1], None after a
        chouine), "chouine" (the seat whose chouine ended it, or None)}``."""
        totals = outcome["totals"]
        return {
            "partie": number,
            "winner": outcome["winner"],
            "totals": list(totals) if isinstance(totals, list) else None,
            "chouine": outcome["chouine"],
        }

    def next_dealer(self, m: Match) -> int:
        """The other seat after a decided partie, the same after a tie."""
        last = m.results[-1] if m.results else None
        if last is not None and last["partie"] == m.number and last["winner"] is None:
            return m.dealer
        return 1 - m.dealer

    def winner(self, m: Match) -> int | None:
        """The seat with the target number of partie wins, once one has it."""
        if max(m.scores) < target(m):
            return None
        return 0 if m.scores[0] > m.scores[1] else 1

    def phase(self, state: rules.State) -> int:
        """1 while the talon lasts, 2 once it is gone (rules §12)."""
        return rules.phase(state)

    def trick_gathered(self, state: rules.State) -> bool:
        """A trick has been taken and the next not led."""
        return bool(state.tricks) and not state.trick


MATCH = MatchShell(Parties(), rules=rules, views=views, seats=INFO.seats)
"""Chouine's match contract (:class:`~veillee.games.contract.MatchRules`)."""
