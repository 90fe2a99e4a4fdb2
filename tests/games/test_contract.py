"""The conformance suite: what every registered game must do (docs/game-contract.md).

Parametrized over ``veillee.games.names()``: a game that registers gets every test here. What a
test needs to know of a game beyond the contract comes from data:

- ``tests/games/<game>/conformance.py``: ``PACK`` (the card codes), ``places(state)`` (every
  card where it lies), ``allowed_cards(state, seat)`` (what that seat may see, from the rules and
  not from the views), ``candidate_actions(state)`` (legal and illegal actions worth trying) and
  ``NOT_SCANNED`` (observation keys that name cards the seat has not seen, by design),
  ``won_in_one_deal(match)`` (whether a match over after its first deal may be);
- ``tests/games/<game>/*.perft``: pinned numbers of legal action sequences from fixed positions,
  as python-chess keeps ``*.perft`` files;
- ``tests/games/<game>/golden/*.txt``: golden playthroughs, replayed action by action.

Random play mixes uniformly random legal actions with the game's computer player, so that the
properties meet the states real play reaches (declarations, swaps, every contract).
"""

from __future__ import annotations

import importlib
import json
import os
import random
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from veillee import games
from veillee.games import IllegalAction, find
from veillee.games.contract import Engine, MatchReason, MatchRules
from veillee.games.match import Match

from .card_scan import cards_named

HERE = Path(__file__).parent
GAMES = games.names()
seeds = st.integers(min_value=0, max_value=2**32)


def conformance(name: str) -> ModuleType:
    """The game's conformance data module, ``tests/games/<name>/conformance.py``."""
    return importlib.import_module(f"{__package__}.{name}.conformance")


def random_deal(name: str, seed: int, computer_share: float = 0.5) -> list[tuple[Any, Any]]:
    """Every state of one random deal with the action taken from it (``None`` at the end): each
    action the computer player's (from the seat's observation) with ``computer_share``
    probability, else drawn uniformly from the legal actions."""
    game = find(name)
    engine = game.engine
    rng = random.Random(seed)
    state = engine.deal_random(rng, dealer=rng.randrange(game.info.seats))
    out: list[tuple[Any, Any]] = []
    while state.to_act is not None:
        legal = engine.legal_actions(state)
        if rng.random() < computer_share:
            action = game.player.choose(engine.observation(state, state.to_act), legal, rng)
        else:
            action = rng.choice(legal)
        out.append((state, action))
        state = engine.apply(state, action)
    out.append((state, None))
    return out


# --- deals --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40)
@given(seed=seeds)
def test_every_card_is_in_exactly_one_place(name: str, seed: int) -> None:
    data = conformance(name)
    for state, _ in random_deal(name, seed):
        assert sorted(data.places(state)) == sorted(data.PACK)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=30)
