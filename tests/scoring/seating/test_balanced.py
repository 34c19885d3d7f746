"""`balanced` (docs/rules/seating-methods.md): repeats against the pigeonhole bound, seats, tables, constraints."""

from __future__ import annotations

from scoring.seating import SeatingHistory, SeatingRequest, plan, report, shape_bound
from tests.scoring.seating.helpers import check_round, ids, one_at_a_time


def test_bound_of_notes_for_the_benchmark_shapes() -> None:
    assert shape_bound(70, 10, 4) == 126
    assert shape_bound(70, 10, 7) == 441
    assert shape_bound(96, 12, 8) == 896
    assert shape_bound(200, 10, 10) == 0


def test_70_players_4_rounds_reach_the_bound_with_no_pair_meeting_three_times() -> None:
    rounds = plan(SeatingRequest(ids(70), 10, "balanced", rounds=4, seed=1))
    for rnd in rounds:
        check_round(rnd, ids(70), 10)
    rep = report([r.tables for r in rounds], table_size=10)
    assert rep["q"] == rep["lower_bound"] == 126
    assert rep["max_meetings"] == 2 and rep["pairs_met_twice_or_more"] == 126
    assert rep["same_seat_repeats"] == 0


def test_seats_never_repeat_while_rounds_fit_the_table_and_thirds_spread() -> None:
    rounds = plan(SeatingRequest(ids(40), 10, "balanced", rounds=10, seed=2, effort=0.1))
    rep = report([r.tables for r in rounds], table_size=10)
    assert rep["same_seat_repeats"] == 0
    # 10 games over seats 1..10 with no repeat: exactly 3 early, 4 middle, 3 late each
    assert rep["seat_spread"]["early"] == {"min": 3, "max": 3}
    assert rep["seat_spread"]["late"] == {"min": 3, "max": 3}


def test_thirds_spread_over_four_rounds() -> None:
    rounds = plan(SeatingRequest(ids(70), 10, "balanced", rounds=4, seed=3))
    rep = report([r.tables for r in rounds], table_size=10)
    for third in ("early", "middle", "late"):
        assert rep["seat_spread"][third]["max"] <= 2


def test_one_round_at_a_time_stays_near_the_bound() -> None:
    rounds = one_at_a_time(ids(70), 10, 4, effort=0.3)
    rep = report([r.tables for r in rounds], table_size=10)
    assert rep["max_meetings"] == 2
    assert rep["q"] <= 1.1 * 126
    assert rep["same_seat_repeats"] == 0


def test_players_spread_over_the_physical_tables() -> None:
    # with fewer tables than seats someone must return to a table (docs/seating.md); with 20
    # tables everyone can play 3 rounds at 3 different tables, where random seating cannot
    rounds = plan(SeatingRequest(ids(200), 10, "balanced", rounds=3, seed=4, effort=0.05))
    assert report([r.tables for r in rounds])["table_repeats"] == 0
    rounds = plan(SeatingRequest(ids(200), 10, "random", rounds=3, seed=4))
    assert report([r.tables for r in rounds])["table_repeats"] > 10


def test_byes_go_to_those_with_the_fewest_and_no_second_bye_while_avoidable() -> None:
    players = ids(33)
    rounds = plan(SeatingRequest(players, 10, "balanced", rounds=4, seed=5, effort=0.1))
    byes = [p for r in rounds for p in r.byes]
    assert len(byes) == 12 and len(set(byes)) == 12
    history = SeatingHistory((), {p: 1 for p in players[:31]})
    (rnd,) = plan(SeatingRequest(players, 10, "balanced", history, effort=0.1))
    assert set(rnd.byes) == set(players[31:]) | set(rnd.byes) and set(players[31:]) <= set(rnd.byes)


def test_keep_apart_pairs_and_teammates_are_kept_apart() -> None:
    players = ids(40)
    teams = {p: f"t{i % 4}" for i, p in enumerate(players)}  # 4 teams of 10 over 4 tables
    apart = ((players[0], players[2]), (players[1], players[3]))
    rounds = plan(
        SeatingRequest(players, 10, "balanced", rounds=3, seed=6, teams=teams, keep_apart=apart, effort=0.3)
    )
    rep = report([r.tables for r in rounds], teams=teams, keep_apart=apart)
    assert rep["kept_apart_together"] == 0
    # 10 teammates over 4 tables must share tables: at best 2+2+3+3 per table, 8 pairs a round
    assert rep["teammates_together"] <= 3 * 4 * 8


def test_progress_is_reported_and_ends_at_one() -> None:
    seen: list[float] = []
    plan(SeatingRequest(ids(70), 10, "balanced", rounds=7, effort=0.05), seen.append)
    assert seen and seen[-1] == 1.0 and all(0 <= x <= 1 for x in seen)


