"""``veillee selfplay chouine`` and its baseline players (issue 2 §5)."""

from __future__ import annotations

import random

import pytest

from tests.games.chouine.test_bot import observation
from veillee import cli
from veillee.games.chouine import Action, selfplay


def actions(texts: list[str]) -> list[Action]:
    return [Action.parse(t) for t in texts]


def test_selfplay_prints_partie_and_match_win_rates_and_speed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert selfplay.main(["--parties", "3", "--matches", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    for name in ("random", "greedy"):
        line = next(x for x in out.splitlines() if x.startswith(f"computer vs {name}"))
        assert "parties won" in line
        assert "of 6)" in line  # 3 deals, each played twice with the seats swapped
        assert "matches won" in line and "of 2)" in line  # 1 match, played twice
        assert "parties/s" in line
    assert "parties/s overall" in out


def test_cli_dispatches_selfplay_to_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["selfplay", "chouine", "--parties", "1", "--matches", "1"]) == 0
    assert "computer vs greedy" in capsys.readouterr().out


def test_duplicate_deals_play_every_deal_from_both_seats() -> None:
    tally = selfplay.Tally()
    selfplay.duplicate_parties(selfplay.greedy_player, 4, 7, tally, selfplay.greedy_player)
    # The same player on both sides of the same deals: every win of one seat is a loss of the
    # other, so the measured side wins exactly as many parties as it loses.
    assert tally.parties == 8
    assert tally.partie_wins == tally.partie_losses


def test_greedy_throws_its_lowest_non_trump_non_brisque_card() -> None:
    hand = ["AS", "KD", "TH", "9C", "7H"]
    choice = selfplay.greedy_player(observation(hand), actions(hand), random.Random(0))
    assert str(choice) == "9C"


def test_greedy_wins_a_brisque_cheaply() -> None:
    hand = ["9C", "QS", "KD", "8H", "7H"]
    obs = observation(hand, trick=[(1, "AS")])
    assert str(selfplay.greedy_player(obs, actions(hand), random.Random(0))) == "7H"


def test_greedy_follows_in_phase_two_with_the_cheapest_winning_card() -> None:
    hand = ["AS", "TS", "9S"]
    obs = observation(hand, turn_up=None, talon_count=0, trick_number=14, trick=[(1, "KS")])
    assert str(selfplay.greedy_player(obs, actions(hand), random.Random(0))) == "TS"


def test_random_player_plays_only_legal_actions() -> None:
    legal = actions(["AS", "9C", "swap"])
    rng = random.Random(3)
    assert {str(selfplay.random_player({}, legal, rng)) for _ in range(50)} == {"AS", "9C", "swap"}