@given(seed=seeds)
def test_why_illegal_is_none_exactly_for_the_legal_actions(name: str, seed: int) -> None:
    game = find(name)
    engine = game.engine
    data = conformance(name)
    for state, _ in random_deal(name, seed, computer_share=0.7):
        legal = engine.legal_actions(state)
        assert len(set(legal)) == len(legal)
        for action in legal:
            assert engine.Action.parse(str(action)) == action
        for action in data.candidate_actions(state):
            for seat in range(game.info.seats):
                reason = engine.why_illegal(state, seat, action)
                assert (reason is None) == (seat == state.to_act and action in legal), (
                    seat,
                    str(action),
                    reason,
                )
                assert reason is None or reason in engine.REASONS


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=30)
@given(seed=seeds, pick=st.integers(min_value=0, max_value=10**6))
def test_apply_of_an_illegal_action_raises_its_reason_and_changes_nothing(
    name: str, seed: int, pick: int
) -> None:
    engine = find(name).engine
    data = conformance(name)
    for state, _ in random_deal(name, seed, computer_share=0.7):
        before = json.dumps(engine.to_json(state))
        legal = engine.legal_actions(state)
        illegal = [a for a in data.candidate_actions(state) if a not in legal]
        for action in (illegal[pick % len(illegal)], illegal[(pick * 7 + 3) % len(illegal)]):
            seat = -1 if state.to_act is None else state.to_act
            with pytest.raises(IllegalAction) as refused:
                engine.apply(state, action)
            assert refused.value.reason == engine.why_illegal(state, seat, action)
            assert json.dumps(engine.to_json(state)) == before


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40)
@given(seed=seeds)
def test_state_round_trips_through_json_text(name: str, seed: int) -> None:
    engine = find(name).engine
    for state, _ in random_deal(name, seed):
        data = engine.to_json(state)
        assert "game" not in data
        assert engine.from_json(json.loads(json.dumps(data))) == state


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=40)
@given(seed=seeds)
def test_views_and_observations_never_hold_a_card_the_seat_may_not_see(
    name: str, seed: int
) -> None:
    game = find(name)
    engine = game.engine
    data = conformance(name)
    for state, _ in random_deal(name, seed):
        for seat in range(game.info.seats):
            hidden = set(data.PACK) - data.allowed_cards(state, seat)
            view = engine.view(state, seat)
            assert json.loads(json.dumps(view)) == view
            assert not cards_named(view, data.PACK) & hidden
            obs = engine.observation(state, seat)
            assert json.loads(json.dumps(obs)) == obs
            scanned = {k: v for k, v in obs.items() if k not in data.NOT_SCANNED}
            assert not cards_named(scanned, data.PACK) & hidden


@pytest.mark.parametrize("name", GAMES)
def test_outcome_only_once_the_deal_is_over(name: str) -> None:
    engine = find(name).engine
    for seed in range(20):
        for state, action in random_deal(name, seed):
            assert (engine.outcome(state) is None) == (action is not None)
            assert (engine.legal_actions(state) == []) == (action is None)


@pytest.mark.parametrize("name", GAMES)
def test_deal_refuses_a_deck_that_is_not_the_pack_and_a_dealer_that_is_no_seat(
    name: str,
) -> None:
    game = find(name)
    pack = list(conformance(name).PACK)
    state = game.engine.deal(pack, dealer=0)
    assert state.to_act is not None
    for deck, dealer in ((pack[1:], 0), ([pack[0], *pack[:-1]], 0), (pack, game.info.seats)):
        with pytest.raises(ValueError):
            game.engine.deal(deck, dealer=dealer)
    with pytest.raises(ValueError):
        game.engine.deal_random(random.Random(0), dealer=-1)


# --- matches ------------------------------------------------------------------------------------


def assert_table_facts(match: MatchRules, m: Match, deal_view: dict[str, Any]) -> None:
    """What the table layer reads of a match through the contract (whose turn, the phase,
    whether a trick was just gathered, the outcome) is what the game's view says, and of the
    contract's types (games/contract.py)."""
    to_act, phase, gathered = match.to_act(m), match.phase(m), match.trick_gathered(m)
    assert to_act is None or type(to_act) is int
    assert type(phase) in (str, int) and type(gathered) is bool
    assert to_act == deal_view["to_act"] and phase == deal_view["phase"]
    assert gathered == (not deal_view["trick"] and bool(deal_view["last_trick"]))
    outcome = match.outcome(m)
    if outcome is None:
        assert deal_view["outcome"] is None
    else:  # the view's count may say more (a Chouine count shows the piles)
        assert {k: deal_view["outcome"][k] for k in outcome} == outcome


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6)
@given(seed=seeds)
@example(seed=1_154_321_618)  # Charlemagne: a Gros Charlemagne made in the first hand wins (§11)
def test_a_match_runs_to_its_end_through_the_match_contract(name: str, seed: int) -> None:
    game = find(name)
    match = game.match
    rng = random.Random(seed)
    m = match.new_match(rng, {})
    deals = 1
    while not match.is_over(m):
        assert match.winner(m) is None
        if match.deal_over(m):
            assert match.to_act(m) is None and match.legal_actions(m) == []
            m = match.next_deal(m, rng)
            deals += 1
            continue
        seat = match.to_act(m)
        assert seat is not None and seat == m.deal.to_act
        with pytest.raises(IllegalAction) as early:
            match.next_deal(m, rng)
        assert early.value.reason == "deal_not_over"
        for other in range(game.info.seats):
            view = match.view(m, other)
            assert set(view) == {"match", "deal"}
            assert view["deal"] == game.engine.view(m.deal, other)
            assert_table_facts(match, m, view["deal"])
            obs = match.observation(m, other)
            assert obs["match"] == view["match"]
            assert obs["deal"] == game.engine.observation(m.deal, other)
        legal = match.legal_actions(m)
        action = game.player.choose(match.observation(m, seat)["deal"], legal, rng)
        assert action in legal and match.why_illegal(m, seat, action) is None
        m = match.apply(m, action)
        assert match.from_json(json.loads(json.dumps(match.to_json(m)))) == m
    assert "game" not in match.to_json(m)
    assert_table_facts(match, m, match.view(m, 0)["deal"])
    assert match.winner(m) is not None and match.deal_over(m)
    assert match.to_act(m) is None and match.legal_actions(m) == []
    for action in conformance(name).candidate_actions(m.deal)[:20]:
        assert match.why_illegal(m, 0, action) == "match_over"
    for refused in (lambda: match.next_deal(m, rng), lambda: match.next_deal_from(m, [])):
        with pytest.raises(IllegalAction) as late:
            refused()
        assert late.value.reason == "match_over"
    assert deals >= 2 or conformance(name).won_in_one_deal(m)


