"""The action notation of docs/notation.md (Chouine section) and the reason codes it lists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from veillee.games.chouine import rules
from veillee.games.chouine.rules import Action

NOTATION = Path(__file__).parents[3] / "docs" / "notation.md"


def test_every_action_text_round_trips() -> None:
    for row in rules.PLAY_ACTIONS:
        for action in row:
            assert Action.parse(str(action)) == action
    assert str(Action.parse("swap")) == "swap"
    assert str(Action.parse("continue")) == "continue"
    assert str(Action.parse(" jh  Tierce ")) == "JH tierce"
    assert Action.play("KD", "mariage") == Action.parse("KD mariage")


@pytest.mark.parametrize(
    "text", ["", "JH tierce extra", "1H", "JX", "JH belote", "swap JH", "10H", "continue now"]
)
def test_bad_text_raises_value_error(text: str) -> None:
    with pytest.raises(ValueError):
        Action.parse(text)


def test_reason_codes_are_documented_in_notation_md() -> None:
    chouine = NOTATION.read_text(encoding="utf-8").split("## Chouine", 1)[1].split("\n## ", 1)[0]
    chouine = chouine.split("### Reason codes", 1)[1]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", chouine, flags=re.M))
    assert documented == set(rules.REASONS)


def test_malformed_action_value_is_unknown_action() -> None:
    s = rules.deal(list(rules.PACK), dealer=1)
    assert rules.why_illegal(s, 0, Action("play", "ZZ")) == "unknown_action"
    assert rules.why_illegal(s, 0, Action("dance")) == "unknown_action"
    assert rules.why_illegal(s, 0, Action.parse("continue")) == "no_prompt"
