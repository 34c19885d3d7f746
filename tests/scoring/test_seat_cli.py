"""``seat`` and ``seating-report`` (docs/command-line.md) on tournament files."""

from __future__ import annotations

import json
from pathlib import Path

from scoring import fileio
from scoring.model import SeatingMethod
from scoring.round_planning import plan_rounds, players_to_seat, swiss_order
from scoring.standings import compute_standings
from tests.scoring.build import dumps, game, players, round_, run_cli, stage, tournament

DATA = Path(__file__).parent / "data"


def seat(*args: str, stdin: str | None = None) -> dict[str, object]:
    result = run_cli("seat", *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def test_seat_plans_the_next_rounds_of_a_stage_for_everyone_in_it() -> None:
    out = seat(str(DATA / "fiim-example.json"), "--stage", "qualifying", "--method", "balanced", "--rounds", "2")
    assert out["stage"] == "qualifying"
    rounds = out["rounds"]
    assert isinstance(rounds, list) and [r["round"] for r in rounds] == [8, 9]  # after the 7 played
    t = fileio.load(json.loads((DATA / "fiim-example.json").read_text()))
    expected = set(players_to_seat(t, t.stage("qualifying")))
    for planned in rounds:
        seated = [p for table in planned["tables"] for p in table["seats"]]
        assert [table["table"] for table in planned["tables"]] == list(range(1, 8))
        assert all(len(table["seats"]) == 10 for table in planned["tables"])
        assert sorted(seated + planned["byes"]) == sorted(expected)


def test_swiss_tens_puts_the_top_ten_at_table_one() -> None:
    out = seat(str(DATA / "fiim-example.json"), "--stage", "semifinal", "--method", "swiss_tens")
    t = fileio.load(json.loads((DATA / "fiim-example.json").read_text()))
    order = [row.player for row in compute_standings(t, "semifinal").rows]
    tables = out["rounds"][0]["tables"]  # type: ignore[index]
    assert set(tables[0]["seats"]) == set(order[:10])
    assert set(tables[2]["seats"]) == set(order[20:30])


def test_swiss_zvezdy_orders_qualifying_by_extra_points() -> None:
    t = fileio.load(json.loads((DATA / "zvezdy-example.json").read_text()))
    order = swiss_order(t, t.stage("qualifying"), SeatingMethod.SWISS_ZVEZDY)
    standings = compute_standings(t, "qualifying")

    def extra(player: str) -> float:
        row = standings.row(player)
        assert row is not None
        return float(sum(s.points.circles + s.points.extra + s.points.best_move for s in row.tally.seats))

    ranked = [p for p in order if standings.row(p) is not None]
    assert [extra(p) for p in ranked] == sorted((extra(p) for p in ranked), reverse=True)
    assert swiss_order(t, t.stage("qualifying"), SeatingMethod.SWISS_ZVEZDY_SPREAD) == order
    for method in (SeatingMethod.SWISS_ZVEZDY, SeatingMethod.SWISS_ZVEZDY_SPREAD):
        block = plan_rounds(t, "qualifying", method, seed=3)
        first_table = set(block.rounds[0].tables[0])
        assert set(ranked[:5]) <= first_table  # places 1–5 always sit at table 1


def test_the_cli_seats_with_every_method_name_the_contract_fixes_and_the_organizers_choice() -> None:
    path = str(DATA / "zvezdy-example.json")
    for method in ("random", "balanced", "swiss_tens", "swiss_zvezdy", "swiss_zvezdy_spread"):
        out = seat(path, "--stage", "qualifying", "--method", method, "--seed", "4")
        assert out["stage"] == "qualifying" and out["rounds"][0]["tables"]  # type: ignore[index]
    draws = {frozenset(seat(path, "--stage", "qualifying", "--method", "swiss_zvezdy", "--seed", str(s))
                       ["rounds"][0]["tables"][0]["seats"]) for s in (1, 2, 3)}  # type: ignore[index]
    assert len(draws) > 1  # the regulation's draw is random: the seed changes table 1


def test_a_later_stage_without_players_or_rounds_seats_who_advanced() -> None:
    ten = players(10)
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", ten, "red"),
                                                      game("fiim", players(10, start=11), "black", table=2)])],
                                     advance={"top": 10}), stage("f", [])])
    t = fileio.load(data)
    assert set(players_to_seat(t, t.stage("f"))) == set(compute_standings(t, "q").advance)
    out = seat("-", "--stage", "f", "--method", "random", "--seed", "5", stdin=dumps(data))
    assert len(out["rounds"][0]["tables"]) == 1  # type: ignore[index]


def test_same_seed_same_plan() -> None:
    args = (str(DATA / "kostroma-example.json"), "--stage", "qualifying", "--method", "random", "--seed", "9")
    assert seat(*args) == seat(*args)


def test_seat_errors_exit_2() -> None:
    unknown = run_cli("seat", str(DATA / "fiim-example.json"), "--stage", "nope", "--method", "random")
    assert unknown.returncode == 2 and "stage nope" in unknown.stderr
    # zvezdy: everyone of 11 players already had their one bye: nobody can take the next.
    eleven = players(11)
    rounds = [round_(n, [game("zvezdy", [p for p in eleven if p != bye], "red")], byes=[bye])
              for n, bye in enumerate(eleven, start=1)]
    data = tournament("zvezdy", [stage("q", rounds)])
    result = run_cli("seat", "-", "--stage", "q", "--method", "balanced", stdin=dumps(data))
    assert result.returncode == 2 and result.stderr.strip()


def test_seating_report_figures() -> None:
    result = run_cli("seating-report", str(DATA / "fiim-example.json"), "--stage", "qualifying")
    assert result.returncode == 0
    out = json.loads(result.stdout)
    for key in ("pairs_met_twice_or_more", "max_meetings", "repeat_meetings", "same_seat_repeats", "players"):
        assert key in out
    t = fileio.load(json.loads((DATA / "fiim-example.json").read_text()))
    seated = {seat.player for r in t.stage("qualifying").rounds for g in r.games for seat in g.seats}
    assert set(out["players"]) == seated
    whole = json.loads(run_cli("seating-report", str(DATA / "fiim-example.json")).stdout)
    assert whole["repeat_meetings"] >= out["repeat_meetings"]
