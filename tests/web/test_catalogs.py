"""The words of every area, in both languages: the same keys and placeholders on both sides,
French typography (a no-break space before : ; ! ? and inside « »), English that agrees
with a side named by two players ("North & South win", never "wins"), and every reason,
refusal and transport code of every game, the sheets and the sockets said in each language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from veillee.games import find, names
from veillee.games.charlemagne import rules as charlemagne_rules
from veillee.games.contract import MatchReason
from veillee.live.chat import ChatRefusal
from veillee.live.records import LiveRefusal
from veillee.live.voice import VoiceRefusal
from veillee.scores import SheetRefusal
from veillee.sheets import SheetReason
from veillee.tables.table import TableRefusal
from veillee.web import i18n
from veillee.web.live_protocol import HTTP_STATUS, TransportCode
from veillee.web.table_routes import TableRequestRefusal

CATALOGS = Path(i18n.__file__).parent / "i18n"
AREAS = sorted({path.name.split(".")[0] for path in CATALOGS.glob("*.json")})
NO_BREAK = "\u00a0\u202f"


def load(area: str, lang: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((CATALOGS / f"{area}.{lang}.json").read_text("utf-8"))
    return data


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_area_has_a_catalog_in_every_language() -> None:
    assert {"chouine", "scores", "site"} <= set(AREAS)
    for area in AREAS:
        for lang in i18n.LANGS:
            assert (CATALOGS / f"{area}.{lang}.json").is_file(), (area, lang)


@pytest.mark.parametrize("area", AREAS)
def test_both_languages_hold_the_same_keys_and_placeholders(area: str) -> None:
    english, french = load(area, "en"), load(area, "fr")
    assert sorted(english.keys() - french.keys()) == [], "missing in French"
    assert sorted(french.keys() - english.keys()) == [], "missing in English"
    for key, text in english.items():
        assert text.strip() and french[key].strip(), key
        assert placeholders(text) == placeholders(french[key]), key


@pytest.mark.parametrize("area", AREAS)
def test_french_keeps_its_marks_with_their_words(area: str) -> None:
    wrong = {}
    for key, text in load(area, "fr").items():
        # A mark after a plain space (or none), or guillemets without their spaces.
        if re.search(r"(?:^|[^\u00a0\u202f])[;!?]|[ ]:|[^\u00a0\u202f\s{]:(?=\s|$)", text):
            wrong[key] = text
        if re.search(r"«(?![\u00a0\u202f])|(?<![\u00a0\u202f])»", text):
            wrong[key] = text
    assert wrong == {}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_string_writes_the_apostrophe_one_way(lang: str) -> None:
    # The straight apostrophe everywhere: one screen never mixes "d'amis" and "l\u2019ordinateur".
    curly = {
        (area, key): text
        for area in AREAS
        for key, text in load(area, lang).items()
        if "\u2019" in text
    }
    assert curly == {}


def test_the_typography_check_catches_a_plain_space() -> None:
    bad = ["Talon : 19", "Chouine ! Vous", "donneur: Est", "partie ; la", "« Au meilleur »"]
    good = ["Talon\u00a0: 19", "Chouine\u202f! Vous", "partie\u202f; la", "«\u00a0Au\u00a0»"]
    pattern = re.compile(
        r"(?:^|[^\u00a0\u202f])[;!?]|[ ]:|[^\u00a0\u202f\s{]:(?=\s|$)"
        r"|«(?![\u00a0\u202f])|(?<![\u00a0\u202f])»"
    )
    assert all(pattern.search(text) for text in bad)
    assert not any(pattern.search(text) for text in good)


SUBJECTS = {"side", "team", "winner"}
"""Placeholders that may name a side of two players (a plural subject in English); ``{name}``
is one seat ("East", "your partner") and takes a singular verb."""
SINGULAR_VERB = re.compile(r"\{(\w+)\}\s+(is|has|was|does|\w+[^s\s]s)\b")


@pytest.mark.parametrize("area", AREAS)
def test_english_never_makes_a_side_of_two_a_singular_subject(area: str) -> None:
    wrong = {}
    for key, text in load(area, "en").items():
        for name, verb in SINGULAR_VERB.findall(text):
            if name in SUBJECTS:
                wrong[key] = f"{{{name}}} {verb}"
    assert wrong == {}
    assert SINGULAR_VERB.findall("{side} wins {a}–{b}") == [("side", "wins")]
    assert SINGULAR_VERB.findall("Won by {side}, {a}–{b}") == []


THEIR_TURN_AT_THE_TABLE = {
    "charlemagne": [
        *(f"charlemagne.turn.other.{p}" for p in charlemagne_rules.PHASES if p != "over"),
        *(f"charlemagne.seat.{name}" for name in charlemagne_rules.SEAT_NAMES),
    ]
}
"""The games whose resume entry says another seat's turn in its table's own turn line (naming
the seat and what it is doing: static/table/resume.js theirTurn), with the keys it needs."""


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_the_resume_list_has_each_games_own_words(lang: str) -> None:
    """The home page's resume list says each table's score and where it is in its game's
    words (static/table/resume.js): a key of each for every game of the registry; another
    seat's turn from one source, the table's turn line where the game has one for it."""
    catalog = i18n.catalog(lang)
    situations = (
        "score", "your_turn", "their_turn", "seating", "deal_over", "deal_over_ready", "match_over"
    )  # fmt: skip
    wanted = [
        f"friend.resume.{situation}.{game}"
        for game in names()
        for situation in situations
        if not (situation == "their_turn" and game in THEIR_TURN_AT_THE_TABLE)
    ]
    wanted += [key for keys in THEIR_TURN_AT_THE_TABLE.values() for key in keys]
    assert [key for key in wanted if key not in catalog] == []
    unused = [f"friend.resume.their_turn.{game}" for game in THEIR_TURN_AT_THE_TABLE]
    assert [key for key in unused if key in catalog] == []


def said(lang: str, code: str, area: str) -> str | None:
    """The key :func:`i18n.reason` says ``code`` with in ``lang``'s own catalog (the area's,
    else the site's), or None if that language has neither (it would fall back to English, or
    to the generic sentence)."""
    catalog = i18n.catalog(lang)
    return next((k for k in (f"{area}reason.{code}", f"reason.{code}") if k in catalog), None)


def refusal_codes() -> dict[str, set[str]]:
    """Every code a page can be refused with, by catalog area (:func:`i18n.reason`): on a
    table of each game (its socket: the rules, the match, the table service, the live core, the
    transport, the chat and voice), over the table API (no area), and on a sheet (its socket and
    API). Walked from the declarations the code raises with, never from the sources' text."""
    transport = {*TransportCode, *LiveRefusal}
    tables = {*TableRefusal, *TableRequestRefusal, *transport}
    by_area = {"": tables, "scores.": {*SheetReason, *SheetRefusal, *transport}}
    for name in names():
        rules = {*find(name).engine.REASONS, *MatchReason}
        by_area[f"{name}."] = {*rules, *tables, *ChatRefusal, *VoiceRefusal}
    return by_area


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_every_refusal_is_said_in_words_in_both_languages(lang: str) -> None:
    missing = [
        f"{area}reason.{code}"
        for area, codes in refusal_codes().items()
        for code in sorted(codes)
        if said(lang, code, area) is None
    ]
    assert missing == []


def test_the_walk_meets_every_kind_of_code() -> None:
    codes = refusal_codes()
    assert {"must_beat_trump", "match_over", "chat_too_fast", "voice_off"} <= codes["chouine."]
    assert {"must_play_joker", "deal_not_over", "rate_limited"} <= codes["charlemagne."]
    assert {"mordienne_off", "row_changed", "sheet_gone", "busy", "silent"} <= codes["scores."]
    assert {"seat_computer", "unknown_game", "message_too_large"} <= codes[""]
    # Every code the HTTP answers give a status of is a declared one.
    assert set(HTTP_STATUS) - set().union(*codes.values()) == set()
