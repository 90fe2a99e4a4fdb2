"""A decision job: what one computer seat decides from, and the deciding itself.

A job carries only what the deciding seat may know (DESIGN.md §3): its observation (the match
contract's ``observation(m, seat)``, the match's public part with the seat's own view of the
deal) and its legal actions, the level, a seed, the table id and the record version it was asked
at. Never the state, the deck or another seat's cards: a worker can run anywhere, and no-peeking
holds by construction. :func:`decide` is what a worker runs (in a process of the embedded pool,
or in ``veillee worker``): the game's computer player on the job, and nothing else.

>>> import random
>>> from veillee.games import find
>>> game = find("chouine")
>>> m = game.match.new_match(random.Random(3), {})
>>> seat = game.match.to_act(m)
>>> job = Decision.ask("chouine", seat, game.match.observation(m, seat),
...                    game.match.legal_actions(m), "usual", 7, "t1", 0)
>>> Decision.from_json(job.to_json()) == job
True
>>> answer = decide(job)
>>> answer.action in job.legal and answer.seconds >= 0
True
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from veillee.games import find

USUAL = "usual"
"""The computer's usual level (the one every table had before levels)."""


@dataclass(frozen=True)
class Decision:
    """One decision asked of the computer: ``game`` (registry name), the ``seat`` to act, its
    ``observation`` (JSON-ready), the ``legal`` actions as text (docs/notation.md), the
    ``level``, the ``seed`` of the choice's generator, and the ``table_id`` and ``version`` it
    was asked at (the answer is applied only there); ``budget``, the strong level's search
    budget (None: the game's default; ``Settings.search_budgets``)."""

    game: str
    seat: int
    observation: dict[str, Any]
    legal: tuple[str, ...]
    level: str
    seed: int
    table_id: str
    version: int
    budget: int | None = None

    @classmethod
    def ask(
        cls,
        game: str,
        seat: int,
        observation: dict[str, Any],
        legal: Sequence[Any],
        level: str,
        seed: int,
        table_id: str,
        version: int,
        budget: int | None = None,
    ) -> Decision:
        """The job for ``seat`` with its ``legal`` actions (values with a text form)."""
        texts = tuple(str(action) for action in legal)
        return cls(game, seat, observation, texts, level, seed, table_id, version, budget)

    def to_json(self) -> str:
        """The job as JSON text (what goes on a queue between machines)."""
        return json.dumps(
            {
                "game": self.game,
                "seat": self.seat,
                "observation": self.observation,
                "legal": list(self.legal),
                "level": self.level,
                "seed": self.seed,
                "table_id": self.table_id,
                "version": self.version,
                "budget": self.budget,
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> Decision:
        """The job :meth:`to_json` wrote. Raises ValueError (or KeyError, TypeError) for
        anything else."""
        data = json.loads(text)
        return cls(
            game=str(data["game"]),
            seat=int(data["seat"]),
            observation=dict(data["observation"]),
            legal=tuple(str(a) for a in data["legal"]),
            level=str(data["level"]),
            seed=int(data["seed"]),
            table_id=str(data["table_id"]),
            version=int(data["version"]),
            budget=None if data.get("budget") is None else int(data["budget"]),
        )


@dataclass(frozen=True)
class Answer:
    """What a worker answers: the ``action`` chosen (its text) and the ``seconds`` the choice
    took in the worker."""

    action: str
    seconds: float


def decide(job: Decision) -> Answer:
    """The game's computer player on ``job``: ``player.choose(observation, legal_actions,
    Random(seed), level=level, budget=budget)``, timed. Raises KeyError for an unknown game,
    ValueError for a legal action that does not parse or a level the player does not know."""
    started = time.perf_counter()
    game = find(job.game)
    legal = [game.engine.Action.parse(text) for text in job.legal]
    action = game.player.choose(
        job.observation, legal, random.Random(job.seed), level=job.level, budget=job.budget
    )
    return Answer(str(action), time.perf_counter() - started)


def decide_all(jobs: list[Decision]) -> list[Answer | Exception]:
    """:func:`decide` on each of ``jobs`` (handed over together), each answer or what its
    decision raised, in order."""
    answers: list[Answer | Exception] = []
    for job in jobs:
        try:
            answers.append(decide(job))
        except Exception as failed:
            answers.append(failed)
    return answers


def warm() -> bool:
    """Load the games' modules in this worker, so that its first decision is not slow."""
    import veillee.games.registry  # noqa: F401

    return True
