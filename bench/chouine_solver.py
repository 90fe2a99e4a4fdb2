"""Benchmark: the Chouine endgame solver's time per decision (issue 2 §5; target p99 ≤ 5 ms).

Positions come from random play: each partie is played with uniformly random legal actions and
one phase-2 decision (tricks 12–16, the talon empty) is picked at random; the solver is timed on the
observation of the seat to act there (building the endgame from the observation included).
A second set takes the first decision of phase 2 in each partie, the deepest search.

Run alone: ``.venv/bin/python bench/chouine_solver.py [positions] [seed]``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from typing import Any

from veillee.games.chouine import apply, deal_random, legal_actions, observation
from veillee.games.chouine.solver import endgame_from_observation, solve


def endgame_positions(count: int, seed: int, first_only: bool) -> list[dict[str, Any]]:
    """``count`` phase-2 observations of the seat to act, one per randomly played partie."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    while len(out) < count:
        state = deal_random(rng, dealer=rng.randrange(2))
        found: list[dict[str, Any]] = []
        while state.to_act is not None:
            legal = legal_actions(state)
            if state.trick_number >= 12:
                found.append(observation(state, state.to_act))
                if first_only:
                    break
            state = apply(state, rng.choice(legal))
        if found:
            out.append(rng.choice(found))
    return out


def time_solver(positions: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """Milliseconds per decision: wall clock, and CPU time of this process (steadier when the
    machine is shared)."""
    wall = []
    cpu = []
    for obs in positions:
        start = time.perf_counter()
        cpu_start = time.process_time()
        endgame, _ = endgame_from_observation(obs)
        solve(endgame)
        cpu.append((time.process_time() - cpu_start) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    return wall, cpu


def report(label: str, times: tuple[list[float], list[float]]) -> None:
    for clock, values in zip(("wall", "CPU"), times, strict=True):
        q = statistics.quantiles(values, n=100, method="inclusive")
        print(
            f"{label} ({clock}): {len(values)} positions, p50 {statistics.median(values):.2f} ms,"
            f" p99 {q[98]:.2f} ms, max {max(values):.2f} ms"
        )


def main() -> int:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    report(
        "endgame solver, random phase-2 decisions",
        time_solver(endgame_positions(count, seed, False)),
    )
    report(
        "endgame solver, first decision of trick 12",
        time_solver(endgame_positions(count, seed, True)),
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
