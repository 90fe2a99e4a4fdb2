"""Random-playout parties per second with the full Chouine rules, on one core.

Each partie is shuffled and dealt (rules §3), then every decision enumerates the legal actions
(follow duties, every declaration, the seven swap and prompt, the chouine) and takes one uniformly
at random, to the count. The fast path is :func:`veillee.games.chouine.playout.random_partie`; the
public ``legal_actions``/``apply`` path is measured too, for comparison.

Run: ``.venv/bin/python bench/chouine_playout.py [seconds]``
"""

from __future__ import annotations

import random
import sys
import time

from veillee.games.chouine import rules
from veillee.games.chouine.playout import random_partie


def bench_fast(seconds: float) -> tuple[int, float, float]:
    """(parties, wall seconds, CPU seconds) of fast random playouts for about ``seconds``."""
    rng = random.Random(20261129)
    parties = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(1000):
            random_partie(rng, parties & 1)
            parties += 1
    return parties, time.perf_counter() - start, time.process_time() - cpu


def bench_api(seconds: float) -> tuple[int, float]:
    """(parties, CPU seconds) through ``deal_random``/``legal_actions``/``apply``."""
    rng = random.Random(20261129)
    parties = 0
    start = time.perf_counter()
    cpu = time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = rules.deal_random(rng, dealer=parties & 1)
        while state.to_act is not None:
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
        parties += 1
    return parties, time.process_time() - cpu


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    n, dt, cpu = bench_fast(seconds)
    # CPU time is what one core gives this process; wall time also counts other processes'
    # turns when the machine is shared.
    print(
        f"chouine random playout (fast path): {n / cpu:,.0f} parties per CPU second, "
        f"{n / dt:,.0f} parties/s wall ({n} parties, {dt:.1f} s)"
    )
    n, dt = bench_api(min(seconds, 2.0))
    print(
        f"chouine random playout (legal_actions/apply): {n / dt:,.0f} parties per CPU second "
        f"({n} parties)"
    )


if __name__ == "__main__":
    main()
