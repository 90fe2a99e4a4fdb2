"""A Charlemagne match: hands until a team reaches the target (32), the deal passing left.

Implements rules §2 (random first dealer, deal passes one seat left after every hand, first team
to 32 or more wins at once) and §11 as the parts of the match shell (:mod:`veillee.games.match`).
Teams are the sides: 0 = NS, 1 = EW. ``MATCH`` is the match contract the registry holds.

>>> import random
>>> m = MATCH.new_match(random.Random(7), {})
>>> m.scores, m.options["target"], m.number, MATCH.is_over(m)
((0, 0), 32, 1, False)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from veillee.games.contract import BadOptions
from veillee.games.match import Match, MatchShell

from . import INFO, rules, views


class Parties:
    """Charlemagne's parts of its match (rules §2, §11): the score counts each team's points
    (``"scores"`` [NS, EW]), the deal's number is the hand's (``"hand"``)."""

    score_name = "scores"
    number_name = "hand"

    def options(self, given: Mapping[str, int]) -> dict[str, int]:
        """``{"target": n}`` (32 when not given). Raises BadOptions for an unknown option or a
        target below 1 (tables offer 32 only: ``INFO.table_options``; tests shorten
        matches)."""
        full = INFO.match_options(given)
        if full["target"] < 1:
            raise BadOptions("target")
        return full

    def side(self, seat: int) -> int:
        """The seat's team (rules §2: partners sit opposite)."""
        return rules.team(seat)

    def scored(self, outcome: dict[str, Any]) -> tuple[int, int]:
        """The hand's points go to the scoring team (§11)."""
        team, points = outcome["scoring_team"], outcome["points"]
        return (points, 0) if team == 0 else (0, points)

    def result(self, number: int, dealer: int, outcome: dict[str, Any]) -> dict[str, Any]:
        """``{"hand", "dealer", **outcome}`` (the outcome's keys: docs/charlemagne-views.md)."""
        return {"hand": number, "dealer": dealer, **outcome}

    def next_dealer(self, m: Match) -> int:
        """One seat left of the dealer (§2)."""
        return rules.left(m.dealer)

    def winner(self, m: Match) -> int | None:
        """The team that has reached the target, once one has (§2)."""
        return next((team for team in (0, 1) if m.scores[team] >= m.options["target"]), None)

    def phase(self, state: rules.State) -> str:
        """``"auction"``, ``"choose"``, ``"give"``, ``"discard"``, ``"trump"``, ``"play"`` or
        ``"over"`` (docs/charlemagne-views.md)."""
        return state.phase

    def trick_gathered(self, state: rules.State) -> bool:
        """A trick has been taken and the next not led."""
        return bool(state.tricks) and not state.trick


MATCH = MatchShell(Parties(), rules=rules, views=views, seats=INFO.seats)
"""Charlemagne's match contract (:class:`~veillee.games.contract.MatchRules`)."""
