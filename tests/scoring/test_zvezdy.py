"""zvezdy (docs/rules/zvezdy.md): 5-point wins, circle marks, judge's mark, best move, byes, tie-breaks."""

from __future__ import annotations

from typing import Any

from tests.scoring.build import game, players, points, problems, round_, stage, standings, tournament

TEN = players(10)  # p01 don, p02 p03 mafia, p04 sheriff, p05..p10 civilians


def one_game(winner: str = "red", **kwargs: Any) -> dict[str, Any]:
    return tournament("zvezdy", [stage("q", [round_(1, [game("zvezdy", TEN, winner, **kwargs)])])])


def test_win_five_and_circle_marks_whoever_won() -> None:
    # Circle 1: best p05 and p01, worst p06; circle 2: best p05, worst p02 and p03.
    # p05 won: 5 + 1 + 1 = 7; p01 lost: 0 + 1 = 1; p06 won: 5 − 1 = 4; p02 lost: −1.
    result = points(one_game(circles=[{"best": [5, 1], "worst": [6]}, {"best": [5], "worst": [2, 3]}]))
    assert (result["p05"], result["p01"], result["p06"], result["p02"], result["p03"]) == (7, 1, 4, -1, -1)


def test_circle_marks_limits() -> None:
    three_best = one_game(circles=[{"best": [5, 6, 7]}])
    assert problems(three_best) == ["stage q, round 1, table 1: circle 1: 3 players named best; zvezdy allows at "
                                    "most 2"]
    both = one_game(circles=[{}, {"best": [5], "worst": [5]}])
    assert problems(both) == ["stage q, round 1, table 1, seat 5: circle 2: named both best and worst"]
    missing = one_game(circles=[{"best": [11]}])
    assert problems(missing) == ["stage q, round 1, table 1: circle 1: best seat 11 is not at the table"]
    other_ruleset = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "red",
                                                                    circles=[{"best": [5]}])])])])
    assert problems(other_ruleset) == ["stage q, round 1, table 1: circle 1: fiim has no per-circle marks"]


def test_judges_mark_from_minus_two_to_two_in_halves() -> None:
    result = points(one_game(seats={1: {"extra": -2}, 5: {"extra": 1.5}, 6: {"extra": 2}}))
    assert (result["p01"], result["p05"], result["p06"]) == (-2, 6.5, 7)
    assert problems(one_game(seats={5: {"extra": 2.5}})) == [
        "stage q, round 1, table 1, seat 5: a winning player can get from -2 to 2 in steps of 0.5 extra points "
        "under zvezdy"]
    assert problems(one_game(seats={5: {"extra": 0.25}}))  # not a multiple of 0.5


def test_best_move_civilian_two_or_three_sheriff_three_only() -> None:
    assert points(one_game(first_killed=5, best_move=[1, 2, 6]))["p05"] == 5 + 2
    assert points(one_game(first_killed=5, best_move=[1, 2, 3]))["p05"] == 5 + 3
    assert points(one_game(first_killed=4, best_move=[1, 2, 6]))["p04"] == 5
    assert points(one_game(first_killed=4, best_move=[1, 2, 3]))["p04"] == 5 + 3
    assert points(one_game("red", first_killed=2, best_move=[1, 3, 4]))["p02"] == 0


def test_missed_three_nights_city_wins_blacks_lose_three() -> None:
    result = points(one_game("red", mafia_missed_three_nights=True))
    assert [result[p] for p in TEN] == [-3, -3, -3, 5, 5, 5, 5, 5, 5, 5]
    assert problems(one_game("black", mafia_missed_three_nights=True))


def test_removal_costs_three() -> None:
    assert points(one_game("red", seats={5: {"removed": True}}))["p05"] == 5 - 3