@pytest.mark.parametrize("name", GAMES)
def test_the_reasons_list_the_matchs_own(name: str) -> None:
    """``REASONS`` is every code the engine and its match give: the match's own included
    (the web layer says each one in words, tests/web/test_catalogs.py)."""
    reasons = find(name).engine.REASONS
    assert [code for code in MatchReason if code not in reasons] == []


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4)
@given(seed=seeds)
def test_the_match_score_is_each_sides_own_and_the_winners_is_higher(name: str, seed: int) -> None:
    """``score(m, seat)`` puts the seat's side first: two seats see the same score (partners)
    or each other's reversed (opponents); it starts at 0–0, never goes down, and the winner (a
    seat, or a team numbered as its first seat) ends ahead."""
    game = find(name)
    match = game.match
    rng = random.Random(seed)
    m = match.new_match(rng, {})
    seats = range(game.info.seats)
    assert {match.score(m, seat) for seat in seats} == {(0, 0)}
    before = match.score(m, 0)
    while not match.is_over(m):
        if match.deal_over(m):
            m = match.next_deal(m, rng)
            continue
        m = match.apply(m, rng.choice(match.legal_actions(m)))
        now = match.score(m, 0)
        assert now[0] >= before[0] and now[1] >= before[1]
        before = now
        for seat in seats:
            mine, theirs = match.score(m, seat)
            assert (mine, theirs) in (now, now[::-1])
            assert all(isinstance(n, int) for n in (mine, theirs))
    assert before != (0, 0) and len({match.score(m, seat) for seat in seats}) == 2
    mine, theirs = match.score(m, match.winner(m))
    assert mine > theirs


@pytest.mark.parametrize("name", GAMES)
def test_new_match_takes_the_declared_options_only(name: str) -> None:
    game = find(name)
    defaults = game.info.table_options({})
    assert game.match.to_json(game.match.new_match(random.Random(1), {})) == game.match.to_json(
        game.match.new_match(random.Random(1), defaults)
    )
    for bad in ({"no_such_option": 1}, {option: -1 for option in defaults}):
        with pytest.raises(ValueError):
            game.match.new_match(random.Random(1), bad)
    for dealer in range(game.info.seats):
        m = game.match.new_match(random.Random(2), {}, first_dealer=dealer)
        assert m.deal.dealer == dealer


