"""The strong Chouine computer against the usual one (or the greedy player): issue 24's figures.

Duplicate best-of-5 matches: match ``i`` is played twice over the same sequence of decks (each
partie ``k`` of the match dealt from the same shuffled deck, the first dealer the same), the
strong level in seat 0 then in seat 1, so that neither side gets the better cards. Every
decision goes through the real path: ``bot.choose(match.observation(m, seat), legal, rng,
level=…, budget=…)``, the observation being the match's (the score counts in the search). The
strong seat's ``rng`` is seeded from the seed, the match and the seat, so that a run is the same
whatever the number of processes.

Printed: matches won by the strong level with a 95 % Wilson interval, parties won, and the CPU
time of its decisions (``time.process_time`` around ``choose``, in the process that plays the
match: one core's time, whatever the load of the machine) for the talon-phase card plays (the
search) and for all its decisions, with how many tables one core serves when the computer moves
once every ``--pace`` seconds.

Run niced on a shared machine: ``nice -n 10 .venv/bin/python bench/chouine_strength.py
--matches 50 --budget 60 --opponent usual --processes 1``.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

from veillee.games.chouine import bot, rules, search
from veillee.games.chouine.match import MATCH as match
from veillee.games.chouine.selfplay import DeckSequence, greedy_player

Player = Callable[[Mapping[str, Any], Sequence[rules.Action], random.Random], rules.Action]


@dataclass
class Result:
    """One match (or more, added up): matches and parties won by the strong level, and the CPU
    milliseconds of its decisions (``search``: talon-phase card plays; ``other``: the rest)."""

    matches: int = 0
    match_wins: int = 0
    parties: int = 0
    partie_wins: int = 0
    partie_losses: int = 0
    search: list[float] = field(default_factory=list)
    other: list[float] = field(default_factory=list)

    def add(self, other: Result) -> None:
        self.matches += other.matches
        self.match_wins += other.match_wins
        self.parties += other.parties
        self.partie_wins += other.partie_wins
        self.partie_losses += other.partie_losses
        self.search += other.search
        self.other += other.other


def opponent_player(name: str) -> Player:
    """The usual level or the greedy player of the self-play tests."""
    if name == "greedy":
        # (the greedy player reads the partie's observation, not the match's)
        return lambda obs, legal, rng: greedy_player(obs["deal"], legal, rng)
    if name == "usual":
        return lambda obs, legal, rng: bot.choose(obs, legal, rng)
    raise ValueError(f"unknown opponent: {name}")


def play_match(
    decks: DeckSequence, first_dealer: int, strong_seat: int, opponent: Player, budget: int,
    rng: random.Random,
) -> Result:  # fmt: skip
    """One best-of-5 match, the strong level in ``strong_seat``."""
    out = Result(matches=1)
    m = match.start_match(rules.deal(decks(0), dealer=first_dealer), {"best_of": 5})
    count = 1
    while True:
        seat = match.to_act(m)
        if seat is None:
            result = match.outcome(m)
            if result is not None:
                out.parties += 1
                if result["winner"] == strong_seat:
                    out.partie_wins += 1
                elif result["winner"] is not None:
                    out.partie_losses += 1
            if match.is_over(m):
                out.match_wins = int(match.winner(m) == strong_seat)
                return out
            m = match.next_deal_from(m, decks(count))
            count += 1
            continue
        legal = match.legal_actions(m)
        obs = match.observation(m, seat)
        if seat == strong_seat:
            deal = m.deal
            searched = len(deal.talon) >= 2 and not deal.prompt
            start = time.process_time()
            action = bot.choose(obs, legal, rng, level="strong", budget=budget)
            spent = (time.process_time() - start) * 1000
            (out.search if searched else out.other).append(spent)
        else:
            action = opponent(obs, legal, rng)
        m = match.apply(m, action)


def duplicate(task: tuple[int, int, str, int]) -> Result:
    """Match ``i`` played twice (the strong level in seat 0, then 1) over the same decks."""
    seed, i, opponent_name, budget = task
    opponent = opponent_player(opponent_name)
    total = Result()
    decks = DeckSequence(random.Random(f"{seed}/{i}"))
    for strong_seat in (0, 1):
        rng = random.Random(f"{seed}/{i}/{strong_seat}")
        total.add(play_match(decks, i % 2, strong_seat, opponent, budget, rng))
    return total


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a rate of ``wins`` in ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=50, help="duplicate pairs of matches")
    parser.add_argument("--budget", type=int, default=bot.STRONG_BUDGET, help="sampled worlds")
    parser.add_argument("--opponent", default="usual", choices=("usual", "greedy"))
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--first", type=int, default=0, help="index of the first match pair")
    parser.add_argument("--pace", type=float, default=0.9, help="seconds between computer moves")
    parser.add_argument("--progress", action="store_true", help="a line per pair played")
    parser.add_argument("--clear-sigmas", type=float, default=search.CLEAR_SIGMAS)
    parser.add_argument("--clear-gain", type=float, default=search.CLEAR_GAIN)
    args = parser.parse_args(argv)
    # (the search reads these when it decides; set before the processes start, which inherit them)
    search.CLEAR_SIGMAS = args.clear_sigmas
    search.CLEAR_GAIN = args.clear_gain
    tasks = [
        (args.seed, i, args.opponent, args.budget)
        for i in range(args.first, args.first + args.matches)
    ]
    total = Result()
    started = time.perf_counter()

    def done(r: Result) -> None:
        total.add(r)
        if args.progress:
            every = total.search + total.other
            print(
                f"  {total.matches // 2} pairs: {total.match_wins} of {total.matches} matches"
                f" won, parties {total.partie_wins}-{total.partie_losses}; search p50"
                f" {quantile(total.search, 0.5):.0f} ms p99 {quantile(total.search, 0.99):.0f} ms,"
                f" mean of all {sum(every) / len(every):.1f}"
                " ms CPU",
                flush=True,
            )

    if args.processes > 1:
        with Pool(args.processes) as pool:
            for r in pool.imap_unordered(duplicate, tasks):
                done(r)
    else:
        for task in tasks:
            done(duplicate(task))
    wall = time.perf_counter() - started
    low, high = wilson(total.match_wins, total.matches)
    ties = total.parties - total.partie_wins - total.partie_losses
    every = total.search + total.other
    mean = sum(every) / len(every) if every else 0.0
    print(
        f"strong (budget {args.budget}, clear at {args.clear_gain} and {args.clear_sigmas}"
        f" sigmas) vs {args.opponent}, seed {args.seed}, pairs"
        f" {args.first}-{args.first + args.matches - 1}: matches won"
        f" {100 * total.match_wins / total.matches:.1f} % [{100 * low:.1f}, {100 * high:.1f}]"
        f" ({total.match_wins} of {total.matches}); parties won {total.partie_wins}, lost"
        f" {total.partie_losses}, tied {ties}; {wall:.0f} s wall"
    )
    for name, values in (("talon search", total.search), ("every decision", every)):
        print(
            f"  {name:<14} n={len(values):<6} p50 {quantile(values, 0.5):7.1f} ms"
            f"  p99 {quantile(values, 0.99):7.1f} ms  max {max(values, default=0.0):7.1f} ms CPU"
        )
    if mean:
        print(
            f"  mean {mean:.1f} ms CPU a decision: one core serves {args.pace * 1000 / mean:.0f}"
            f" strong tables whose computer moves every {args.pace} s"
        )


if __name__ == "__main__":
    main()