def test_bye_gives_three_points_at_most_once_per_tournament() -> None:
    eleven = [*TEN, "p11"]
    r1 = round_(1, [game("zvezdy", TEN, "red")], byes=["p11"])
    r2 = round_(2, [game("zvezdy", ["p11", *TEN[1:]], "black")], byes=["p01"])
    result = points(tournament("zvezdy", [stage("q", [r1, r2])], player_ids=eleven))
    assert result["p11"] == 3 + 5  # bye, then a black win as don
    assert result["p01"] == 0 + 3  # lost as don, then a bye
    r3 = round_(3, [game("zvezdy", TEN, "red")], byes=["p11"])
    assert problems(tournament("zvezdy", [stage("q", [r1, r2, r3])], player_ids=eleven)) == [
        "stage q, round 3: player p11 gets bye number 2; zvezdy allows at most 1 per tournament"]


def test_bye_limit_counts_over_the_whole_tournament() -> None:
    r1 = round_(1, [game("zvezdy", TEN, "red")], byes=["p11"])
    semifinal = stage("s", [round_(1, [game("zvezdy", TEN, "red")], byes=["p11"])])
    data = tournament("zvezdy", [stage("q", [r1]), semifinal], player_ids=[*TEN, "p11"])
    assert problems(data) == ["stage s, round 1: player p11 gets bye number 2; zvezdy allows at most 1 per "
                              "tournament"]


def tie_tournament(second_winner: str) -> dict[str, Any]:
    """Two rounds at one table, the same seats: red wins round 1, ``second_winner`` round 2."""
    r1 = round_(1, [game("zvezdy", TEN, "red")])
    r2 = round_(2, [game("zvezdy", TEN, second_winner)])
    return tournament("zvezdy", [stage("q", [r1, r2])])


def test_tie_break_chain_switches_on_the_black_red_tally() -> None:
    # Two games, red won one and black one: black won at least as many as red → the red chain.
    result = standings(tie_tournament("black"))
    assert result.chain == ("red_points", "sheriff_average", "head_to_head")
    # Red won both: black won fewer → the black chain.
    result = standings(tie_tournament("red"))
    assert result.chain == ("black_points", "don_average", "head_to_head")


def test_red_chain_points_as_red_then_sheriff_average() -> None:
    # Round 1 (red wins): p04 sheriff, p05 civilian: 5 each. Round 2 (black wins) with p04 and
    # p05 as mafia: 5 each. Both 10 points; points as red 5 each; average as sheriff: p04 5,
    # p05 never sheriff (0) → p04 above p05.
    r1 = round_(1, [game("zvezdy", TEN, "red")])
    r2 = round_(2, [game("zvezdy", ["p01", "p04", "p05", "p02", "p03", *TEN[5:]], "black")])
    result = standings(tournament("zvezdy", [stage("q", [r1, r2])]))
    p04, p05 = result.row("p04"), result.row("p05")
    assert p04 is not None and p05 is not None
    assert p04.points == p05.points == 10
    assert p04.tiebreaks["red_points"] == p05.tiebreaks["red_points"] == 5
    assert p04.tiebreaks["sheriff_average"] == 5 and p05.tiebreaks["sheriff_average"] == 0
    assert p04.rank < p05.rank


def test_black_chain_points_as_black_then_don_average() -> None:
    # Red wins rounds 1 and 2, black round 3: black won fewer → the black chain.
    # p02: mafia in round 1 (0), civilian in round 2 (5), don in round 3 (5) = 10.
    # p03: mafia in round 1 (0), civilian in round 2 (5), mafia in round 3 (5) = 10.
    # Points as black: 5 each. Average as don: p02 5 / 1 game = 5, p03 never don = 0 → p02 above.
    r1 = round_(1, [game("zvezdy", TEN, "red")])
    r2 = round_(2, [game("zvezdy", ["p01", "p06", "p07", "p08", "p09", "p02", "p03", "p04", "p05", "p10"], "red")])
    r3 = round_(3, [game("zvezdy", ["p02", "p01", "p03", *TEN[3:]], "black")])
    result = standings(tournament("zvezdy", [stage("q", [r1, r2, r3])]))
    assert result.chain == ("black_points", "don_average", "head_to_head")
    p02, p03 = result.row("p02"), result.row("p03")
    assert p02 is not None and p03 is not None
    assert p02.points == p03.points == 10
    assert p02.tiebreaks["black_points"] == p03.tiebreaks["black_points"] == 5
    assert p02.tiebreaks["don_average"] == 5 and p03.tiebreaks["don_average"] == 0
    assert p02.rank < p03.rank