@pytest.mark.parametrize("name", GAMES)
def test_start_match_and_next_deal_from_deal_the_given_decks(name: str) -> None:
    game = find(name)
    pack = list(conformance(name).PACK)
    first = game.engine.deal(pack, dealer=0)
    m = game.match.start_match(first, {})
    assert m.deal == first
    rng = random.Random(3)
    while not game.match.deal_over(m):
        m = game.match.apply(m, rng.choice(game.match.legal_actions(m)))
    after = game.match.next_deal_from(m, list(reversed(pack)))
    assert after.deal == game.engine.deal(list(reversed(pack)), dealer=after.deal.dealer)
    # The finished deal was scored when it ended: dealing the next one records nothing more.
    assert (
        game.match.view(after, 0)["match"]["results"] == game.match.view(m, 0)["match"]["results"]
    )


# --- perft --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Perft:
    """One position of a ``.perft`` file and its pinned counts ``{depth: sequences}``."""

    game: str
    id: str
    state: Any
    counts: dict[int, int]


def read_perft(name: str, path: Path) -> list[Perft]:
    """The entries of a ``.perft`` file. Each starts with ``id <name>`` and gives its position
    either as ``state <to_json as one line>`` or as ``deck <codes>``, ``dealer <seat>`` and
    optionally ``actions <text> | <text> …`` (played from the deal); then ``perft <depth>
    <count>`` lines. A line starting with ``#`` is a comment."""
    engine = find(name).engine
    out: list[Perft] = []
    fields: dict[str, str] = {}
    counts: dict[int, int] = {}

    def close() -> None:
        if not fields:
            return
        if "state" in fields:
            state = engine.from_json(json.loads(fields["state"]))
        else:
            state = engine.deal(fields["deck"].split(), dealer=int(fields["dealer"]))
            for text in filter(None, (t.strip() for t in fields.get("actions", "").split("|"))):
                state = engine.apply(state, engine.Action.parse(text))
        out.append(Perft(name, fields["id"], state, dict(counts)))
        fields.clear()
        counts.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, _, value = line.partition(" ")
        if key == "id":
            close()
        if key == "perft":
            depth, count = value.split()
            counts[int(depth)] = int(count)
        else:
            fields[key] = value.strip()
    close()
    return out


def perft_positions() -> list[Perft]:
    return [
        entry
        for name in GAMES
        for path in sorted((HERE / name).glob("*.perft"))
        for entry in read_perft(name, path)
    ]


def perft(engine: Engine, state: Any, depth: int) -> int:
    """Sequences of ``depth`` legal actions from ``state``; a deal that ends ends a sequence."""
    if depth == 0 or state.to_act is None:
        return 1
    actions = engine.legal_actions(state)
    return sum(perft(engine, engine.apply(state, a), depth - 1) for a in actions)


def test_every_game_pins_perft_counts() -> None:
    assert {p.game for p in perft_positions()} == set(GAMES)


@pytest.mark.parametrize("position", perft_positions(), ids=lambda p: f"{p.game}-{p.id}")
def test_perft_counts_are_the_pinned_ones(position: Perft) -> None:
    engine = find(position.game).engine
    for depth, count in position.counts.items():
        assert perft(engine, position.state, depth) == count, depth


# --- golden playthroughs ------------------------------------------------------------------------


def golden_files() -> list[tuple[str, Path]]:
    return [
        (name, path) for name in GAMES for path in sorted((HERE / name / "golden").glob("*.txt"))
    ]


def playthrough(name: str, text: str) -> str:
    """The golden text of a playthrough: its leading ``#`` lines as written, the deck and the
    dealer, then at every step the seat to act, the legal actions, every seat's view and the
    action taken (the file's own ``action:`` lines, replayed), and the outcome."""
    game = find(name)
    engine = game.engine
    lines = text.splitlines()
    header = [line for line in lines[: next(i for i, x in enumerate(lines) if x[:1] != "#")]]
    deck = next(x for x in lines if x.startswith("deck: ")).removeprefix("deck: ").split()
    dealer = int(next(x for x in lines if x.startswith("dealer: ")).removeprefix("dealer: "))
    script = [x.removeprefix("action: ") for x in lines if x.startswith("action: ")]
    state = engine.deal(deck, dealer=dealer)
    out = [*header, f"deck: {' '.join(deck)}", f"dealer: {dealer}"]
    step = 0
    while True:
        legal = engine.legal_actions(state)
        out.append(f"== step {step}: to_act {state.to_act}")
        out.append("legal: " + " | ".join(str(a) for a in legal))
        for seat in range(game.info.seats):
            out.append(f"view {seat}: " + json.dumps(engine.view(state, seat), sort_keys=True))
        if not legal:
            break
        action = engine.Action.parse(script[step])
        out.append(f"action: {action}")
        state = engine.apply(state, action)
        step += 1
    out.append("outcome: " + json.dumps(engine.outcome(state), sort_keys=True))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", GAMES)
