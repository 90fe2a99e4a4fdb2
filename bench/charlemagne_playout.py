"""Random Charlemagne hands per CPU second through the engine contract (target, issue 7: twice the
3,500 hands/s measured before it, so 7,000).

Each hand is dealt with ``deal_random``; at every decision (bids, kitty choice, blind card,
discards, trump, cards) ``legal_actions`` lists what the seat to act may do, one is drawn
uniformly at random and passed to ``apply``, until the hand stops (rules §10). A second figure
also builds ``view(state, seat)`` for the seat to act at every step, as a table does.

Run alone: ``.venv/bin/python bench/charlemagne_playout.py [--hands N] [--seed S]``
"""

from __future__ import annotations

import argparse
import random
import time

from veillee.games.charlemagne import apply, deal_random, legal_actions, view


def playouts(hands: int, seed: int, with_views: bool) -> tuple[float, float]:
    """(hands per CPU second, decisions per hand) of uniformly random play."""
    rng = random.Random(seed)
    decisions = 0
    start = time.process_time()
    for n in range(hands):
        state = deal_random(rng, dealer=n % 4)
        while state.to_act is not None:
            if with_views:
                view(state, state.to_act)
            state = apply(state, rng.choice(legal_actions(state)))
            decisions += 1
    return hands / (time.process_time() - start), decisions / hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rate, decisions = playouts(args.hands, args.seed, with_views=False)
    print(
        f"charlemagne random hands (deal_random/legal_actions/apply): {rate:,.0f} per CPU second"
        f" ({args.hands} hands, {decisions:.1f} decisions each)"
    )
    rate, _ = playouts(args.hands // 5, args.seed, with_views=True)
    print(f"charlemagne random hands with a view per decision: {rate:,.0f} per CPU second")


if __name__ == "__main__":
    main()
