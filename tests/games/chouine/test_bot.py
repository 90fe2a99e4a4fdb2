"""The computer player keeps each promise of the Chouine product page ("The computer follows the
usual advice"), on constructed observations (docs/chouine-views.md)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from veillee.cards import PIQUET_32
from veillee.games import chouine
from veillee.games.chouine import bot, solver


def observation(
    hand: Sequence[str],
    *,
    trump: str = "H",
    turn_up: str | None = "9H",
    talon_count: int = 11,
    trick_number: int = 6,
    trick: Sequence[tuple[int, str]] = (),
    played: Sequence[str] = (),
    tricks: Sequence[dict[str, Any]] = (),
    opponent_known: Sequence[str] = (),
    opponent_count: int = 5,
    declarations: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], []),
    prompt: str | None = None,
    seat: int = 0,
) -> dict[str, Any]:
    """A contract-shaped observation of seat ``seat``; ``played`` lists cards gone to tricks."""
    seen = set(hand) | set(played) | set(opponent_known) | {c for _, c in trick}
    if turn_up:
        seen.add(turn_up)
    unseen = [c for c in PIQUET_32 if c not in seen]
    return {
        "seat": seat,
        "dealer": 1,
        "trump": trump,
        "turn_up": turn_up,
        "talon_count": talon_count,
        "trick_number": trick_number,
        "phase": 1 if talon_count else 2,
        "to_act": seat,
        "prompt": prompt,
        "hand": list(hand),
        "hand_counts": [len(hand), opponent_count] if seat == 0 else [opponent_count, len(hand)],
        "trick": [{"seat": s, "card": c, "declaration": None} for s, c in trick],
        "last_trick": None,
        "declarations": [list(declarations[0]), list(declarations[1])],
        "declared_suits": [
            sorted({d["suit"] for d in declarations[0] if d["kind"] != "quinte"}),
            sorted({d["suit"] for d in declarations[1] if d["kind"] != "quinte"}),
        ],
        "quinte_declared": [
            any(d["kind"] == "quinte" for d in declarations[0]),
            any(d["kind"] == "quinte" for d in declarations[1]),
        ],
        "piles": [0, 0],
        "own_tricks": [],
        "opponent_last_trick": None,
        "taken_turn_ups": [],
        "legal": [],
        "card_choices": {},
        "refusals": {},
        "outcome": None,
        "plays": [{"trick": 1, "seat": 1, "card": c, "declaration": None} for c in played],
        "tricks": list(tricks),
        "drawn": [],
        "opponent_known": list(opponent_known),
        "unseen": unseen,
    }


def legal(texts: Sequence[str]) -> list[chouine.Action]:
    """Engine actions written ``texts`` (docs/notation.md)."""
    return [chouine.Action.parse(t) for t in texts]


def choose(obs: dict[str, Any], texts: Sequence[str]) -> str:
    """The bot's choice among the actions written ``texts``, as text."""
    return str(bot.choose(obs, legal(texts)))


def deck_with(non_dealer: Sequence[str], dealer: Sequence[str], turn_up: str) -> list[str]:
    """A deck dealing these hands and turn-up (rules §3 order), the talon in pack order."""
    rest = [c for c in PIQUET_32 if c not in {*non_dealer, *dealer, turn_up}]
    deck = [c for pair in zip(non_dealer, dealer, strict=True) for c in pair]
    return [*deck, turn_up, *rest]


def test_constructed_observations_have_the_engines_observation_keys() -> None:
    state = chouine.deal(
        deck_with(["AS", "KS", "QS", "JS", "TS"], ["AH", "KH", "QH", "JH", "TH"], "7D"), dealer=1
    )
    assert set(observation(["7C"])) == set(chouine.observation(state, 0))


def test_talon_lead_throws_a_low_non_trump_card_first() -> None:
    hand = ["AS", "KD", "TH", "7C", "QS"]
    assert choose(observation(hand), hand) == "7C"


def test_talon_follow_discards_low_non_trump_rather_than_trump_a_blank_card() -> None:
    hand = ["7C", "AS", "KD", "TH", "8H"]
    obs = observation(hand, trick=[(1, "9D")])
    assert choose(obs, hand) == "7C"


def test_talon_keeps_brisques_trumps_and_a_king_whose_queen_is_unseen() -> None:
    hand = ["KS", "AD", "7H", "TC", "JC"]
    assert choose(observation(hand), hand) == "JC"


