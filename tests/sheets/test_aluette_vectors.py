"""rules/aluette-scoresheet.md §A5 vectors S1–S12 and the §A4b decisions, with exact values."""

from __future__ import annotations

import pytest

from veillee import sheets
from veillee.sheets import InvalidEntry, Sheet

NS, EW = 0, 1
N, E, S, W = 0, 1, 2, 3


def sheet_with(rows: list[tuple[int, str]], **settings: object) -> Sheet:
    s = sheets.new_sheet("aluette", settings=settings)
    for side, outcome in rows:
        s = sheets.add_row(s, side, outcome)
    return s


def refused(reason: str, change, *args: object) -> None:
    with pytest.raises(InvalidEntry) as err:
        change(*args)
    assert err.value.reason_code == reason


S1_ROWS = [(NS, "won"), (NS, "won"), (EW, "mordienne"), (NS, "won"), (NS, "won")]
S3_ROWS = [(NS, "won"), (EW, "won"), (NS, "won"), (EW, "mordienne"), (NS, "won")]


def test_s1_worked_game_is_decided_for_north_south_and_banked_4_2() -> None:
    s = sheet_with(S1_ROWS)
    st = sheets.status(s)
    assert st["rows"] == [[1, 0], [1, 0], [0, 2], [1, 0], [1, 0]]
    assert st["totals"] == [4, 2]
    assert st["decided"] is True and st["result"] == NS and st["banked"] is False
    assert sheets.entries(s) == []
    refused("match_decided", sheets.add_row, s, EW, "won")
    banked = sheets.end_match(s)
    st = sheets.status(banked)
    assert (st["totals"], st["result"], st["banked"], st["ended_early"]) == (
        [4, 2],
        NS,
        True,
        False,
    )


def test_s2_a_row_typed_as_numbers_holds_one_score_of_1_or_2() -> None:
    s = sheets.new_sheet("aluette")
    for points in [(1, 1), (0, 0), (3, 0), (-1, 0)]:
        refused("one_side_scores", sheets.outcome_for_points, s, points)
    assert sheets.outcome_for_points(s, (2, 0)) == (NS, "mordienne")
    assert sheets.status(sheets.add_row(s, NS, "mordienne"))["rows"] == [[2, 0]]
    off = sheets.new_sheet("aluette", settings={"mordienne": False})
    refused("mordienne_off", sheets.outcome_for_points, off, (2, 0))
    refused("mordienne_off", sheets.add_row, off, NS, "mordienne")


def test_s3_tie_stands_is_a_draw_after_five_hands() -> None:
    s = sheet_with(S3_ROWS)
    st = sheets.status(s)
    assert st["totals"] == [3, 3] and st["decided"] is True and st["result"] == "draw"
    refused("match_decided", sheets.add_row, s, NS, "won")
    st = sheets.status(sheets.end_match(s))
    assert (st["totals"], st["result"], st["banked"], st["ended_early"]) == (
        [3, 3],
        "draw",
        True,
        False,
    )


def test_s4_one_more_hand_breaks_the_tie() -> None:
    s = sheet_with(S3_ROWS, tie="one-more")
    assert sheets.status(s)["decided"] is False
    assert (EW, "won") in sheets.entries(s)
    s = sheets.add_row(s, EW, "won")
    st = sheets.status(s)
    assert st["totals"] == [3, 4] and st["decided"] is True and st["result"] == EW
    refused("match_decided", sheets.add_row, s, NS, "won")


def test_s5_surrender_accepted_scores_1_for_the_accepting_side() -> None:
    s = sheet_with([(NS, "surrender-accepted")])
    assert sheets.status(s)["rows"] == [[1, 0]]


def test_s6_refused_surrender_made_scores_2_for_the_refusing_side() -> None:
    s = sheet_with([(NS, "refused-made")])
    assert sheets.status(s)["rows"] == [[2, 0]]


def test_s7_refused_surrender_missed_scores_2_for_the_side_that_offered() -> None:
    s = sheet_with([(EW, "refused-missed")])
    assert sheets.status(s)["rows"] == [[0, 2]]


def test_s8_race_to_ten_from_the_start_has_no_hand_limit() -> None:
    points = {1: "won", 2: "mordienne"}
    rows = [(NS, 2), (EW, 1), (NS, 1), (NS, 2), (EW, 2), (NS, 1), (EW, 1), (NS, 2), (NS, 2)]
    s = sheets.new_sheet("aluette", settings={"race_to_ten": True})
    for i, (side, p) in enumerate(rows):
        assert sheets.status(s)["decided"] is False, f"decided before row {i + 1}"
        s = sheets.add_row(s, side, points[p])
    st = sheets.status(s)
    assert st["totals"] == [10, 4] and st["decided"] is True and st["result"] == NS


