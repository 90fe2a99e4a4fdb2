"""The frames the server builds itself are the documented models' own text: a ``state`` frame
is made without validating again what the server built (once per version and seat), and is the
text ``StateOut`` would make, for every seat of random deals of every game and a spectator."""

from __future__ import annotations

import random

import pytest

from veillee.games import find, names
from veillee.tables import COMPUTER, TableDoc
from veillee.tables.records import Table
from veillee.tables.views import comings_and_goings
from veillee.web.table_protocol import StateOut, state_frame


@pytest.mark.parametrize("name", names())
def test_a_state_frame_is_the_text_of_its_model(name: str) -> None:
    game = find(name)
    rng = random.Random(4)
    m = game.match.new_match(rng, {})
    seats = (COMPUTER,) * game.info.seats
    for step in range(60):
        doc = TableDoc(
            name,
            dict(m.options),
            seats,
            game.match.to_json(m),
            demo=True,
            stand_in=(1,),
            open=(1,),
            given=(0, 2),
            left=(1,),
        )
        table = Table(doc, game, m)
        for seat in range(game.info.seats):
            view = {
                "version": step,
                "seat": seat,
                "game": name,
                "seats": list(seats),
                "options": dict(doc.options),
                "level": doc.level,
                "seated": [True] * len(seats),
                "ready": [],
                "shared": False,
                "expires_at": "2026-12-02T10:00:00+00:00",
                **comings_and_goings(doc),
                "view": game.match.view(table.match, seat),
            }
            assert state_frame(view) == StateOut(**view).model_dump_json()
        if game.match.deal_over(m):
            break
        legal = game.match.legal_actions(m)
        m = game.match.apply(m, rng.choice(legal))


def test_words_outside_ascii_are_written_as_the_model_writes_them() -> None:
    view = {
        "version": 1,
        "seat": 0,
        "game": "g",
        "seats": ["human"],
        "options": {},
        "level": "usual",
        "seated": [True],
        "ready": [],
        "shared": False,
        "expires_at": None,
        "stand_in": [],
        "vacant": [],
        "given": [0],
        "left": [],
        "view": {"note": "Dix de der, brisque à cœur — «\u202fvoilà\u202f»"},
    }
    assert state_frame(view) == StateOut(**view).model_dump_json()