def test_talon_throws_a_king_whose_queen_has_been_played() -> None:
    hand = ["KS", "AD", "7H", "TC", "JC"]
    assert choose(observation(hand, played=["QS", "8D"]), hand) == "KS"


def test_talon_takes_an_ace_led_with_a_cheap_trump() -> None:
    hand = ["9C", "8D", "KD", "TH", "7H"]
    obs = observation(hand, trick=[(1, "AS")])
    assert choose(obs, hand) == "7H"


def test_talon_takes_a_ten_led_with_the_cheapest_trump() -> None:
    hand = ["9C", "QS", "KD", "8H", "7H"]
    obs = observation(hand, trick=[(1, "TS")])
    assert choose(obs, hand) == "7H"


def test_talon_wins_a_low_lead_when_a_worthless_card_beats_it() -> None:
    hand = ["9S", "AD", "KD", "TH", "8C"]
    obs = observation(hand, trick=[(1, "7S")])
    assert choose(obs, hand) == "9S"


def test_declares_the_best_combination_with_the_card_it_plays() -> None:
    # C11-like: a plain tierce (and its mariage) in diamonds, trump spades.
    hand = ["KD", "QD", "JD", "7C", "8S"]
    texts = [
        "KD",
        "KD tierce",
        "KD mariage",
        "QD",
        "QD tierce",
        "QD mariage",
        "JD",
        "JD tierce",
        "7C",
        "8S",
    ]
    choice = choose(observation(hand, trump="S", turn_up="9S"), texts)
    assert choice.split()[1:] == ["tierce"]


def test_declares_a_chouine_at_once() -> None:
    hand = ["AC", "TC", "KC", "QC", "JC"]
    texts = [*hand, *(f"{c} chouine" for c in hand), "KC mariage", "JC tierce", "AC quateron"]
    choice = choose(observation(hand, trick_number=1), texts)
    assert choice.endswith(" chouine")


def test_swaps_the_seven_at_once_under_a_king() -> None:
    hand = ["7H", "8C", "9C", "AD", "JS"]
    obs = observation(hand, turn_up="KH", trick_number=3)
    assert choose(obs, ["swap", *hand]) == "swap"


def test_keeps_the_seven_under_a_nine_until_the_last_chance() -> None:
    hand = ["7H", "8C", "9C", "AD", "JS"]
    obs = observation(hand, turn_up="9H", trick_number=3)
    assert choose(obs, ["swap", *hand]) != "swap"


def test_swaps_the_seven_at_the_last_chance_prompt() -> None:
    hand = ["7H", "8C", "9C", "AD", "JS"]
    obs = observation(hand, turn_up="9H", trick_number=11, talon_count=1, prompt="seven")
    assert choose(obs, ["swap", "continue"]) == "swap"


def test_swaps_the_seven_before_leading_trick_11() -> None:
    hand = ["7H", "8C", "9C", "AD", "JS"]
    obs = observation(hand, turn_up="8H", trick_number=11, talon_count=1)
    assert choose(obs, ["swap", *hand]) == "swap"


def test_answers_the_prompt_without_the_seven_by_carrying_on() -> None:
    hand = ["8H", "8C", "9C", "AD", "JS"]
    obs = observation(hand, turn_up="9H", trick_number=11, talon_count=1, prompt="seven")
    assert choose(obs, ["continue"]) == "continue"


def endgame_observation(settled: int) -> dict[str, Any]:
    """Trick 15, trump H: I hold AH 7S, the other seat TH 8S; ``settled`` = my card points so far
    minus theirs, carried by one completed trick."""
    played = [c for c in PIQUET_32 if c not in ("AH", "7S", "TH", "8S")]
    tricks = [
        {"trick": 1, "cards": [{"seat": 0, "card": "9D"}, {"seat": 1, "card": "8D"}], "winner": 0}
    ]
    declarations: tuple[list[dict[str, Any]], list[dict[str, Any]]] = ([], [])
    if settled >= 0:
        declarations[0].append({"kind": "mariage", "suit": "C", "points": settled, "cards": []})
    else:
        declarations[1].append({"kind": "mariage", "suit": "C", "points": -settled, "cards": []})
    return observation(
        ["AH", "7S"],
        turn_up=None,
        talon_count=0,
        trick_number=15,
        played=played,
        tricks=tricks,
        opponent_count=2,
        declarations=declarations,
    )


