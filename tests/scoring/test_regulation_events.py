"""The regulations' own events apart from the remarks (docs/rules/game.md, "Warnings and awarded wins"): verbal
warnings (kostroma annex 1.2, 3; zvezdy "ЗАМЕЧАНИЯ В ИГРЕ"), the win awarded to the other side (fiim's "monsters"
and the judge's decision, zvezdy's removed player who speaks), for all four regulations, and in the file."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring import fileio
from scoring.model import AwardedWin
from tests.scoring.build import game, players, points, problems, round_, stage, tournament

SIZE = {"tomsk": 12, "kostroma": 10, "fiim": 10, "zvezdy": 10}
WHERE = "stage q, round 1, table 1"


def one_game(ruleset: str, winner: str | None = "red", **kwargs: Any) -> dict[str, Any]:
    return tournament(ruleset, [stage("q", [round_(1, [game(ruleset, players(SIZE[ruleset]), winner, **kwargs)])])])


@pytest.mark.parametrize("ruleset", ["kostroma", "zvezdy"])
def test_a_verbal_warning_is_recorded_and_scores_nothing(ruleset: str) -> None:
    warned = one_game(ruleset, seats={6: {"warnings": 3}, 7: {"warnings": 1, "fouls": 2}})
    assert problems(warned) == []
    seat = fileio.load(warned).stages[0].rounds[0].games[0].seats[5]
    assert seat.warnings == 3 and seat.fouls == 0 and not seat.removed  # no number of warnings makes a remark
    assert points(warned) == points(one_game(ruleset, seats={7: {"fouls": 2}}))


@pytest.mark.parametrize("ruleset", ["tomsk", "fiim"])
def test_a_regulation_without_verbal_warnings_refuses_them_naming_the_seat(ruleset: str) -> None:
    name = {"tomsk": "tomsk", "fiim": "fiim"}[ruleset]
    assert problems(one_game(ruleset, seats={3: {"warnings": 1}})) == [
        f"{WHERE}, seat 3: {name} has no verbal warnings apart from remarks (warnings must be 0)"]


def test_fiim_monsters_award_the_win_to_the_other_side() -> None:
    # seats 2 and 3 (mafia) earned remarks on purpose to leave the table: the city wins, 2 points each as any win
    awarded = one_game("fiim", "red", awarded={"reason": "monsters", "seats": [2, 3]})
    assert problems(awarded) == []
    assert fileio.load(awarded).stages[0].rounds[0].games[0].awarded == AwardedWin("monsters", (2, 3))
    result = points(awarded)
    assert (result["p05"], result["p02"]) == (2, 0)
    assert problems(one_game("fiim", "black", awarded={"reason": "monsters", "seats": [2]})) == [
        f"{WHERE}: awarded: the win goes to the other side, not to black"]
    assert problems(one_game("fiim", "red", awarded={"reason": "monsters", "seats": [2, 5]})) == [
        f"{WHERE}: awarded: the seats named play different sides"]
    assert problems(one_game("fiim", "red", awarded={"reason": "monsters"})) == [
        f"{WHERE}: awarded: name the seats that caused it"]
    assert problems(one_game("fiim", None, awarded={"reason": "monsters", "seats": [2]})) == [
        f"{WHERE}: awarded: a game whose win is awarded needs its winner"]
    assert problems(one_game("fiim", "red", awarded={"reason": "monsters", "seats": [11]})) == [
        f"{WHERE}: awarded: seat 11 is not at the table"]


def test_fiim_judge_awards_a_disputed_result_to_either_side_naming_no_seat() -> None:
    for winner in ("red", "black"):
        assert problems(one_game("fiim", winner, awarded={"reason": "disputed"})) == []
    assert problems(one_game("fiim", "red", awarded={"reason": "disputed", "seats": [2]})) == [
        f"{WHERE}: awarded: the judge's decision names no seat"]


def test_zvezdy_a_removed_player_who_speaks_gives_the_other_side_the_win() -> None:
    # seat 5 (civilian) removed (−3) speaks after the removal: the mafia wins, 5 points each
    awarded = one_game("zvezdy", "black", seats={5: {"removed": True}},
                       awarded={"reason": "removed_spoke", "seats": [5]})
    assert problems(awarded) == []
    result = points(awarded)
    assert (result["p01"], result["p05"], result["p06"]) == (5, -3, 0)
    assert problems(one_game("zvezdy", "black", awarded={"reason": "removed_spoke", "seats": [5]})) == [
        f"{WHERE}, seat 5: awarded: the player was not removed from the table"]
    four_fouls = one_game("zvezdy", "black", seats={5: {"fouls": 4}}, awarded={"reason": "removed_spoke",
                                                                              "seats": [5]})
    assert problems(four_fouls) == []  # the 4th remark removes (its list of removals)
    assert problems(one_game("zvezdy", "black", seats={5: {"removed": True}, 6: {"removed": True}},
                             awarded={"reason": "removed_spoke", "seats": [5, 6]})) == [
        f"{WHERE}: awarded: name the one removed player who spoke"]


@pytest.mark.parametrize(("ruleset", "reason"), [("tomsk", "monsters"), ("kostroma", "removed_spoke"),
                                                 ("zvezdy", "monsters"), ("fiim", "removed_spoke")])
def test_a_reason_the_regulation_does_not_name_is_refused(ruleset: str, reason: str) -> None:
    assert problems(one_game(ruleset, "red", awarded={"reason": reason, "seats": [2]})) == [
        f"{WHERE}: awarded: {reason} is not a reason {ruleset} awards a win for"]


EVENTS = {
    "tomsk": {},
    "kostroma": {"seats": {6: {"warnings": 2}, 7: {"warnings": 1}}},
    "fiim": {"awarded": {"reason": "monsters", "seats": [1, 3]}},
    "zvezdy": {"seats": {5: {"removed": True, "warnings": 1}}, "awarded": {"reason": "removed_spoke", "seats": [5]}},
}


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_file_round_trips_the_events_and_leaves_them_out_when_unused(ruleset: str) -> None:
    winner = "black" if ruleset == "zvezdy" else "red"
    data = one_game(ruleset, winner, **EVENTS[ruleset])
    dumped = fileio.dump(fileio.load(data))
    assert fileio.dump(fileio.load(dumped)) == dumped
    text = json.dumps(dumped)
    assert ("warnings" in text) == (ruleset in ("kostroma", "zvezdy"))
    assert ("awarded" in text) == (ruleset in ("fiim", "zvezdy"))
    plain = fileio.dump(fileio.load(one_game(ruleset, winner)))
    assert "warnings" not in json.dumps(plain) and "awarded" not in json.dumps(plain)  # older files stay as they were


def test_the_schema_refuses_bad_values_naming_the_place() -> None:
    assert problems(one_game("kostroma", seats={4: {"warnings": -1}})) == [
        f"{WHERE}, seat 4: warnings: -1 is less than the minimum of 0"]
    assert problems(one_game("fiim", awarded={"reason": "monsters", "seats": [2], "why": "x"})) == [
        f"{WHERE}: awarded: Additional properties are not allowed ('why' was unexpected)"]
    assert problems(one_game("fiim", awarded={"reason": ""})) == [f"{WHERE}: reason: '' should be non-empty"]
