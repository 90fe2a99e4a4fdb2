"""Charlemagne engine speed: random-playout hands per second (every legal action list built,
one chosen uniformly at random, applied), and the same with a view of the seat to act."""

from __future__ import annotations

import argparse
import random
import time

from veillee.games.charlemagne import rules, views


def playouts(hands: int, seed: int, with_views: bool) -> float:
    """Hands per second of uniformly random play."""
    rng = random.Random(seed)
    start = time.perf_counter()
    for n in range(hands):
        state = rules.deal_random(rng, dealer=n % 4)
        while state.to_act is not None:
            if with_views:
                views.view(state, state.to_act)
            state = rules.apply(state, rng.choice(rules.legal_actions(state)))
    return hands / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rate = playouts(args.hands, args.seed, with_views=False)
    print(f"charlemagne random playout: {rate:,.0f} hands/s ({args.hands} hands)")
    rate = playouts(args.hands // 5, args.seed, with_views=True)
    print(f"charlemagne random playout with a view per step: {rate:,.0f} hands/s")


if __name__ == "__main__":
    main()
