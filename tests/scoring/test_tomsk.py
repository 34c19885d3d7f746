"""tomsk (docs/rules/tomsk.md): HP = OP + SP at tables of 12, per-game advancement, teams, side winners."""

from __future__ import annotations

from typing import Any

from tests.scoring.build import game, players, points, problems, round_, stage, standings, tournament

TWELVE = players(12)  # p01..p03 mafia, p04 maniac, p05 sheriff, p06 doctor, p07..p12 civilians


def one_game(winner: str = "red", **kwargs: Any) -> dict[str, Any]:
    return tournament("tomsk", [stage("q", [round_(1, [game("tomsk", TWELVE, winner, **kwargs)])])])


def test_hp_is_win_plus_half_a_point_a_day_plus_subjective() -> None:
    # p07, a civilian of the winning city, saw 4 days and got SP 0.5: 2 + 0.5 × 4 + 0.5 = 4.5.
    # p01, a losing mafia who saw 2 days with SP −1: 0 + 1 − 1 = 0.
    result = points(one_game("red", seats={7: {"days_survived": 4, "subjective": 0.5},
                                           1: {"days_survived": 2, "subjective": -1}}))
    assert result["p07"] == 4.5
    assert result["p01"] == 0
    assert result["p08"] == 2 + 0.5  # the builder's default: 1 day, SP 0


def test_the_maniac_wins_alone() -> None:
    result = points(one_game("maniac"))
    assert result["p04"] == 2.5
    assert result["p01"] == 0.5 and result["p07"] == 0.5


def test_days_and_subjective_are_required_and_sp_is_bounded() -> None:
    data = one_game("red", seats={3: {"subjective": 3.5}})
    del data["stages"][0]["rounds"][0]["games"][0]["seats"][4]["days_survived"]
    assert problems(data) == [
        "stage q, round 1, table 1, seat 3: subjective mark 3.5 is outside -3..3",
        "stage q, round 1, table 1, seat 5: days_survived is required in a tomsk game with a result",
    ]


def test_no_extra_points_and_no_don() -> None:
    data = one_game("red", seats={7: {"extra": 1}, 1: {"role": "don"}})
    assert problems(data) == [
        "stage q, round 1, table 1: 2 mafia at the table; tomsk expects 3",
        "stage q, round 1, table 1: 1 don at the table; tomsk expects 0",
        "stage q, round 1, table 1, seat 7: tomsk has no extra points (extra must be 0)",
    ]


def test_tie_break_wins_then_days_survived() -> None:
    # p07: won, 3 days, SP 0 → 2 + 1.5 + 0 = 3.5. p08: won, 1 day, SP 1 → 2 + 0.5 + 1 = 3.5.
    # p01: lost, 1 day, SP 3 → 0 + 0.5 + 3 = 3.5. All tied on HP: p01 has no win → third;
    # p07 and p08 both won once, p07 survived more days → first.
    data = one_game("red", seats={7: {"days_survived": 3}, 1: {"subjective": 3},
                                  8: {"subjective": 1}})
    result = standings(data)
    top = [(row.player, row.rank, float(row.points)) for row in result.rows[:3]]
    assert top == [("p07", 1, 3.5), ("p08", 2, 3.5), ("p01", 3, 3.5)]
    row = result.row("p07")
    assert row is not None and row.tiebreaks == {"wins": 1, "days_survived": 3}


