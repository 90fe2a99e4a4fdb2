"""Charlemagne computer player decision time: p50 / p99 / max over every decision of
computer-only hands (observation built outside the timing; target p99 <= 10 ms)."""

from __future__ import annotations

import argparse
import random
import statistics
import time

from veillee.games.charlemagne import bot, rules, views


def decision_times(hands: int, seed: int) -> dict[str, list[float]]:
    """Seconds per ``bot.choose`` call, keyed by the phase decided."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {}
    for n in range(hands):
        state = rules.deal_random(rng, dealer=n % 4)
        while state.to_act is not None:
            obs = views.observation(state, state.to_act)
            legal = rules.legal_actions(state)
            start = time.perf_counter()
            action = bot.choose(obs, legal, rng)
            times.setdefault(state.phase, []).append(time.perf_counter() - start)
            state = rules.apply(state, action)
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times = decision_times(args.hands, args.seed)
    every = [t for ts in times.values() for t in ts]
    print(f"charlemagne computer decisions: {len(every)} over {args.hands} hands")
    print(
        f"all: p50 {quantile(every, 0.5) * 1000:.3f} ms  p99 {quantile(every, 0.99) * 1000:.3f} ms"
        f"  max {max(every) * 1000:.3f} ms  mean {statistics.fmean(every) * 1000:.3f} ms"
    )
    for phase, ts in sorted(times.items()):
        print(
            f"  {phase:<8} n={len(ts):<6} p50 {quantile(ts, 0.5) * 1000:.3f} ms"
            f"  p99 {quantile(ts, 0.99) * 1000:.3f} ms"
        )


if __name__ == "__main__":
    main()
