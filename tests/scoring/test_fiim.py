"""fiim (docs/rules/fiim.md): hand-worked games and small tournaments, the numbers explained inline."""

from __future__ import annotations

from fractions import Fraction

from scoring.metrics import METRICS
from scoring.ranking import rank_players
from scoring.tally import PlayerTally
from tests.scoring.build import game, players, points, problems, round_, stage, standings, tournament

TEN = players(10)  # p01 don, p02 p03 mafia, p04 sheriff, p05..p10 civilians


def one_game(**kwargs: object) -> dict[str, object]:
    winner = kwargs.pop("winner", "red")
    return tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, winner, **kwargs)])])])  # type: ignore[arg-type]


def test_named_best_is_the_judges_naming_not_extra_points() -> None:
    # fiim's regulation, ranking 2: the table's judges name the best; extra points are not a naming
    data = one_game(seats={5: {"extra": 1}, 6: {"best": True}, 7: {"extra": 1, "best": True}})
    rows = {row.player: row for row in standings(data, "q").rows}
    assert [rows[p].tiebreaks["best"] for p in ("p05", "p06", "p07", "p08")] == [0, 1, 1, 0]
    assert rows["p05"].points == 3 and rows["p06"].points == 2  # the extra point is points, not a naming


def test_win_is_two_points_for_every_player_of_the_winning_side() -> None:
    red = points(one_game(winner="red"))
    assert [red[p] for p in TEN] == [0, 0, 0, 2, 2, 2, 2, 2, 2, 2]
    black = points(one_game(winner="black"))
    assert [black[p] for p in TEN] == [2, 2, 2, 0, 0, 0, 0, 0, 0, 0]


def test_best_move_of_the_first_killed_civilian() -> None:
    # p05, a civilian of the winning city, killed first, names seats 1 (don), 2 (mafia) and 6:
    # 2 blacks → +0.25, so 2 + 0.25 = 2.25.
    two = points(one_game(first_killed=5, best_move=[1, 2, 6]))
    assert two["p05"] == 2.25
    # All three blacks → +0.5.
    three = points(one_game(first_killed=5, best_move=[1, 2, 3]))
    assert three["p05"] == 2.5
    # One black → nothing.
    one = points(one_game(first_killed=5, best_move=[1, 6, 7]))
    assert one["p05"] == 2


def test_best_move_of_the_first_killed_sheriff_and_of_a_black() -> None:
    # A sheriff gets +0.25 for 3 blacks only, nothing for 2.
    assert points(one_game(first_killed=4, best_move=[1, 2, 3]))["p04"] == 2.25
    assert points(one_game(first_killed=4, best_move=[1, 2, 5]))["p04"] == 2
    # A black player killed first (possible when the don is shot) gets nothing for a guess.
    assert points(one_game(winner="black", first_killed=2, best_move=[1, 3, 5]))["p02"] == 2


def test_extra_points_winner_gets_one_loser_half() -> None:
    result = points(one_game(seats={6: {"extra": 1}, 1: {"extra": 0.5}}))
    assert result["p06"] == 3  # 2 for the win + 1 extra
    assert result["p01"] == 0.5  # losing don, 0.5 extra


def test_extra_points_limits_are_refused_naming_the_seat() -> None:
    loser_one = problems(one_game(seats={1: {"extra": 1}}))
    assert loser_one == ["stage q, round 1, table 1, seat 1: a losing player can get 0 or 0.5 extra points "
                         "under fiim"]
    winner_half = problems(one_game(seats={6: {"extra": 0.5}}))
    assert winner_half == ["stage q, round 1, table 1, seat 6: a winning player can get 0 or 1 extra points "
                           "under fiim"]
    three = problems(one_game(seats={5: {"extra": 1}, 6: {"extra": 1}, 7: {"extra": 1}}))
    assert three == ["stage q, round 1, table 1: 3 players got extra points; fiim allows at most 2"]


def test_three_missed_nights_means_the_city_won() -> None:
    assert problems(one_game(winner="red", mafia_missed_three_nights=True)) == []
    assert problems(one_game(winner="black", mafia_missed_three_nights=True)) == [
        "stage q, round 1, table 1: the mafia missed three nights, so the city won: winner must be red"]
    # fiim has no points for it: the city simply wins.
    assert points(one_game(winner="red", mafia_missed_three_nights=True))["p01"] == 0