def three_stage_tomsk() -> dict[str, Any]:
    """Qualifying of 2 tables (24 players), semifinal of 1 table, final of 1 table."""
    table_a, table_b = players(12), players(12, start=13)
    # Table 1: red wins; SP gives p07 > p08 > p09 > p10 ... distinct points.
    sp_a = {7: {"subjective": 3}, 8: {"subjective": 2}, 9: {"subjective": 1}, 10: {"subjective": 0.5}}
    # Table 2: black wins: mafia p13 p14 p15 on 2.5; SP splits them.
    sp_b = {1: {"subjective": 1}, 2: {"subjective": 0.5}}
    qualifying = stage("q", [round_(1, [game("tomsk", table_a, "red", seats=sp_a),
                                        game("tomsk", table_b, "black", table=2, seats=sp_b)])])
    semi_players = ["p07", "p08", "p09", "p13", "p14", "p15", "p05", "p06", "p11", "p12", "p16", "p17"]
    semifinal = stage("s", [round_(1, [game("tomsk", semi_players, "black",
                                            seats={1: {"subjective": 2}, 2: {"subjective": 1}})])])
    final = stage("f", [round_(1, [game("tomsk", semi_players, "red", seats={7: {"subjective": 1}})])])
    return tournament("tomsk", [qualifying, semifinal, final],
                      teams=[{"id": "t1", "name": "Team 1"}, {"id": "t2", "name": "Team 2"}])


def test_per_game_advancement_takes_the_top_three_of_each_table() -> None:
    result = standings(three_stage_tomsk(), "q")
    # Table 1 (red won, 1 day each, SP as given): p07 5.5, p08 4.5, p09 3.5 are the top 3 reds.
    # Table 2 (black won): p13 3.5, p14 3, then p15 2.5 — the top 3 at that table.
    assert set(result.advance) == {"p07", "p08", "p09", "p13", "p14", "p15"}
    # Listed in standings order.
    ranks = {row.player: row.rank for row in result.rows}
    assert [ranks[p] for p in result.advance] == sorted(ranks[p] for p in result.advance)


def test_per_game_advancement_lets_an_unbroken_tie_through() -> None:
    # Table 1 with no SP: all 8 reds have 2.5 HP, 1 win and 1 day: tied at rank 1, and fewer
    # than 3 players of their game rank above any of them, so all 8 advance (and nobody else).
    data = one_game("red")
    result = standings(data)
    assert set(result.advance) == {p for p in TWELVE if p not in ("p01", "p02", "p03", "p04")}


def test_semifinal_and_final_reset_and_winners_are_the_last_game_side() -> None:
    data = three_stage_tomsk()
    semifinal = standings(data, "s")
    # Reset: only the semifinal's own game counts. The blacks of that game (seats 1–3) won.
    assert {row.player: float(row.points) for row in semifinal.rows}["p07"] == 2 + 0.5 + 2
    final = standings(data, "f")
    # Red won the final: its 8 reds (seats 5–12). p05 (seat 7, SP 1: 2 + 0.5 + 1 = 3.5) is the
    # best; the other 7 tie on 2.5 with equal wins and days, listed by id; at most 6 win.
    assert final.winners == ("p05", "p06", "p11", "p12", "p14", "p15")


def test_team_table_sums_the_stage_points_of_the_members() -> None:
    data = three_stage_tomsk()
    for player in data["players"]:
        player["team"] = "t1" if int(player["id"][1:]) <= 12 else "t2"
    result = standings(data, "q")
    assert result.teams is not None
    by_team = {team.team: float(team.points) for team in result.teams}
    # Table 1 (all t1): 8 reds × 2.5 + SP 3 + 2 + 1 + 0.5 + 4 blacks × 0.5 = 28.5.
    assert by_team["t1"] == 8 * 2.5 + 6.5 + 4 * 0.5
    # Table 2 (all t2): 3 mafia × 2.5 + SP 1.5 + 9 others × 0.5 = 13.5.
    assert by_team["t2"] == 3 * 2.5 + 1.5 + 9 * 0.5
    assert [team.team for team in result.teams] == ["t1", "t2"]


def four_teams() -> dict[str, Any]:
    """three_stage_tomsk with teams of 6: t1 p01–p06, t2 p07–p12, t3 p13–p18, t4 p19–p24."""
    data = three_stage_tomsk()
    data["teams"] = [{"id": f"t{n}", "name": f"Team {n}"} for n in range(1, 5)]
    for player in data["players"]:
        player["team"] = f"t{(int(player['id'][1:]) - 1) // 6 + 1}"
    return data