def test_endgame_plays_the_winning_line() -> None:
    # Leading AH nets 11 (the ten falls, then 8S takes 7S and the dix de der): 20 behind, that
    # loses; leading 7S first nets 31 (the ten must fall to the ace in the last trick): it wins.
    obs = endgame_observation(-20)
    assert sorted(obs["unseen"]) == ["8S", "TH"]
    assert choose(obs, ["AH", "7S"]) == "7S"


def test_endgame_maximises_the_margin_when_winning_anyway() -> None:
    assert choose(endgame_observation(60), ["AH", "7S"]) == "7S"


def test_endgame_loses_small_when_losing_anyway() -> None:
    assert choose(endgame_observation(-100), ["AH", "7S"]) == "7S"


def hidden_cards_reshuffled(state: chouine.State, rng: random.Random) -> chouine.State:
    """The same partie with the opponent's hidden cards exchanged with talon cards: what the seat
    to act has seen is unchanged (rules §10)."""
    seat = state.to_act
    assert seat is not None
    known = set(chouine.observation(state, seat)["opponent_known"])
    data = chouine.to_json(state)
    hands = data["hands"]
    talon = data["talon"]
    assert isinstance(hands, list) and isinstance(talon, list)
    theirs = hands[1 - seat]
    hidden = [i for i, c in enumerate(theirs) if c not in known]
    for i in hidden:
        j = rng.randrange(len(talon))
        theirs[i], talon[j] = talon[j], theirs[i]
    return chouine.from_json(data)


def test_talon_phase_decision_ignores_the_opponents_hidden_cards() -> None:
    rng = random.Random(11)
    checked = 0
    while checked < 200:
        state = chouine.deal_random(rng, dealer=rng.randrange(2))
        for _ in range(rng.randrange(25)):
            state = chouine.apply(state, rng.choice(chouine.legal_actions(state)))
        seat = state.to_act
        if seat is None or not state.talon:
            continue
        other = hidden_cards_reshuffled(state, rng)
        assert chouine.to_json(other) != chouine.to_json(state) or not state.talon
        actions = chouine.legal_actions(state)
        assert chouine.legal_actions(other) == actions
        first = bot.choose(chouine.observation(state, seat), actions, random.Random(1))
        second = bot.choose(chouine.observation(other, seat), actions, random.Random(2))
        assert first == second
        checked += 1


def test_bot_always_chooses_a_legal_action_in_whole_parties() -> None:
    rng = random.Random(5)
    for _ in range(30):
        state = chouine.deal_random(rng, dealer=rng.randrange(2))
        while state.to_act is not None:
            actions = chouine.legal_actions(state)
            action = bot.choose(chouine.observation(state, state.to_act), actions, rng)
            assert action in actions
            state = chouine.apply(state, action)
        assert chouine.outcome(state) is not None


def real_choice(state: chouine.State) -> str:
    seat = state.to_act
    assert seat is not None
    return str(bot.choose(chouine.observation(state, seat), chouine.legal_actions(state)))


def test_real_deal_swaps_the_seven_at_once_under_the_king_of_trumps() -> None:
    state = chouine.deal(
        deck_with(["7H", "8C", "9C", "AD", "JS"], ["8S", "9S", "7D", "8D", "9D"], "KH"), dealer=1
    )
    assert real_choice(state) == "swap"
    state = chouine.apply(state, chouine.Action.parse("swap"))
    assert real_choice(state) in {"8C", "9C"}


def test_real_deal_declares_a_chouine_on_the_first_lead() -> None:
    # C21: trump D, A is dealt the chouine of clubs.
    state = chouine.deal(
        deck_with(["AC", "TC", "KC", "QC", "JC"], ["8S", "9S", "7D", "8D", "9D"], "KD"), dealer=1
    )
    assert real_choice(state).endswith(" chouine")


def test_real_deal_declares_the_trump_tierce_rather_than_the_mariage() -> None:
    state = chouine.deal(
        deck_with(["KH", "QH", "JH", "7S", "8C"], ["8S", "9S", "7D", "8D", "9D"], "9H"), dealer=1
    )
    assert real_choice(state) == "JH tierce"


def test_trick_11_plays_the_best_average_of_the_last_draw_search() -> None:
    from tests.games.chouine.test_solver import trick11_states

    for leading in (True, False):
        for state in trick11_states(21, 5, leading):
            seat = state.to_act
            assert seat is not None
            obs = chouine.observation(state, seat)
            values = solver.solve_last_draw(solver.last_draw_from_observation(obs))
            action = bot.choose(obs, chouine.legal_actions(state))
            assert values[(str(action.card), action.declaration)] == max(values.values())