def test_composition_is_one_don_two_mafia_one_sheriff() -> None:
    data = one_game()
    data["stages"][0]["rounds"][0]["games"][0]["seats"][1]["role"] = "don"  # type: ignore[index]
    assert problems(data) == [
        "stage q, round 1, table 1: 1 mafia at the table; fiim expects 2",
        "stage q, round 1, table 1: 2 dons at the table; fiim expects 1",
    ]


def test_absence_costs_two_and_two_absences_make_a_player_ineligible() -> None:
    # p11 misses rounds 2 and 3 of qualifying: −2 each; still ranked, but not eligible.
    others = players(10, start=12)
    rounds = [
        round_(1, [game("fiim", TEN, "red"), game("fiim", [*players(1, start=11), *others[:9]], "black", table=2)]),
        round_(2, [game("fiim", TEN, "red")], absent=["p11"]),
        round_(3, [game("fiim", TEN, "red")], absent=["p11"]),
    ]
    data = tournament("fiim", [stage("q", rounds)])
    result = standings(data)
    row = result.row("p11")
    assert row is not None
    assert float(row.points) == 2 - 2 - 2  # won as don in round 1, then two absences
    assert row.eligible is False
    assert all(r.eligible for r in result.rows if r.player != "p11")


def test_winners_are_the_best_ranked_eligible_players_of_the_final() -> None:
    # Final of one game: the red side wins; p06 also gets 1 extra point and is alone on top.
    final = stage("final", [round_(1, [game("fiim", TEN, "red", seats={6: {"extra": 1}})])], kind="final")
    assert standings(tournament("fiim", [final])).winners == ("p06",)
    # Without extra points the 7 reds tie on points, wins and times named best; the sheriff's
    # win breaks the tie (wins as sheriff come before first kills), so p04 alone wins.
    final = stage("final", [round_(1, [game("fiim", TEN, "red")])], kind="final")
    assert standings(tournament("fiim", [final])).winners == ("p04",)
    # When nothing breaks the tie (no lots drawn), all who share the best rank win: black wins
    # twice, p01 and p02 each once as don and once as mafia (p03 twice as mafia ranks below).
    swapped = ["p02", "p01", *TEN[2:]]
    final = stage("final", [round_(1, [game("fiim", TEN, "black")]), round_(2, [game("fiim", swapped, "black")])])
    result = standings(tournament("fiim", [stage("q", []), final]))
    assert [(row.rank, row.player) for row in result.rows[:3]] == [(1, "p01"), (1, "p02"), (3, "p03")]
    assert result.winners == ("p01", "p02")


def test_ineligible_leader_is_not_a_winner() -> None:
    # p04 leads the final (which resets here, so the −4 of qualifying absences does not count in
    # its points) but missed 2 qualifying rounds, which count for eligibility over the tournament
    # so far: p05..p10, who share the best eligible rank, win instead, and the final ranks p04 after
    # every eligible player, so no output places them above a winner.
    others = players(10, start=11)
    qualifying = stage("q", [
        round_(1, [game("fiim", others, "red")], absent=["p04"]),
        round_(2, [game("fiim", others, "red")], absent=["p04"]),
    ])
    final = stage("final", [round_(1, [game("fiim", TEN, "red", seats={4: {"extra": 1}})])], reset=True)
    result = standings(tournament("fiim", [qualifying, final], player_ids=[*TEN, *others]), "final")
    assert {row.player for row in result.rows if row.rank == 1} == set(TEN[4:])
    last = result.rows[-1]
    assert (last.player, last.rank, last.eligible) == ("p04", 10, False)
    assert max(row.points for row in result.rows) == last.points  # still the most points
    assert set(result.winners or ()) == set(TEN[4:])