def test_the_two_best_teams_of_the_qualifying_go_on() -> None:
    result = standings(four_teams(), "q")
    # t2 (p07–p12, the winning reds of table 1) 21.5; t3 (the winning mafia and maniac of table 2) 10.5;
    # t1 7; t4 3.
    assert result.teams is not None
    assert [(t.team, t.rank, float(t.points), t.advances) for t in result.teams] == [
        ("t2", 1, 21.5, True), ("t3", 2, 10.5, True), ("t1", 3, 7, False), ("t4", 4, 3, False)]
    assert result.team_cut == 2 and result.team_advance == ("t2", "t3")
    assert result.champion_teams is None


def test_the_semifinal_ranks_the_two_contenders_first_and_sends_one_on() -> None:
    result = standings(four_teams(), "s")
    # Semifinal only (reset): t2 has p07 4.5, p08 3.5, p09 2.5, p11 and p12 0.5 = 11.5; t3 2.5; t1 (out of
    # the team competition) 1: ranked below the contenders whatever its points.
    assert result.teams is not None
    assert [(t.team, t.rank, float(t.points), t.contending, t.advances) for t in result.teams] == [
        ("t2", 1, 11.5, True, True), ("t3", 2, 2.5, True, False),
        ("t1", 3, 1, False, False), ("t4", 4, 0, False, False)]
    assert result.team_cut == 1 and result.team_advance == ("t2",)


def test_the_team_sent_to_the_final_is_the_champion_once_the_final_has_a_result() -> None:
    data = four_teams()
    final = standings(data, "f")
    assert final.team_cut is None and final.team_advance == ()
    assert final.champion_teams == ("t2",)
    data["stages"][2]["rounds"][0]["games"][0]["winner"] = None
    assert standings(data, "f").champion_teams is None


def test_no_team_goes_on_before_the_stage_has_a_result() -> None:
    data = four_teams()
    data["stages"][0]["rounds"][0]["games"] = []
    result = standings(data, "q")
    assert result.team_cut == 2 and result.team_advance == ()
    assert result.teams is not None and all(t.rank == 1 for t in result.teams)


def test_an_unbroken_tie_at_the_team_cut_lets_both_teams_through() -> None:
    data = one_game("red")  # 8 reds on 2.5, 4 blacks on 0.5
    data["teams"] = [{"id": f"t{n}", "name": f"Team {n}"} for n in range(1, 4)]
    # t1: p01 p07 p08 = 5.5; t2: p02 p09 p10 = 5.5; t3: the rest = 2.5 × 4 + 0.5 × 2 = 11.
    members = {"t1": ("p01", "p07", "p08"), "t2": ("p02", "p09", "p10")}
    for player in data["players"]:
        player["team"] = next((tid for tid, ids in members.items() if player["id"] in ids), "t3")
    result = standings(data)
    assert result.team_advance == ("t3", "t1", "t2")


def test_team_fields_in_the_standings_json() -> None:
    from scoring.standings import standings_json

    out = standings_json(standings(four_teams(), "s"))
    assert out["teams"] == [{"rank": 1, "team": "t2", "name": "Team 2", "points": 11.5},
                            {"rank": 2, "team": "t3", "name": "Team 3", "points": 2.5},
                            {"rank": 3, "team": "t1", "name": "Team 1", "points": 1},
                            {"rank": 4, "team": "t4", "name": "Team 4", "points": 0}]
    assert out["team_cut"] == 1 and out["team_advance"] == ["t2"] and "champion_teams" not in out
    final = standings_json(standings(four_teams(), "f"))
    assert final["champion_teams"] == ["t2"] and "team_cut" not in final


def test_the_cli_text_names_the_teams_going_on_and_the_champion_team() -> None:
    from scoring.cli import standings_text

    assert "teams advance (1): t2" in standings_text(standings(four_teams(), "s"))
    assert "champion team: t2" in standings_text(standings(four_teams(), "f"))
