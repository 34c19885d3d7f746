"""kostroma (docs/rules/kostroma.md): 3 or 4 points a win, −1 removal, extra points, final × 1.5."""

from __future__ import annotations

from typing import Any

from tests.scoring.build import game, players, points, problems, round_, stage, standings, tournament

TEN = players(10)  # p01 don, p02 p03 mafia, p04 sheriff, p05 doctor, p06..p10 civilians


def one_game(winner: str = "red", **kwargs: Any) -> dict[str, Any]:
    return tournament("kostroma", [stage("q", [round_(1, [game("kostroma", TEN, winner, **kwargs)])])])


def test_red_win_is_three_black_win_is_four() -> None:
    red = points(one_game("red"))
    assert [red[p] for p in TEN] == [0, 0, 0, 3, 3, 3, 3, 3, 3, 3]
    black = points(one_game("black"))
    assert [black[p] for p in TEN] == [4, 4, 4, 0, 0, 0, 0, 0, 0, 0]


def test_removal_costs_one_point_whether_won_or_lost() -> None:
    # p06 (red, won) removed after a disqualifying foul: 3 − 1 = 2; p02 (black, lost) by 4 fouls: −1.
    result = points(one_game(seats={6: {"removed": True, "fouls": 2}, 2: {"fouls": 4}}))
    assert result["p06"] == 2
    assert result["p02"] == -1


def test_extra_points_three_players_half_or_one_at_most_two_in_all() -> None:
    ok = one_game(seats={1: {"extra": 0.5}, 6: {"extra": 1}, 7: {"extra": 0.5}})
    assert problems(ok) == []
    result = points(ok)
    assert result["p01"] == 0.5 and result["p06"] == 4 and result["p07"] == 3.5
    too_many_players = one_game(seats={1: {"extra": 0.5}, 6: {"extra": 0.5}, 7: {"extra": 0.5},
                                       8: {"extra": 0.5}})
    assert problems(too_many_players) == [
        "stage q, round 1, table 1: 4 players got extra points; kostroma allows at most 3"]
    too_much = one_game(seats={1: {"extra": 1}, 6: {"extra": 1}, 7: {"extra": 0.5}})
    assert problems(too_much) == ["stage q, round 1, table 1: extra points total 2.5; kostroma allows at most 2 "
                                  "in a game"]
    wrong_value = one_game(seats={6: {"extra": 0.25}})
    assert problems(wrong_value) == ["stage q, round 1, table 1, seat 6: a winning player can get 0, 0.5 or 1 "
                                     "extra points under kostroma"]


def final_tournament(final_game: dict[str, Any]) -> dict[str, Any]:
    qualifying = stage("q", [round_(1, [game("kostroma", TEN, "red")])])
    return tournament("kostroma", [qualifying, stage("final", [round_(1, [final_game])])])


def test_final_points_are_multiplied_by_one_and_a_half_removal_included() -> None:
    # Qualifying: red won (3 each). Final: black won; p01 also 1 extra → (4 + 1) × 1.5 = 7.5;
    # p02: 4 × 1.5 = 6; p06 removed, lost: −1 × 1.5 = −1.5 on top of the 3 of qualifying.
    final_game = game("kostroma", TEN, "black", seats={1: {"extra": 1}, 6: {"removed": True}})
    result = points(final_tournament(final_game), "final")
    assert result["p01"] == 7.5
    assert result["p02"] == 6
    assert result["p06"] == 3 - 1.5
    assert result["p04"] == 3


def test_winners_are_the_side_that_won_the_last_final_game() -> None:
    final_game = game("kostroma", TEN, "black")
    result = standings(final_tournament(final_game), "final")
    assert result.winners == ("p01", "p02", "p03")


