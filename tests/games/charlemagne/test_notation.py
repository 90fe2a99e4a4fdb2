"""The action notation of docs/notation.md (Charlemagne section), and actions no text parses to."""

from __future__ import annotations

from veillee.cards import PIQUET_JOKERS_34
from veillee.games import IllegalAction
from veillee.games.charlemagne import rules
from veillee.games.charlemagne.rules import LADDER, Action


def test_every_action_text_round_trips() -> None:
    texts = ["pass", *LADDER, "kitty", "card", "give AS", "discard 7C 8D", "discard 7C 8D BJ"]
    texts += ["trump H", "AS", "BJ", "LJ", "TD"]
    for text in texts:
        assert str(Action.parse(text)) == text
    for bad in ["", "bid", "9", "give", "trump X", "ZZ", "discard 7C 1X", "give AS KS"]:
        try:
            Action.parse(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad!r} was accepted")


def test_design_2_why_illegal_refuses_an_action_with_stray_fields() -> None:
    # DESIGN §2: why_illegal is None exactly for the members of legal_actions, and apply
    # refuses the rest; an Action built by hand with a stray value or card is not a legal action
    s = rules.deal(list(PIQUET_JOKERS_34), dealer=0)
    for stray in (Action("bid", "5", ("AS",)), Action("pass", "x"), Action("pass", cards=("AS",))):
        assert stray not in rules.legal_actions(s)
        assert rules.why_illegal(s, 1, stray) == "unknown_action"
        try:
            rules.apply(s, stray)
        except IllegalAction as err:
            assert err.reason == "unknown_action"
        else:
            raise AssertionError(f"{stray!r} was applied")
    for text in ["pass", "pass", "pass", "5"]:
        s = rules.apply(s, Action.parse(text))
    s = rules.apply(s, rules.legal_actions(s)[0])
    s = rules.apply(s, Action.parse("trump H"))
    card = rules.legal_actions(s)[0].card
    assert rules.why_illegal(s, 1, Action("play", "x", (card,))) == "unknown_action"
    assert rules.why_illegal(s, 1, Action.play(card)) is None
