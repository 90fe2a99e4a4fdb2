"""Charlemagne strong level against the usual one (or the greedy baseline): duplicate deals.

Every deal is played twice with the teams swapped: two strong seats (one team) against two seats
of the other player, through the real ``bot.choose(..., level="strong", budget=B)`` path, each
seat handed its observation only. Prints, for each budget, the strong team's share of the points
with a 95 % interval (bootstrap over deals), the CPU time of the strong decisions by phase
(``time.process_time``: p50 / p99 / max) and how many strong tables one core keeps at the usual
pace, if every move of the table were a strong decision.

Run niced while others work: ``nice -n 10 .venv/bin/python bench/charlemagne_strength.py
[--hands N] [--budget B[,B...]] [--against usual|greedy] [--processes P] [--seed S]``
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any

from charlemagne_bot import quantile

from veillee.cards import PIQUET_JOKERS_34, shuffled
from veillee.games.charlemagne import bot, rules, search, selfplay
from veillee.games.charlemagne.rules import Action

PACE = 0.9
"""Seconds between two moves of a table at the usual pace."""


def play_deal(n: int, *, seed: int, budget: int, against: str) -> dict[str, Any]:
    """Deal ``n`` of the run played twice (strong team NS, then EW): the strong team's points,
    the other team's, and the CPU seconds of each strong decision with a choice, by phase."""
    deck = shuffled(PIQUET_JOKERS_34, random.Random(f"deck-{seed}-{n}"))
    other = bot.choose if against == "usual" else bot.greedy_choose
    times: dict[str, list[float]] = {}

    def strong(obs: dict[str, Any], legal: Sequence[Action], rng: random.Random) -> Action:
        start = time.process_time()
        action = bot.choose(obs, legal, rng, level="strong", budget=budget)
        if len(legal) > 1:
            times.setdefault(obs["phase"], []).append(time.process_time() - start)
        return action

    points = {"strong": 0, "other": 0}
    for strong_team in (0, 1):
        players = [strong if rules.team(s) == strong_team else other for s in range(4)]
        tally = selfplay.Tally()
        rng = random.Random(f"search-{seed}-{n}-{strong_team}")
        tally.add(selfplay.play_hand(rules.deal(deck, dealer=n % 4), players, rng))
        points["strong"] += tally.points[strong_team]
        points["other"] += tally.points[1 - strong_team]
    return {**points, "times": times}


def share_interval(
    rows: Sequence[dict[str, Any]], seed: int, resamples: int = 2000
) -> tuple[float, float, float]:
    """The strong team's share of all points, and its 95 % bootstrap interval over deals."""
    strong = [r["strong"] for r in rows]
    total = [r["strong"] + r["other"] for r in rows]
    share = sum(strong) / max(1, sum(total))
    rng = random.Random(seed)
    shares = []
    for _ in range(resamples):
        picks = [rng.randrange(len(rows)) for _ in rows]
        shares.append(sum(strong[i] for i in picks) / max(1, sum(total[i] for i in picks)))
    shares.sort()
    return share, shares[int(0.025 * resamples)], shares[int(0.975 * resamples) - 1]


def run(hands: int, budget: int, against: str, processes: int, seed: int) -> None:
    job = functools.partial(play_deal, seed=seed, budget=budget, against=against)
    wall = time.perf_counter()
    if processes > 1:
        with multiprocessing.Pool(processes) as pool:
            rows = pool.map(job, range(hands), chunksize=1)
    else:
        rows = [job(n) for n in range(hands)]
    wall = time.perf_counter() - wall
    share, low, high = share_interval(rows, seed)
    strong = sum(r["strong"] for r in rows)
    other = sum(r["other"] for r in rows)
    print(
        f"budget {budget} ({budget / search.STRONG_BUDGET:.2f} of the default) against {against}:"
        f" {hands} deals x 2, strong {strong} points, {against} {other}:"
        f" share {100 * share:.1f} % [{100 * low:.1f}, {100 * high:.1f}]  ({wall:.0f} s wall)"
    )
    times: dict[str, list[float]] = {}
    for r in rows:
        for phase, ts in r["times"].items():
            times.setdefault(phase, []).extend(ts)
    every = [t for ts in times.values() for t in ts]
    if not every:
        return
    print(
        f"  strong decisions with a choice: {len(every)}, CPU p50 {quantile(every, 0.5) * 1000:.0f}"
        f" ms  p99 {quantile(every, 0.99) * 1000:.0f} ms  max {max(every) * 1000:.0f} ms"
        f"  mean {statistics.fmean(every) * 1000:.0f} ms"
    )
    for phase, ts in sorted(times.items()):
        print(
            f"    {phase:<8} n={len(ts):<6} p50 {quantile(ts, 0.5) * 1000:.0f} ms"
            f"  p99 {quantile(ts, 0.99) * 1000:.0f} ms  max {max(ts) * 1000:.0f} ms"
        )
    print(
        f"  one core keeps {PACE / statistics.fmean(every):.1f} tables at {PACE * 1000:.0f} ms a"
        " move, every move a strong decision with a choice"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=200, help="deals (each played twice)")
    parser.add_argument(
        "--budget",
        default=str(search.STRONG_BUDGET),
        help="sampled deals a decision, or several separated by commas",
    )
    parser.add_argument("--against", choices=("usual", "greedy"), default="usual")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for budget in (int(b) for b in args.budget.split(",")):
        run(args.hands, budget, args.against, args.processes, args.seed)


if __name__ == "__main__":
    main()