def test_s9_race_to_ten_switched_on_mid_match_accepts_rows_beyond_five() -> None:
    s = sheet_with([(NS, "won"), (EW, "won"), (NS, "won")])
    assert sheets.status(s)["totals"] == [2, 1]
    s = sheets.set_setting(s, "race_to_ten", True)
    for side in (NS, EW, NS, EW, EW):  # rows 4–8
        s = sheets.add_row(s, side, "won")
    st = sheets.status(s)
    assert len(st["rows"]) == 8 and st["totals"] == [4, 4] and st["decided"] is False
    assert sheets.entries(s)


def test_s10_end_match_early_banks_the_side_ahead() -> None:
    s = sheet_with([(NS, "mordienne"), (EW, "won")])
    st = sheets.status(sheets.end_match(s))
    assert st["totals"] == [2, 1]
    assert (st["decided"], st["banked"], st["ended_early"], st["result"]) == (False, True, True, NS)


def test_s11_dealers_pass_left_from_the_player_who_drew_madame() -> None:
    s = sheets.new_sheet("aluette", first_dealer=W)
    assert sheets.status(s)["next_dealer"] == W
    for side in (NS, EW, NS, EW, NS):
        s = sheets.add_row(s, side, "won")
    assert sheets.status(s)["dealers"] == [W, N, E, S, W]


def test_s12_mordienne_off_offers_only_the_one_point_entries() -> None:
    s = sheets.new_sheet("aluette", settings={"mordienne": False, "surrender": True})
    assert sheets.entries(s) == [
        (NS, "won"),
        (NS, "surrender-accepted"),
        (EW, "won"),
        (EW, "surrender-accepted"),
    ]
    for outcome in ("mordienne", "refused-made", "refused-missed"):
        refused("mordienne_off", sheets.add_row, s, EW, outcome)


# §A4b decisions


def test_entries_with_defaults_offer_every_outcome_to_both_sides() -> None:
    outcomes = ["won", "surrender-accepted", "mordienne", "refused-made", "refused-missed"]
    s = sheets.new_sheet("aluette")
    assert sheets.entries(s) == [(NS, o) for o in outcomes] + [(EW, o) for o in outcomes]


def test_surrender_off_withdraws_the_surrender_entries() -> None:
    s = sheets.new_sheet("aluette", settings={"surrender": False})
    assert sheets.entries(s) == [(NS, "won"), (NS, "mordienne"), (EW, "won"), (EW, "mordienne")]
    refused("surrender_off", sheets.add_row, s, NS, "surrender-accepted")


def test_unknown_sides_and_outcomes_are_refused() -> None:
    s = sheets.new_sheet("aluette")
    refused("unknown_side", sheets.add_row, s, 2, "won")
    refused("unknown_side", sheets.add_row, s, -1, "won")
    refused("unknown_outcome", sheets.add_row, s, NS, "capot")


def test_deleting_a_row_moves_later_rows_up_and_bad_indices_are_refused() -> None:
    s = sheet_with([(NS, "won"), (EW, "mordienne"), (NS, "surrender-accepted")])
    d = sheets.delete_row(s, 0)
    assert sheets.status(d)["rows"] == [[0, 2], [1, 0]]
    assert sheets.status(d)["dealers"] == [0, 1]
    for index in (-1, 3, 99):
        refused("bad_row_index", sheets.delete_row, s, index)
        refused("bad_row_index", sheets.edit_row, s, index, NS, "won")


def test_edit_recomputes_totals_and_the_match_state() -> None:
    s = sheet_with(S3_ROWS)  # a 3–3 draw
    e = sheets.edit_row(s, 3, EW, "won")
    st = sheets.status(e)
    assert st["totals"] == [3, 2] and st["result"] == NS


def test_an_edit_that_would_decide_the_match_before_the_last_row_is_refused() -> None:
    s = sheet_with([*S3_ROWS, (EW, "won")], tie="one-more")  # 3–3 after five, row 6 decides
    refused("rows_after_decision", sheets.edit_row, s, 4, EW, "won")
    assert sheets.status(s)["totals"] == [3, 4]


def test_switching_race_to_ten_off_with_rows_past_the_limit_is_refused() -> None:
    s = sheet_with([(NS, "won")] * 2 + [(EW, "won")] * 5, race_to_ten=True)
    refused("rows_after_decision", sheets.set_setting, s, "race_to_ten", False)


def test_switching_race_to_ten_on_after_the_limit_was_reached_is_refused() -> None:
    s = sheet_with(S1_ROWS)
    refused("match_decided", sheets.set_setting, s, "race_to_ten", True)