def test_head_to_head_counts_only_games_with_another_member_of_the_tied_group() -> None:
    # Black wins every game (the red chain). p05 and q06 are losing civilians throughout.
    # Round 1, apart: p05 gets a best mark (+1), q06 a best mark (+1).
    # Round 2, together: p05 gets a worst mark and a best mark (−1 + 1 = 0), q06 nothing.
    table_a, table_b = TEN, players(10, prefix="q")
    r1 = round_(1, [game("zvezdy", table_a, "black", circles=[{"best": [5]}]),
                    game("zvezdy", table_b, "black", table=2, circles=[{"best": [6]}])])
    mixed = ["q01", "q02", "q03", "q04", "p05", "q06", "p07", "p08", "p09", "p10"]
    rest = ["p01", "p02", "p03", "p04", "q05", "p06", "q07", "q08", "q09", "q10"]
    r2 = round_(2, [game("zvezdy", mixed, "black", circles=[{"worst": [5]}, {"best": [5]}]),
                    game("zvezdy", rest, "black", table=2)])
    result = standings(tournament("zvezdy", [stage("q", [r1, r2])]))
    p05, q06 = result.row("p05"), result.row("q06")
    assert p05 is not None and q06 is not None
    # p05: +1 (round 1) − 1 + 1 (round 2) = 1; q06: +1 (round 1) + 0 = 1. Points as red: 1 each;
    # never sheriff: 0 each. Head-to-head counts round 2 only (where they met): p05 0, q06 0 —
    # still tied, so they share the rank.
    assert p05.points == q06.points == 1
    assert p05.tiebreaks["head_to_head"] == 0 and q06.tiebreaks["head_to_head"] == 0
    assert p05.rank == q06.rank


def test_head_to_head_breaks_the_tie_when_the_shared_game_differs() -> None:
    # p05 and q06 meet in round 2: p05 gets a best mark there (+1), q06 nothing; in round 1,
    # apart, q06 got +1 and p05 nothing. Both total 1, both civilians only: head-to-head
    # (round 2 only) is p05 1, q06 0 → p05 above.
    r1 = round_(1, [game("zvezdy", TEN, "black"),
                    game("zvezdy", players(10, prefix="q"), "black", table=2, circles=[{"best": [6]}])])
    mixed = ["q01", "q02", "q03", "q04", "p05", "q06", "p07", "p08", "p09", "p10"]
    rest = ["p01", "p02", "p03", "p04", "q05", "p06", "q07", "q08", "q09", "q10"]
    r2 = round_(2, [game("zvezdy", mixed, "black", circles=[{"best": [5]}]),
                    game("zvezdy", rest, "black", table=2)])
    result = standings(tournament("zvezdy", [stage("q", [r1, r2])]))
    p05, q06 = result.row("p05"), result.row("q06")
    assert p05 is not None and q06 is not None
    assert p05.points == q06.points == 1
    assert p05.tiebreaks["head_to_head"] == 1 and q06.tiebreaks["head_to_head"] == 0
    assert p05.rank < q06.rank
    # Players never tied at that step carry no head-to-head value.
    top = result.rows[0]
    assert top.tiebreaks["head_to_head"] is None or len([r for r in result.rows if r.rank == top.rank]) > 1


def test_default_format_and_hidden_standings() -> None:
    from scoring.model import StageKind
    from scoring.rulesets import get_ruleset

    ruleset = get_ruleset("zvezdy")()
    qualifying = ruleset.stage_format(StageKind.QUALIFYING)
    assert qualifying.rounds == 8 and qualifying.advance == ("top", 20)
    assert [qualifying.seating_for(n).value for n in (1, 2, 3, 8)] == ["random", "random", "swiss_zvezdy",
                                                                       "swiss_zvezdy"]
    assert ruleset.standings_hidden_by_default