def test_the_declared_seats_are_consistent(name: str) -> None:
    # A name per seat; partners, where declared, pair the seats off (each the other's partner).
    info = find(name).info
    assert len(info.seat_names) == info.seats == len(set(info.seat_names))
    if info.partners:
        assert len(info.partners) == info.seats
        assert all(
            info.partners[info.partners[s]] == s != info.partners[s] for s in range(info.seats)
        )


def test_every_game_has_golden_playthroughs() -> None:
    assert {name for name, _ in golden_files()} == set(GAMES)


@pytest.mark.parametrize(
    ("name", "path"), golden_files(), ids=lambda x: x if isinstance(x, str) else x.stem
)
def test_golden_playthrough_is_unchanged(name: str, path: Path) -> None:
    """After a deliberate change of the rules or of a view, regenerate with
    ``VEILLEE_REGEN_GOLDEN=1`` (the recorded actions are replayed) and read the diff. A new
    playthrough is a file with ``#`` lines, ``deck:``, ``dealer:`` and its ``action:`` lines."""
    expected = path.read_text(encoding="utf-8")
    text = playthrough(name, expected)
    if os.environ.get("VEILLEE_REGEN_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert text.splitlines() == expected.splitlines()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=10)
@given(seed=seeds)
def test_the_spectator_view_shows_every_hand_as_its_seat_sees_it(name: str, seed: int) -> None:
    # A demonstration's watcher sees each hand exactly as its seat does, and the match as
    # every seat does; it is plain JSON and belongs to no seat.
    game = find(name)
    match = game.match
    rng = random.Random(seed)
    m = match.new_match(rng, {})
    while True:
        spectator = match.spectator_view(m)
        assert json.loads(json.dumps(spectator)) == spectator
        assert spectator["match"] == match.view(m, 0)["match"]
        assert spectator["deal"]["seat"] is None and "legal" not in spectator["deal"]
        hands = spectator["deal"]["hands"]
        assert len(hands) == game.info.seats
        for seat in range(game.info.seats):
            assert sorted(hands[seat]) == sorted(match.view(m, seat)["deal"]["hand"])
        if match.deal_over(m):
            break
        legal = match.legal_actions(m)
        seat = match.to_act(m)
        m = match.apply(m, game.player.choose(match.observation(m, seat)["deal"], legal, rng))


@pytest.mark.parametrize("name", GAMES)
def test_the_computer_plays_at_each_declared_level(name: str) -> None:
    # The player's levels are the game's (usual first); at each it plays a whole deal with
    # legal actions from the match observation, the same choice for the same rng; any other
    # level is refused.
    game = find(name)
    match = game.match
    assert game.info.levels == game.player.LEVELS and game.info.levels[0] == "usual"
    for level in game.info.levels:
        m = match.new_match(random.Random(7), {})
        while not match.deal_over(m):
            legal = match.legal_actions(m)
            obs = match.observation(m, match.to_act(m))
            first, again = (
                game.player.choose(obs, legal, random.Random(3), level=level, budget=8)
                for _ in range(2)
            )
            assert first in legal and first == again
            m = match.apply(m, first)
    m = match.new_match(random.Random(7), {})
    with pytest.raises(ValueError):
        game.player.choose(
            match.observation(m, match.to_act(m)), match.legal_actions(m), level="hardest"
        )