def test_tie_break_chain_end_to_end_in_one_game() -> None:
    # Red wins: the 7 reds have 2 points and 1 win each. Then, in chain order:
    # best: p06 is named best (best: true) → 1st; sheriff wins: p04 → 2nd;
    # first kills: p08 was killed first (naming no blacks: no points) → 3rd;
    # lots list p09 → 4th; p05, p07, p10 still tied → all 5th. Blacks: 0 points, tied 8th.
    data = tournament("fiim", [stage("q", [round_(1, [
        game("fiim", TEN, "red", seats={6: {"best": True}}, first_killed=8, best_move=[4, 5])])],
        lots=["p09"])])
    result = standings(data)
    ranks = {row.player: row.rank for row in result.rows}
    assert ranks == {"p06": 1, "p04": 2, "p08": 3, "p09": 4, "p05": 5, "p07": 5, "p10": 5,
                     "p01": 8, "p02": 8, "p03": 8}
    row = result.row("p06")
    assert row is not None
    assert row.tiebreaks == {"wins": 1, "best": 1, "don_wins": 0, "sheriff_wins": 0, "mafia_wins": 0,
                             "first_killed": 0}


def tally(player: str, points: int, wins: int = 0, best: int = 0, don: int = 0, sheriff: int = 0,
          mafia: int = 0, first_killed: int = 0) -> PlayerTally:
    t = PlayerTally(player, game_points=Fraction(points), wins=wins, best=best, first_killed=first_killed)
    t.wins_as.update({"don": don, "sheriff": sheriff, "mafia": mafia})  # type: ignore[dict-item]
    return t


CHAIN = ("wins", "best", "don_wins", "sheriff_wins", "mafia_wins", "first_killed")


def order(*tallies: PlayerTally, lots: tuple[str, ...] = ()) -> list[tuple[int, str]]:
    return rank_players([t.player for t in tallies], {t.player: t for t in tallies}, CHAIN, lots)[0]


def test_each_step_of_the_fiim_chain_decides_only_when_the_earlier_ones_tie() -> None:
    assert "don_wins" in METRICS and "first_killed" in METRICS
    # points decide first, whatever the rest
    assert order(tally("a", 5, wins=0), tally("b", 6))[0] == (1, "b")
    # then wins
    assert order(tally("a", 6, wins=2, best=5), tally("b", 6, wins=3)) == [(1, "b"), (2, "a")]
    # then times named best
    assert order(tally("a", 6, wins=3, best=1, don=3), tally("b", 6, wins=3, best=2)) == [(1, "b"), (2, "a")]
    # then wins as don
    assert order(tally("a", 6, 3, 2, don=0, sheriff=3), tally("b", 6, 3, 2, don=1)) == [(1, "b"), (2, "a")]
    # then wins as sheriff
    assert order(tally("a", 6, 3, 2, 1, sheriff=0, mafia=2), tally("b", 6, 3, 2, 1, sheriff=1)) == [
        (1, "b"), (2, "a")]
    # then wins as mafia
    assert order(tally("a", 6, 3, 2, 1, 1, mafia=0, first_killed=3), tally("b", 6, 3, 2, 1, 1, mafia=1)) == [
        (1, "b"), (2, "a")]
    # then times killed first (more ranks higher)
    assert order(tally("a", 6, 3, 2, 1, 1, 1, first_killed=1), tally("b", 6, 3, 2, 1, 1, 1, first_killed=2)) == [
        (1, "b"), (2, "a")]
    # then lots; unlisted players stay tied and share the rank
    same = [tally(name, 6, 3, 2, 1, 1, 1, 1) for name in ("a", "b", "c", "d")]
    assert order(*same, lots=("c", "a")) == [(1, "c"), (2, "a"), (3, "b"), (3, "d")]


def test_params_override_example_file_rules() -> None:
    # fiim-params-example: 3 players may get extra; winners 0, 0.5 or 1; removal −0.5.
    params = {"extra_max_players": 3, "extra_values_winner": [0, 0.5, 1], "removal_points": "-0.5"}
    data = one_game(seats={5: {"extra": 0.5}, 6: {"extra": 1}, 7: {"extra": 1, "fouls": 4}})
    data["params"] = params
    assert problems(data) == []
    result = points(data)
    assert result["p05"] == 2.5 and result["p06"] == 3
    assert result["p07"] == 2 + 1 - 0.5  # the 4th foul removes the player: −0.5
