"""Rules common to every ruleset (docs/rules/tournament.md): stages, reset, multiplier, lots, cuts, guests, teams."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from scoring import fileio
from scoring.standings import compute_standings, default_stage, standings_json, without_seats
from tests.scoring.build import game, load, players, points, round_, stage, standings, tournament

TEN = players(10)
OTHER_TEN = players(10, start=11)
DATA = Path(__file__).parent / "data"


def two_stages(**final: object) -> dict[str, object]:
    qualifying = stage("q", [round_(1, [game("fiim", TEN, "red"), game("fiim", OTHER_TEN, "black", table=2)])])
    return tournament("fiim", [qualifying, stage("f", [round_(1, [game("fiim", TEN, "black")])], **final)])


def test_without_reset_a_stage_counts_the_earlier_stages() -> None:
    # p04: 2 (qualifying red win) + 0 (final loss); p01: 0 + 2.
    result = points(two_stages(), "f")
    assert result["p04"] == 2 and result["p01"] == 2
    row = standings(two_stages(), "f").row("p04")
    assert row is not None and row.tally.games == 2 and row.tally.wins == 1


def test_reset_counts_only_the_stage_itself() -> None:
    result = points(two_stages(reset=True), "f")
    assert result["p04"] == 0 and result["p01"] == 2


def test_stage_players_are_its_list_plus_anyone_seated_and_only_they_are_ranked() -> None:
    # The final ranks only p01..p10 (seated there), not p11..p20 who played qualifying only.
    result = standings(two_stages(), "f")
    assert {row.player for row in result.rows} == set(TEN)
    listed = standings(two_stages(players=[*TEN, "p11"]), "f")
    assert "p11" in {row.player for row in listed.rows}


def test_stage_multiplier_applies_to_game_points_not_to_byes_absences_or_penalties() -> None:
    r1 = round_(1, [game("zvezdy", TEN, "red", seats={5: {"extra": 1}})], byes=["p11"],
                penalties=[{"player": "p06", "points": -1, "reason": "late"}])
    r2 = round_(2, [game("zvezdy", TEN, "red")], absent=["p11"])
    data = tournament("zvezdy", [stage("q", [r1, r2], multiplier=2)], player_ids=[*TEN, "p11"],
                      params={"absence_points": -1})
    result = points(data)
    assert result["p05"] == (5 + 1) * 2 + 5 * 2  # both games doubled
    assert result["p06"] == 5 * 2 * 2 - 1  # the penalty is not doubled
    assert result["p11"] == 3 - 1  # bye +3 and absence −1, neither doubled


def test_final_multiplier_comes_from_the_ruleset_unless_the_stage_sets_one() -> None:
    q = stage("q", [round_(1, [game("kostroma", TEN, "red")])])
    default = tournament("kostroma", [q, stage("f", [round_(1, [game("kostroma", TEN, "black")])])])
    assert points(default, "f")["p01"] == 4 * 1.5
    explicit = tournament("kostroma", [q, stage("f", [round_(1, [game("kostroma", TEN, "black")])],
                                               multiplier=2)])
    assert points(explicit, "f")["p01"] == 4 * 2
    by_param = tournament("kostroma", [q, stage("f", [round_(1, [game("kostroma", TEN, "black")])])],
                          params={"final_multiplier": "1.25"})
    assert points(by_param, "f")["p01"] == 5


def test_guests_play_but_are_never_ranked_advance_or_win() -> None:
    final = stage("f", [round_(1, [game("fiim", TEN, "red", seats={4: {"extra": 1}})])], kind="final")
    data = tournament("fiim", [final], guests=["p04"])
    result = standings(data)
    assert "p04" not in {row.player for row in result.rows}
    assert result.winners is not None and "p04" not in result.winners
    assert len(result.rows) == 9


def test_top_n_cut_lets_an_unbreakable_tie_through() -> None:
    # One fiim game, black wins: p01 (don) 1st, p02 and p03 tied 2nd. Top 2 → 3 advance.
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "black")])], advance={"top": 2}),
                               stage("f", [])])
    assert standings(data, "q").advance == ("p01", "p02", "p03")
    # Lots break the tie at the cut: p03 listed → p01, p03.
    data["stages"][0]["lots"] = ["p03"]
    assert standings(data, "q").advance == ("p01", "p03")


def test_a_final_advances_nobody() -> None:
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "black")])], kind="final",
                                     advance={"top": 5})])
    assert standings(data).advance == ()


def test_competition_ranking_with_lots_partially_breaking_a_tie() -> None:
    # Seven reds of a fiim game tie except the sheriff; lots list p07 and p05 only.
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "red")])], lots=["p07", "p05"])])
    ranks = [(row.rank, row.player) for row in standings(data).rows]
    assert ranks[:7] == [(1, "p04"), (2, "p07"), (3, "p05"), (4, "p06"), (4, "p08"), (4, "p09"), (4, "p10")]


def test_stage_kind_follows_position_when_omitted() -> None:
    data = tournament("fiim", [stage("a", []), stage("b", []), stage("c", [])])
    t = load(data)
    assert [t.stage_kind(s).value for s in t.stages] == ["qualifying", "semifinal", "final"]
    data["stages"][1]["kind"] = "other"
    assert load(data).stage_kind(load(data).stages[1]).value == "semifinal"


def test_default_stage_is_the_last_with_a_result() -> None:
    q = stage("q", [round_(1, [game("fiim", TEN, "red")])])
    pending = stage("s", [round_(1, [game("fiim", TEN, None)])])
    t = load(tournament("fiim", [q, pending, stage("f", [])]))
    assert default_stage(t).id == "q"


def test_a_game_without_result_counts_for_nothing() -> None:
    q = stage("q", [round_(1, [game("fiim", TEN, "red")]),
                    round_(2, [game("fiim", TEN, None, seats={5: {"extra": 1}}, first_killed=4)])])
    row = standings(tournament("fiim", [q])).row("p05")
    assert row is not None and row.tally.games == 1 and float(row.points) == 2 and row.tally.first_killed == 0


def test_team_table_ranks_teams_and_counts_only_ranked_members() -> None:
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "red")])])], guests=["p05"],
                      teams=[{"id": "a", "name": "A"}, {"id": "b", "name": "B"}, {"id": "c", "name": "C"}])
    for player in data["players"]:
        player["team"] = "a" if player["id"] in ("p04", "p05", "p06") else "b" if player["id"] == "p07" else "c"
    result = standings(data)
    assert result.teams is not None
    # a: p04 2 + p06 2 (p05 is a guest: not counted) = 4; c: p08, p09, p10 = 6 (blacks 0); b: 2.
    assert [(t.rank, t.team, float(t.points)) for t in result.teams] == [(1, "c", 6), (2, "a", 4), (3, "b", 2)]


def test_rulesets_without_a_team_competition_show_the_team_table_only() -> None:
    # kostroma, fiim and zvezdy have no team competition: a tournament with teams gets the team table of each
    # stage, but no team cut, no team going on and no champion team, and the JSON keeps its old keys.
    from scoring.standings import standings_json

    for ruleset in ("fiim", "kostroma", "zvezdy"):
        table, other = (players(10), players(10, start=11))
        qualifying = stage("q", [round_(1, [game(ruleset, table, "red"), game(ruleset, other, "black", table=2)])])
        data = tournament(ruleset, [qualifying, stage("f", [round_(1, [game(ruleset, table, "black")])])],
                          teams=[{"id": "a", "name": "A"}, {"id": "b", "name": "B"}])
        for player in data["players"]:
            player["team"] = "a" if int(player["id"][1:]) <= 10 else "b"
        for stage_id in ("q", "f"):
            result = standings(data, stage_id)
            assert result.teams is not None and all(t.contending and not t.advances for t in result.teams)
            assert result.team_cut is None and result.team_advance == () and result.champion_teams is None
            assert set(standings_json(result)) <= {"ruleset", "stage", "standings", "teams", "winners"}


@pytest.mark.parametrize("example", sorted(p.name for p in DATA.glob("*-example.json")))
def test_standings_without_seats_show_everything_the_tables_show(example: str) -> None:
    """``without_seats`` keeps every figure a table or the JSON shows, for every stage of every regulation's example,
    and drops the scored seats (most of what a process would read from the shared cache)."""
    model = fileio.loads((DATA / example).read_text())
    for stage_ in model.stages:
        whole = compute_standings(model, stage_.id)
        light = without_seats(whole)
        assert standings_json(light) == standings_json(whole)
        assert [(r.rank, r.player, r.points, r.tally.games, r.tally.wins, r.tally.average, r.eligible,
                 r.disqualified, dict(r.tiebreaks)) for r in light.rows] == [
                (r.rank, r.player, r.points, r.tally.games, r.tally.wins, r.tally.average, r.eligible,
                 r.disqualified, dict(r.tiebreaks)) for r in whole.rows]
        assert (light.advance, light.winners, light.teams, light.chain) == (
            whole.advance, whole.winners, whole.teams, whole.chain)
        assert all(not row.tally.seats for row in light.rows)
        assert any(row.tally.seats for row in whole.rows)  # the example's stage has games: something was dropped
        assert len(pickle.dumps(light)) < len(pickle.dumps(whole))  # 1,000 players: 245 kB against 2.3 MB
