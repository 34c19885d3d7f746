"""Each seating method's rules (docs/rules/seating-methods.md): tables, the tens, the 5 + 5 draw, repeatability."""

from __future__ import annotations

from collections import Counter

import pytest

from scoring.seating import METHODS, SeatingError, SeatingHistory, SeatingRequest, plan, report
from tests.scoring.seating.helpers import check_round, ids


def test_the_four_methods_are_registered() -> None:
    assert set(METHODS) == {"random", "balanced", "swiss_tens", "swiss_zvezdy", "swiss_zvezdy_spread"}
    for cls in METHODS.values():
        assert "docs/rules/seating-methods.md" in (cls.__doc__ or "")


def test_unknown_method_is_refused() -> None:
    with pytest.raises(SeatingError, match="unknown seating method"):
        plan(SeatingRequest(ids(10), 10, "alphabetical"))


@pytest.mark.parametrize("method", ["random", "balanced"])
def test_same_seed_same_plan_other_seed_other_plan(method: str) -> None:
    req = SeatingRequest(ids(30), 10, method, rounds=2, seed=7, effort=0.1)
    first = plan(req)
    assert plan(req) == first
    assert plan(SeatingRequest(ids(30), 10, method, rounds=2, seed=8, effort=0.1)) != first
    for rnd in first:
        check_round(rnd, ids(30), 10)


def test_random_uses_the_requested_tables_and_leaves_the_rest_on_byes() -> None:
    (rnd,) = plan(SeatingRequest(ids(35), 10, "random", tables=2))
    check_round(rnd, ids(35), 10)
    assert len(rnd.tables) == 2 and len(rnd.byes) == 15


def test_more_tables_than_players_fill_is_refused() -> None:
    with pytest.raises(SeatingError, match="at most 3 table"):
        plan(SeatingRequest(ids(35), 10, "random", tables=4))
    with pytest.raises(SeatingError, match="add 3 guest"):
        plan(SeatingRequest(ids(7), 10, "random"))


def order_of(n: int) -> tuple[str, ...]:
    return tuple(reversed(ids(n)))  # best first: p029 is first, to catch sorting by id


def test_swiss_tens_seats_places_1_to_10_at_table_1_and_so_on() -> None:
    order = order_of(30)
    (rnd,) = plan(SeatingRequest(ids(30), 10, "swiss_tens", order=order, seed=3))
    for t in range(3):
        assert set(rnd.tables[t]) == set(order[10 * t : 10 * t + 10])
    assert rnd.byes == ()


def test_swiss_byes_come_from_the_bottom_of_the_order_among_the_fewest_byes() -> None:
    order = order_of(23)
    history = SeatingHistory((), {order[-1]: 1})  # the last one already had a bye
    (rnd,) = plan(SeatingRequest(ids(23), 10, "swiss_tens", history, order=order))
    assert set(rnd.byes) == set(order[-4:-1])
    assert set(rnd.tables[1]) == set(order[10:19] + order[-1:])  # the last one moves up


def test_swiss_needs_an_order_of_exactly_the_players_and_one_round() -> None:
    with pytest.raises(SeatingError, match="order"):
        plan(SeatingRequest(ids(20), 10, "swiss_tens"))
    with pytest.raises(SeatingError, match="exactly"):
        plan(SeatingRequest(ids(20), 10, "swiss_tens", order=ids(19)))
    with pytest.raises(SeatingError, match="one round at a time"):
        plan(SeatingRequest(ids(20), 10, "swiss_zvezdy", order=ids(20), rounds=2))


@pytest.mark.parametrize("method", ["swiss_zvezdy", "swiss_zvezdy_spread"])
def test_swiss_zvezdy_follows_the_five_plus_five_draw(method: str) -> None:
    order = order_of(40)
    for seed in range(5):
        (rnd,) = plan(SeatingRequest(ids(40), 10, method, order=order, seed=seed))
        t1, t2, t3, t4 = (set(t) for t in rnd.tables)
        places = {p: i + 1 for i, p in enumerate(order)}
        assert {places[p] for p in t1 if places[p] <= 5} == {1, 2, 3, 4, 5}
        drawn1 = {places[p] for p in t1} - {1, 2, 3, 4, 5}
        assert len(drawn1) == 5 and drawn1 <= set(range(6, 16))
        assert set(range(6, 16)) - drawn1 <= {places[p] for p in t2}
        drawn2 = {places[p] for p in t2} - set(range(6, 16))
        assert len(drawn2) == 5 and drawn2 <= set(range(16, 26))
        assert set(range(16, 26)) - drawn2 <= {places[p] for p in t3}
        drawn3 = {places[p] for p in t3} - set(range(16, 26))
        assert drawn3 <= set(range(26, 36))
        assert {places[p] for p in t4} == set(range(26, 41)) - drawn3


def test_swiss_zvezdy_spread_draw_avoids_meeting_again() -> None:
    order = order_of(20)
    top, rest = order[:5], order[5:15]
    # each of places 6-10 already met one of the top five; only the draw 11-15 avoids repeats
    history = SeatingHistory((tuple((a, b) for a, b in zip(top, rest[:5], strict=True)),))
    for seed in range(4):
        (rnd,) = plan(SeatingRequest(ids(20), 10, "swiss_zvezdy_spread", history, order=order, seed=seed))
        assert set(rnd.tables[0]) == set(top + rest[5:])


def test_swiss_zvezdy_draws_at_random_as_written_whatever_the_meetings() -> None:
    # zvezdy's regulation: "5 случайных" from places 6-15. The regulation's method draws at random: the history that
    # makes one draw the only one without repeats does not choose it (seeds 1 and 2 gave the same table 1).
    order = order_of(20)
    top, rest = order[:5], order[5:15]
    history = SeatingHistory((tuple((a, b) for a, b in zip(top, rest[:5], strict=True)),))
    tables = [frozenset(plan(SeatingRequest(ids(20), 10, "swiss_zvezdy", history, order=order, seed=s))[0].tables[0])
              for s in range(40)]
    assert tables[1] != tables[2]
    assert len(set(tables)) > 20  # C(10, 5) = 252 draws: forty seeds rarely repeat one
    drawn = Counter(p for table in tables for p in table if p in rest)
    assert set(drawn) == set(rest)  # every one of places 6-15 is drawn by some seed, those who met the top too
    assert all(8 <= drawn[p] <= 32 for p in rest)  # about half of the forty draws each


def test_swiss_zvezdy_draw_varies_with_the_seed_and_repeats_with_it() -> None:
    order = order_of(20)
    for method in ("swiss_zvezdy", "swiss_zvezdy_spread"):
        draws = {
            frozenset(plan(SeatingRequest(ids(20), 10, method, order=order, seed=s))[0].tables[0])
            for s in range(8)
        }
        assert len(draws) > 1
        again = [plan(SeatingRequest(ids(20), 10, method, order=order, seed=5))[0] for _ in range(2)]
        assert again[0] == again[1]


def test_swiss_seats_avoid_the_seats_taken_before() -> None:
    order = order_of(10)
    history = SeatingHistory((((order),), ((order[1:] + order[:1]),)))
    (rnd,) = plan(SeatingRequest(ids(10), 10, "swiss_tens", history, order=order))
    assert report([*history.rounds, rnd.tables])["same_seat_repeats"] == 0