def test_tie_break_extra_points_before_wins() -> None:
    # Two rounds. p06 wins both as a civilian: 3 + 3 = 6, 2 wins, no extra. p12 wins as the
    # don with 1 extra (4 + 1), then loses as a civilian with 1 extra (0 + 1): 6, 1 win.
    # Tied on 6 points, p12 ranks above by extra points (2 > 0) despite fewer wins.
    r1 = [game("kostroma", ["p12", *players(9, start=51)], "black", seats={1: {"extra": 1}})]
    r2 = [game("kostroma", ["p21", "p22", "p23", "p24", "p25", "p12", "p27", "p28", "p29", "p30"], "black",
               seats={6: {"extra": 1}}),
          game("kostroma", ["p31", "p32", "p33", "p34", "p35", "p06", "p37", "p38", "p39", "p40"], "red",
               table=2)]
    r1_extra = [game("kostroma", ["p41", "p42", "p43", "p44", "p45", "p06", "p47", "p48", "p49", "p50"], "red",
                     table=2)]
    data = tournament("kostroma", [stage("q", [round_(1, r1 + r1_extra), round_(2, r2)])])
    result = standings(data)
    p12, p06 = result.row("p12"), result.row("p06")
    assert p12 is not None and p06 is not None
    assert float(p12.points) == 4 + 1 + 0 + 1 == 6 and float(p06.points) == 3 + 3 == 6
    assert p12.tiebreaks["extra"] == 2 and p06.tiebreaks["extra"] == 0
    assert p12.rank < p06.rank


def test_tie_break_wins_then_wins_as_don_or_sheriff() -> None:
    # Same points, same extra (none): p04 (sheriff) and p06 (civilian) both won once as red:
    # 3 points, 1 win; the sheriff's win ranks p04 above p06 (wins as don or sheriff).
    result = standings(one_game("red"))
    ranks = {row.player: row.rank for row in result.rows}
    assert ranks["p04"] == 1 and ranks["p06"] == 2
    row = result.row("p04")
    assert row is not None and row.tiebreaks == {"extra": 0, "wins": 1, "don_sheriff_wins": 1}


def test_extra_characters_replace_civilians_once_each() -> None:
    ghost = one_game(seats={7: {"role": "ghost"}, 8: {"role": "thief", "side": "black"}})
    assert problems(ghost) == []
    # The black thief wins with the mafia: 4 points.
    assert points(one_game("black", seats={8: {"role": "thief", "side": "black"}}))["p08"] == 4
    two_ghosts = one_game(seats={7: {"role": "ghost"}, 8: {"role": "ghost"}})
    assert problems(two_ghosts) == ["stage q, round 1, table 1: 2 ghosts at the table; kostroma allows at most 1"]
    maniac_ghost = one_game(seats={7: {"role": "ghost", "side": "maniac"}})
    assert problems(maniac_ghost) == ["stage q, round 1, table 1, seat 7: a ghost plays red or black, not maniac"]


def test_extra_characters_are_kostroma_only() -> None:
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "red", seats={7: {"role": "ghost"}})])])])
    assert problems(data) == [
        "stage q, round 1, table 1: 5 civilians at the table; fiim expects 6",
        "stage q, round 1, table 1: 1 ghost at the table; fiim expects 0",
    ]


def test_default_format_top_ten_to_one_final_game() -> None:
    qualifying = stage("q", [round_(1, [game("kostroma", players(10, start=1 + 10 * t), "red", table=t + 1)
                                        for t in range(2)])])
    result = standings(tournament("kostroma", [qualifying, stage("final", [])]), "q")
    # 14 reds tie on 3 points, the 2 sheriffs first: top 10 by rank is 2 sheriffs + 10 tied at
    # rank 3 — a tie nothing breaks at the cut lets every tied player through: 14 advance.
    assert len(result.advance) == 14


def test_black_means_mafia_and_don_for_missed_nights_and_best_move() -> None:
    # docs/rules/game.md: "Black" means mafia or don. A black-side extra character is neither: with
    # overrides giving kostroma a missed-nights penalty and a best move, the black thief (seat 8)
    # is not penalised, and naming it does not count as naming a black.
    data = one_game("red", mafia_missed_three_nights=True, first_killed=6, best_move=[1, 2, 8],
                    seats={8: {"role": "thief", "side": "black"}})
    data["params"] = {"missed_nights_points": -1, "best_move_civilian": {"2": 1, "3": 2}}
    result = points(data)
    assert result["p01"] == -1 and result["p02"] == -1  # don and mafia
    assert result["p08"] == 0  # the black thief lost, no missed-nights penalty
    assert result["p06"] == 3 + 1  # red win + 2 blacks named (the thief does not count)
