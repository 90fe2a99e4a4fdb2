"""Hypothesis properties of the sheet model (rules/aluette-scoresheet.md §A1, §A4b)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from veillee import sheets
from veillee.sheets import InvalidEntry, Sheet

OUTCOMES = ["won", "surrender-accepted", "mordienne", "refused-made", "refused-missed", "capot"]

setting_values = st.fixed_dictionaries(
    {
        "hands": st.integers(1, 7),
        "tie": st.sampled_from(["stands", "one-more"]),
        "mordienne": st.booleans(),
        "surrender": st.booleans(),
        "race_to_ten": st.booleans(),
    }
)

change = st.one_of(
    st.tuples(st.just("add"), st.integers(-1, 2), st.sampled_from(OUTCOMES)),
    st.tuples(st.just("edit"), st.integers(-1, 8), st.integers(0, 1), st.sampled_from(OUTCOMES)),
    st.tuples(st.just("delete"), st.integers(-1, 8)),
    st.tuples(st.just("race"), st.booleans()),
    st.tuples(
        st.just("end"),
    ),
)


def apply(s: Sheet, step: tuple) -> Sheet:
    kind, *args = step
    if kind == "add":
        return sheets.add_row(s, *args)
    if kind == "edit":
        return sheets.edit_row(s, *args)
    if kind == "delete":
        return sheets.delete_row(s, *args)
    if kind == "race":
        return sheets.set_setting(s, "race_to_ten", *args)
    return sheets.end_match(s)


@settings(max_examples=300, deadline=None)
@given(setting_values, st.integers(0, 3), st.lists(change, max_size=25))
def test_totals_are_column_sums_one_side_scores_each_row_and_refusals_change_nothing(
    chosen: dict, dealer: int, steps: list
) -> None:
    s = sheets.new_sheet("aluette", settings=chosen, first_dealer=dealer)
    for step in steps:
        before = s
        try:
            s = apply(s, step)
        except InvalidEntry as err:
            assert err.reason_code
            assert s == before and s.to_json() == before.to_json()
            continue
        st_ = sheets.status(s)
        rows = st_["rows"]
        assert st_["totals"] == [sum(r[0] for r in rows), sum(r[1] for r in rows)]
        for a, b in rows:
            assert sorted((a, b)) in ([0, 1], [0, 2])
        assert st_["dealers"] == [(dealer + i) % 4 for i in range(len(rows))]
        decision_rows = [i for i in range(1, len(rows) + 1) if _decided_prefix(s, i)]
        assert not decision_rows or decision_rows[0] == len(rows)  # rows read as played
        assert sheets.from_json(s.to_json()) == s


def _decided_prefix(s: Sheet, n: int) -> bool:
    prefix = Sheet(s.preset, s.sides, s.settings, s.first_dealer, s.rows[:n])
    return sheets.is_decided(prefix)


@settings(max_examples=200, deadline=None)
@given(setting_values, st.lists(st.tuples(st.integers(0, 1), st.sampled_from(OUTCOMES))))
def test_entries_lists_exactly_what_add_row_accepts(chosen: dict, rows: list) -> None:
    s = sheets.new_sheet("aluette", settings=chosen)
    for side, outcome in rows:
        offered = sheets.entries(s)
        try:
            s = sheets.add_row(s, side, outcome)
            assert (side, outcome) in offered
        except InvalidEntry:
            assert (side, outcome) not in offered