def test_race_to_ten_does_not_need_mordienne() -> None:
    s = sheets.new_sheet("aluette", settings={"mordienne": False, "race_to_ten": True})
    for _ in range(9):
        s = sheets.add_row(s, NS, "won")
    assert sheets.status(s)["decided"] is False
    s = sheets.add_row(s, NS, "won")
    assert sheets.status(s)["result"] == NS


def test_settings_lock_while_rows_exist_and_unlock_when_all_are_deleted() -> None:
    s = sheet_with([(NS, "won")])
    refused("settings_locked", sheets.set_setting, s, "hands", 7)
    empty = sheets.delete_row(s, 0)
    assert sheets.set_setting(empty, "hands", 7).setting["hands"] == 7


def test_unknown_settings_values_and_first_dealers_are_refused() -> None:
    refused("unknown_setting", sheets.new_sheet, "aluette", sheets.DEFAULT_SIDES, {"capot": 1})
    for bad in [{"hands": 0}, {"hands": True}, {"tie": "coin"}, {"mordienne": 1}]:
        refused("bad_setting_value", sheets.new_sheet, "aluette", sheets.DEFAULT_SIDES, bad)
    for dealer in (-1, 4):
        refused("bad_first_dealer", sheets.new_sheet, "aluette", sheets.DEFAULT_SIDES, {}, dealer)
    refused("unknown_preset", sheets.new_sheet, "belote")
    s = sheets.new_sheet("aluette")
    refused("unknown_setting", sheets.set_setting, s, "capot", True)
    refused("bad_setting_value", sheets.set_setting, s, "hands", -2)


def test_end_match_on_an_empty_sheet_banks_a_0_0_draw_ended_early() -> None:
    st = sheets.status(sheets.end_match(sheets.new_sheet("aluette")))
    assert (st["totals"], st["result"], st["ended_early"], st["decided"]) == (
        [0, 0],
        "draw",
        True,
        False,
    )


def test_a_banked_sheet_is_read_only() -> None:
    s = sheets.end_match(sheet_with([(NS, "won")]))
    assert sheets.entries(s) == []
    refused("sheet_banked", sheets.add_row, s, NS, "won")
    refused("sheet_banked", sheets.edit_row, s, 0, EW, "won")
    refused("sheet_banked", sheets.delete_row, s, 0)
    refused("sheet_banked", sheets.set_setting, s, "race_to_ten", True)
    refused("sheet_banked", sheets.end_match, s)


def test_side_names_are_kept_and_blank_ones_refused() -> None:
    s = sheets.new_sheet("aluette", sides=("Monsieur & Madame", "Le Borgne & La Vache"))
    assert s.sides == ("Monsieur & Madame", "Le Borgne & La Vache")
    refused("bad_side_name", sheets.new_sheet, "aluette", ("  ", "EW"))
    refused("bad_side_name", sheets.new_sheet, "aluette", ("x" * 41, "EW"))


@pytest.mark.parametrize("bad", ["N\x00S", "\u202eSud", "Nord\nSud", "E\u200bW", "\ue000"])
def test_side_names_with_control_or_format_characters_are_refused(bad: str) -> None:
    refused("side_name_characters", sheets.new_sheet, "aluette", (bad, "EW"))
    refused("side_name_characters", sheets.new_sheet, "aluette", ("NS", bad))


def test_room_counts_the_hands_left_to_the_five_hand_limit() -> None:
    assert sheets.room(sheets.new_sheet("aluette")) == sheets.Room(5, None)
    assert sheets.room(sheet_with(S1_ROWS[:3])) == sheets.Room(2, None)
    assert sheets.room(sheet_with(S1_ROWS)) == sheets.Room(0, None)  # S1: decided


def test_room_after_a_tie_with_one_more_hand_is_that_one_hand() -> None:
    # S4: row 6 is one more hand, played to break the 3–3 tie
    assert sheets.room(sheet_with(S3_ROWS, tie="one-more")) == sheets.Room(1, None, tie_break=True)
    assert sheets.room(sheet_with(S3_ROWS[:4], tie="one-more")) == sheets.Room(1, None)
    assert sheets.room(sheet_with(S3_ROWS)) == sheets.Room(0, None)  # S3: the tie stands


def test_room_in_a_race_to_ten_is_the_points_each_side_needs() -> None:
    s = sheet_with([(NS, "mordienne"), (EW, "won"), (NS, "won")], race_to_ten=True)
    assert sheets.room(s) == sheets.Room(None, (7, 9))
    assert sheets.room(sheets.end_match(s)) == sheets.Room(0, None)
