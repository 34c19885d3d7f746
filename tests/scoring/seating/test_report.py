"""The seating report (docs/command-line.md, `seating-report`), figures worked by hand."""

from __future__ import annotations

from scoring.seating import report


def test_small_report_by_hand() -> None:
    rounds = [
        (("a", "b", "c"), ("d", "e", "f")),
        (("a", "b", "d"), ("c", "e", "f")),  # a-b and e-f meet again; a, b keep their seats
        (("b", "a", "e"), ("d", "c", "f")),  # a-b a third time
    ]
    rep = report(rounds, table_size=3)
    assert rep["max_meetings"] == 3
    assert rep["pairs_met_twice_or_more"] == 4  # a-b (3), d-f, e-f, c-f (2 each)
    assert rep["repeat_meetings"] == 2 + 1 + 1 + 1
    assert rep["q"] == 3 + 1 + 1 + 1
    # a: seats 1, 1, 2 -> one repeat; b: 2, 2, 1 -> one; c: 3, 1, 2; d: 1, 3, 1 -> one;
    # e: 2, 2, 3 -> one; f: 3, 3, 3 -> two
    assert rep["same_seat_repeats"] == 6
    assert rep["players"]["f"]["seats"] == {"3": 3}
    assert rep["players"]["a"]["early"] == 3  # every seat of a table of 3 is early
    # a, b, c, d, e, f on tables 1,1,1 / 1,1,1 / 1,2,2 / 2,1,2 / 2,2,1 / 2,2,2
    assert rep["table_repeats"] == 2 + 2 + 1 + 1 + 1 + 2
    # two tables of 3 per round: any later table holds 2 from one earlier table -> 2 per pair
    assert rep["lower_bound"] == 3 * 2


def test_players_filter_and_teams() -> None:
    rounds = [(("a", "b"), ("c", "d")), (("a", "c"), ("b", "d"))]
    rep = report(rounds, players=["a", "b", "c"], teams={"a": "t", "c": "t"}, keep_apart=[("b", "a")])
    assert set(rep["players"]) == {"a", "b", "c"}
    assert rep["teammates_together"] == 1
    assert rep["kept_apart_together"] == 1
    assert rep["max_meetings"] == 1