def test_guests_and_absent_players_in_the_history_are_handled() -> None:
    history = SeatingHistory((((*ids(10), "late1"), ("x", "y")),))  # odd shapes in the past
    (rnd,) = plan(SeatingRequest(ids(20), 10, "balanced", history, effort=0.1))
    check_round(rnd, ids(20), 10)


def test_96_players_at_8_tables_of_12_reach_the_bound_over_8_rounds() -> None:
    rounds = plan(SeatingRequest(ids(96), 12, "balanced", rounds=8, seed=9))
    rep = report([r.tables for r in rounds], table_size=12)
    assert rep["q"] == rep["lower_bound"] == 896 and rep["max_meetings"] == 2
    assert rep["same_seat_repeats"] == 0


def test_affine_plane_shapes_have_no_repeats() -> None:
    rounds = plan(SeatingRequest(ids(121), 11, "balanced", rounds=6, seed=9))
    assert report([r.tables for r in rounds])["max_meetings"] == 1


def test_round_by_round_reaches_the_bound_where_the_block_does() -> None:
    rounds = one_at_a_time(ids(96), 12, 8)
    rep = report([r.tables for r in rounds], table_size=12)
    assert rep["q"] == 896 and rep["max_meetings"] == 2


def test_round_by_round_after_a_roster_change_is_still_valid_and_good() -> None:
    rounds = one_at_a_time(ids(96), 12, 3)
    players = ids(96)[:-12]  # a team of 12 left: no replay, plan from the history
    history = SeatingHistory(tuple(r.tables for r in rounds))
    (rnd,) = plan(SeatingRequest(players, 12, "balanced", history, effort=0.2))
    check_round(rnd, players, 12)
    rep = report([*history.rounds, rnd.tables], players=players, table_size=12)
    assert rep["max_meetings"] == 2


def test_round_by_round_with_more_tables_than_seats_follows_a_searched_block() -> None:
    rounds = one_at_a_time(ids(24), 4, 4)
    rep = report([r.tables for r in rounds], table_size=4)
    assert rep["max_meetings"] == 1 and rep["same_seat_repeats"] == 0
    again = one_at_a_time(ids(24), 4, 4)
    assert again == rounds  # the same seed and players: the same rounds


def test_round_by_round_after_hand_reseating_keeps_the_tables_of_the_plan() -> None:
    rounds = one_at_a_time(ids(96), 12, 2)
    reseated = tuple(tuple(reversed(t)) for t in rounds[1].tables)
    history = SeatingHistory((rounds[0].tables, reseated))
    (rnd,) = plan(SeatingRequest(ids(96), 12, "balanced", history))
    rep = report([*history.rounds, rnd.tables], table_size=12)
    before = report(history.rounds, table_size=12)
    assert rep["q"] == shape_bound(96, 12, 3)
    assert rep["same_seat_repeats"] == before["same_seat_repeats"]  # the new round adds none


def test_bound_with_byes_shares_the_players_off_a_round() -> None:
    # 73 players at 7 tables: 3 off each round; each later table holds 3 old pairs less one per
    # player it takes from those 3, so 21 - 3 = 18 per pair of rounds
    assert shape_bound(73, 10, 7) == 21 * 18
    rounds = plan(SeatingRequest(ids(73), 10, "balanced", rounds=3, seed=1, effort=0.3))
    rep = report([r.tables for r in rounds], table_size=10)
    assert rep["q"] >= shape_bound(73, 10, 3) and rep["max_meetings"] == 2


def test_70_players_7_rounds_reach_the_bound_for_every_seed() -> None:
    # the field construction covers 7 rounds of 7 tables (it stopped at 4)
    for seed in range(1, 6):
        rounds = plan(SeatingRequest(ids(70), 10, "balanced", rounds=7, seed=seed))
        rep = report([r.tables for r in rounds], table_size=10)
        assert rep["q"] == shape_bound(70, 10, 7) == 441
        assert rep["max_meetings"] == 2 and rep["same_seat_repeats"] == 0


def test_200_players_10_rounds_never_meet_twice() -> None:
    rounds = plan(SeatingRequest(ids(200), 10, "balanced", rounds=10, seed=1))
    for rnd in rounds:
        check_round(rnd, ids(200), 10)
    rep = report([r.tables for r in rounds], table_size=10)
    assert rep["q"] == 0 and rep["max_meetings"] == 1
    assert rep["same_seat_repeats"] == 0


def test_one_round_at_a_time_follows_the_same_block() -> None:
    rounds = one_at_a_time(ids(70), 10, 7, seed=4)
    assert report([r.tables for r in rounds], table_size=10)["q"] == 441
    rounds = one_at_a_time(ids(200), 10, 10, seed=4)
    assert report([r.tables for r in rounds], table_size=10)["q"] == 0
