"""Golden playthroughs of fixed decks (a number bid, Mulot, Charlemagne, Gros Mulot), diffed
against the text files in ``golden/``. Regenerate with ``CHARLEMAGNE_GOLDEN=regen``."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from veillee.cards import PIQUET_JOKERS_34, shuffled
from veillee.games.charlemagne import bot, rules, views
from veillee.games.charlemagne.rules import SEAT_NAMES, Action

GOLDEN = Path(__file__).parent / "golden"

# name -> (deck seed, dealer, the auction as played)
PLAYTHROUGHS: dict[str, tuple[int, int, list[str]]] = {
    "number-bid": (3, 3, ["6", "pass", "pass", "pass"]),
    "mulot": (2, 2, ["pass", "mulot", "pass", "pass"]),
    "charlemagne": (11, 0, ["pass", "charlemagne", "pass", "pass"]),
    "gros-mulot": (5, 1, ["gros-mulot", "pass", "pass", "pass"]),
}


def playthrough(seed: int, dealer: int, auction: list[str]) -> str:
    """Every step of the hand: who acts, what is legal, what was chosen, each trick, the outcome
    and each seat's final view."""
    deck = shuffled(PIQUET_JOKERS_34, random.Random(seed))
    state = rules.deal(deck, dealer=dealer)
    lines = [
        f"deck: {' '.join(deck)}",
        f"dealer: {SEAT_NAMES[dealer]}",
        *(f"hand {SEAT_NAMES[s]}: {' '.join(state.hands[s])}" for s in range(4)),
        f"kitty: {' '.join(state.kitty)}",
    ]
    rng = random.Random(seed)
    step = 0
    while state.to_act is not None:
        seat = state.to_act
        legal = rules.legal_actions(state)
        if step < len(auction):
            action = Action.parse(auction[step])
        else:
            action = bot.choose(views.observation(state, seat), legal, rng)
        step += 1
        shown = (
            f"{len(legal)} discards"
            if state.phase == "discard"
            else " ".join(str(a) for a in legal)
        )
        lines.append(f"{step:>3} {state.phase:<8} {SEAT_NAMES[seat]} [{shown}] -> {action}")
        done = len(state.tricks)
        state = rules.apply(state, action)
        if len(state.tricks) > done:
            t = state.tricks[-1]
            cards = ", ".join(f"{SEAT_NAMES[p]} {c}" for p, c in t.cards)
            lines.append(f"    trick {done + 1}: {cards} -> {SEAT_NAMES[t.winner]}")
    lines.append(f"outcome: {json.dumps(rules.outcome(state), sort_keys=True)}")
    for seat in range(4):
        lines.append(
            f"view {SEAT_NAMES[seat]}: {json.dumps(views.view(state, seat), sort_keys=True)}"
        )
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(PLAYTHROUGHS))
def test_golden_playthrough_is_unchanged(name: str) -> None:
    text = playthrough(*PLAYTHROUGHS[name])
    path = GOLDEN / f"{name}.txt"
    if os.environ.get("CHARLEMAGNE_GOLDEN") == "regen":
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text)
    assert path.read_text() == text


def test_golden_playthroughs_cover_each_kind_of_contract() -> None:
    contracts = set()
    for name in PLAYTHROUGHS:
        outcome_line = next(
            line
            for line in (GOLDEN / f"{name}.txt").read_text().splitlines()
            if line.startswith("outcome: ")
        )
        contracts.add(json.loads(outcome_line.removeprefix("outcome: "))["contract"])
    assert contracts == {"6", "mulot", "charlemagne", "gros-mulot"}
