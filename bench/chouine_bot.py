"""Chouine computer player decision time (target: trick-11 decisions p99 <= 25 ms).

Parties are played by the computer player in both seats from ``deal_random``; every decision is
timed on ``bot.choose(observation, legal_actions, rng)``, the observation being built outside the
timing (the table service builds it once per move). Trick 11 is the costly case: the talon holds
one face-down card and the turn-up, and the player searches tricks 11–16 for each card the
face-down one can be (``solver.solve_last_draw``). Figures are CPU time of this process.

Run alone: ``.venv/bin/python bench/chouine_bot.py [parties] [seed]``
"""

from __future__ import annotations

import random
import statistics
import sys
import time

from veillee.games.chouine import apply, bot, deal_random, legal_actions, observation


def decision_times(parties: int, seed: int) -> dict[str, list[float]]:
    """Milliseconds of CPU per ``bot.choose`` call, by kind of decision: ``"trick 11"``,
    ``"talon"`` (tricks 1–10 and the prompt) and ``"endgame"`` (tricks 12–16)."""
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"trick 11": [], "talon": [], "endgame": []}
    for n in range(parties):
        state = deal_random(rng, dealer=n & 1)
        while state.to_act is not None:
            obs = observation(state, state.to_act)
            legal = legal_actions(state)
            start = time.process_time()
            action = bot.choose(obs, legal, rng)
            spent = (time.process_time() - start) * 1000
            if state.trick_number == 11 and not state.prompt:
                times["trick 11"].append(spent)
            elif state.trick_number > 11:
                times["endgame"].append(spent)
            else:
                times["talon"].append(spent)
            state = apply(state, action)
    return times


def quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parties = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    times = decision_times(parties, seed)
    print(f"chouine computer decisions over {parties} parties (CPU time per bot.choose):")
    for kind, values in times.items():
        print(
            f"  {kind:<8} n={len(values):<5} p50 {statistics.median(values):.2f} ms"
            f"  p99 {quantile(values, 0.99):.2f} ms  max {max(values):.2f} ms"
        )


if __name__ == "__main__":
    main()
