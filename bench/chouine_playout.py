"""Random Chouine parties per CPU second through the engine contract, on one core.

Each partie is dealt with ``deal_random`` (rules §3), then at every decision the engine's
``legal_actions`` lists what the seat to act may do (follow duties, every declaration, the seven
swap and prompt, the chouine) and one of them, drawn uniformly at random, is passed to ``apply``,
until the partie is over. Nothing else runs: this is the path the table service, the computer
players and self-play use. Target (issue 7): 20,000 parties per CPU second.

CPU time (``time.process_time``) is what one core gives this process; wall time also counts the
turns other processes take on a shared machine.

Run alone: ``.venv/bin/python bench/chouine_playout.py [seconds] [seed]``
"""

from __future__ import annotations

import random
import sys
import time

from veillee.games.chouine import apply, deal_random, legal_actions


def random_parties(seconds: float, seed: int) -> tuple[int, float, float]:
    """Play random parties for about ``seconds``: (parties, CPU s, wall s)."""
    rng = random.Random(seed)
    choice = rng.choice
    parties = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(500):
            state = deal_random(rng, dealer=parties & 1)
            while state.to_act is not None:
                state = apply(state, choice(legal_actions(state)))
            parties += 1
    return parties, time.process_time() - cpu, time.perf_counter() - start


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20261129
    parties, cpu, wall = random_parties(seconds, seed)
    print(
        f"chouine random parties (deal_random/legal_actions/apply): {parties / cpu:,.0f} per CPU"
        f" second, {parties / wall:,.0f}/s wall ({parties} parties, {cpu:.1f} s CPU)"
    )


if __name__ == "__main__":
    main()
