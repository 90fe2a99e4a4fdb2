"""``veillee selfplay charlemagne`` runs end to end and prints its figures."""

from __future__ import annotations

import pytest

from veillee.cli import main as cli_main


def test_selfplay_prints_contracts_points_speed_and_share(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli_main(["selfplay", "charlemagne", "--hands", "12", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "12 computer-only hands, seed 3" in out
    for contract in ("5", "mulot", "charlemagne", "gros-charlemagne"):
        assert f"\n{contract} " in out
    assert "average points per hand:" in out
    assert "hands per second:" in out
    assert "12 deals x 2 = 24 hands" in out
    assert "computer share:" in out


def test_selfplay_refuses_zero_hands() -> None:
    with pytest.raises(SystemExit):
        cli_main(["selfplay", "charlemagne", "--hands", "0"])
