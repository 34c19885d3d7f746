"""Structural rules of docs/rules/game.md and tournament.md that hold in every ruleset, with the messages users see."""

from __future__ import annotations

from tests.scoring.build import game, players, problems, round_, stage, tournament

TEN = players(10)
WHERE = "stage q, round 1, table 1"


def one(game_data: dict[str, object], **round_facts: object) -> dict[str, object]:
    return tournament("fiim", [stage("q", [round_(1, [game_data], **round_facts)])], player_ids=players(12))


def test_a_player_appears_at_most_once_per_round() -> None:
    data = one(game("fiim", TEN, "red"), byes=["p03"], absent=["p11", "p11"])
    assert problems(data) == [
        "stage q, round 1: player p03 appears twice in the round (table 1 seat 3 and a bye)",
        "stage q, round 1: player p11 appears twice in the round (absent and absent)",
    ]
    same_table = game("fiim", [*TEN[:9], "p01"], "red")
    assert f"{WHERE}: player p01 sits at the table 2 times" in problems(one(same_table))


def test_unknown_players_are_named() -> None:
    data = one(game("fiim", [*TEN[:9], "zz"], "red"), penalties=[{"player": "yy", "points": -1}])
    assert problems(data) == [
        f"{WHERE}, seat 10: player zz is not in the file's players",
        "stage q, round 1: penalty: player yy is not in the file's players",
    ]


def test_seats_must_fill_the_table_once_each() -> None:
    data = one(game("fiim", TEN, "red"))
    seats = data["stages"][0]["rounds"][0]["games"][0]["seats"]  # type: ignore[index]
    seats[9]["seat"] = 1
    found = problems(data)
    assert f"{WHERE}: seat 1 is given 2 times" in found
    del seats[9]
    assert problems(data)[0] == f"{WHERE}: 9 seats at the table; fiim plays at tables of 10"


def test_side_must_match_the_role() -> None:
    data = one(game("fiim", TEN, "red", seats={4: {"side": "black"}, 5: {"side": "red"}}))
    assert problems(data) == [f"{WHERE}, seat 4: a sheriff plays red, not black"]


def test_winner_must_be_a_side_at_the_table() -> None:
    assert problems(one(game("fiim", TEN, "maniac"))) == [
        f"{WHERE}: winner maniac: nobody at the table plays that side"]


def test_best_move_rules() -> None:
    assert problems(one(game("fiim", TEN, "red", best_move=[1, 2]))) == [
        f"{WHERE}: best_move is given but nobody was killed in the first night"]
    assert problems(one(game("fiim", TEN, "red", first_killed=5, best_move=[5, 1]))) == [
        f"{WHERE}, seat 5: best_move: the first-killed player cannot name their own seat"]
    assert problems(one(game("fiim", TEN, "red", first_killed=5, best_move=[1, 12]))) == [
        f"{WHERE}: best_move: seat 12 is not at the table"]


def test_duplicate_ids() -> None:
    data = tournament("fiim", [stage("q", []), stage("q", [round_(1, []), round_(1, [])])],
                      player_ids=["a", "a"], teams=[{"id": "t", "name": "T"}])
    data["players"][0]["team"] = "nope"
    assert problems(data) == [
        "players: player ids: a is listed 2 times",
        "player a: team nope is not in the file's teams",
        "stage q: a second stage with this id",
        "stage q, round 1: a second round with this number in the stage",
    ]


def test_stage_lists_name_known_players() -> None:
    data = tournament("fiim", [stage("q", [], players=["p01", "ghost"], lots=["p01", "p01"])],
                      player_ids=["p01"])
    assert problems(data) == ["stage q: players: player ghost is not in the file's players",
                              "stage q: lots: p01 is listed 2 times"]


def test_subjective_marks_only_where_the_ruleset_has_them() -> None:
    assert problems(one(game("fiim", TEN, "red", seats={3: {"subjective": 1}}))) == [
        f"{WHERE}, seat 3: fiim has no subjective marks (subjective must be 0)"]


def test_protests_name_a_seat_at_the_table() -> None:
    data = one(game("fiim", TEN, "red", protests=[{"seat": 11, "text": "late vote"}]))
    assert problems(data) == [f"{WHERE}: protest: seat 11 is not at the table"]


def test_roles_of_a_game_without_result_are_not_yet_checked() -> None:
    # A published seating exported before the game is played: everyone "civilian", no winner.
    pending = game("fiim", TEN, None, seats={n: {"role": "civilian"} for n in (1, 2, 3, 4)})
    assert problems(one(pending)) == []
    played = game("fiim", TEN, "red", seats={n: {"role": "civilian"} for n in (1, 2, 3, 4)})
    assert problems(one(played)) == [
        f"{WHERE}: 10 civilians at the table; fiim expects 6",
        f"{WHERE}: 0 sheriffs at the table; fiim expects 1",
        f"{WHERE}: 0 mafia at the table; fiim expects 2",
        f"{WHERE}: 0 dons at the table; fiim expects 1",
    ]
