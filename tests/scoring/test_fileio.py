"""The tournament file: schema, every problem named with its place, load/dump without loss."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from scoring import fileio
from scoring.errors import InvalidTournament
from tests.scoring.build import game, players, problems, round_, stage, tournament

EXAMPLES = Path(__file__).resolve().parents[2] / "tests" / "scoring" / "data"
SHARED = Path(__file__).resolve().parents[3] / "shared"
TEN = players(10)


def example_files() -> list[Path]:
    return sorted(EXAMPLES.glob("*.json"))


def test_the_packaged_schema_is_the_shared_contract() -> None:
    shared = SHARED / "schema" / "tournament.schema.json"
    if not shared.exists():
        pytest.skip("no shared/ beside the repository")
    packaged = Path(fileio.__file__).parent / "schema" / "tournament.schema.json"
    # The same schema but for three additions, as the contract allows ("change only by adding"): the top-level
    # description points at the repository's docs/rules/, and the values no decimal writes exactly (a penalty of
    # 1/15) may be strings ("1/15", "0.25") where the shared schema says "number": ``$defs/exact``. Undo the
    # additions and the rest is the shared schema exactly.
    mine, theirs = json.loads(packaged.read_text()), json.loads(shared.read_text())
    assert mine["$defs"].pop("exact")["oneOf"][0] == {"type": "number"}
    seat = mine["$defs"]["seat"]["properties"]
    penalty = mine["$defs"]["round"]["properties"]["penalties"]["items"]["properties"]
    for where, name in ((seat, "extra"), (seat, "subjective"), (penalty, "points")):
        assert where[name].pop("$ref") == "#/$defs/exact"
        where[name]["type"] = "number"
    # ... and the judge's game log, an optional key of a game
    assert mine["$defs"]["game"]["properties"].pop("log")["type"] == "array"
    # ... and the regulations' own events, optional keys: a seat's verbal warnings, a game's awarded win
    assert seat.pop("warnings")["type"] == "integer"
    assert mine["$defs"]["game"]["properties"].pop("awarded")["required"] == ["reason"]
    # ... and the organizer's choice of the zvezdy draw with the fewest repeated meetings, a round's seating method
    # beside the four the contract names
    assert mine["$defs"]["round"]["properties"]["seating"]["enum"].pop() == "swiss_zvezdy_spread"
    assert {**mine, "description": None} == {**theirs, "description": None}


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.stem)
def test_examples_load_and_round_trip(path: Path) -> None:
    data = json.loads(path.read_text())
    t = fileio.load(data)
    dumped = fileio.dump(t)
    assert fileio.load(dumped) == t
    assert fileio.dump(fileio.load(dumped)) == dumped  # the canonical form is stable


def test_there_are_examples_for_every_ruleset() -> None:
    rulesets = {json.loads(p.read_text())["ruleset"] for p in example_files()}
    assert rulesets == {"tomsk", "kostroma", "fiim", "zvezdy"}


def test_numbers_are_read_exactly() -> None:
    data = tournament("zvezdy", [stage("q", [round_(1, [game("zvezdy", TEN, "red", seats={5: {"extra": 0.5}})],
                                                    penalties=[{"player": "p01", "points": -0.1}])])])
    t = fileio.load(data)
    assert t.stages[0].rounds[0].games[0].seats[4].extra == Fraction(1, 2)
    assert t.stages[0].rounds[0].penalties[0].points == Fraction(-1, 10)
    assert fileio.dump(t)["stages"][0]["rounds"][0]["penalties"][0]["points"] == -0.1


def test_unknown_keys_of_open_objects_are_kept() -> None:
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "red", protests=[
        {"seat": 3, "text": "vote miscounted", "decision": "rejected", "room": "B"}])])])],
        tournament={"name": "Cup", "sponsor": {"name": "X"}})
    dumped = fileio.dump(fileio.load(data))
    assert dumped["tournament"] == {"name": "Cup", "sponsor": {"name": "X"}}
    assert dumped["stages"][0]["rounds"][0]["games"][0]["protests"][0]["room"] == "B"


def test_not_json_is_one_clear_problem() -> None:
    with pytest.raises(InvalidTournament) as error:
        fileio.loads('{"format": ')
    assert str(error.value.problems[0]).startswith("not JSON: Expecting value at line 1")


def test_schema_problems_name_stage_round_table_and_seat() -> None:
    data = tournament("fiim", [stage("q", [round_(3, [game("fiim", TEN, "red", table=2,
                                                           seats={4: {"role": "commissar", "fouls": 5}})])])])
    found = problems(data)
    assert "stage q, round 3, table 2, seat 4: fouls: 5 is greater than the maximum of 4" in found
    assert any(p.startswith("stage q, round 3, table 2, seat 4: role: 'commissar' is not one of") for p in found)


def test_every_problem_is_reported_not_only_the_first() -> None:
    g1 = game("fiim", TEN, "red", seats={1: {"role": "civilian"}, 6: {"extra": 0.5}})
    g2 = game("fiim", players(10, start=11), "maniac", table=2, first_killed=11)
    data = tournament("fiim", [stage("q", [round_(1, [g1, g2])])])
    found = problems(data)
    assert found == [
        "stage q, round 1, table 1: 7 civilians at the table; fiim expects 6",
        "stage q, round 1, table 1: 0 dons at the table; fiim expects 1",
        "stage q, round 1, table 1, seat 6: a winning player can get 0 or 1 extra points under fiim",
        "stage q, round 1, table 2: winner maniac: nobody at the table plays that side",
        "stage q, round 1, table 2: first_killed: seat 11 is not at the table",
    ]


def test_missing_required_and_wrong_format() -> None:
    found = problems({"format": "mafia-tournament/2", "ruleset": "fiim", "players": []})
    assert "'stages' is a required property" in found
    assert any(p.startswith("format: 'mafia-tournament/1' was expected") for p in found)


def test_params_problems_name_the_parameter() -> None:
    data = tournament("fiim", [stage("q", [])], params={"win_point": 2, "removal_points": True})
    assert problems(data) == ["params.win_point: unknown parameter",
                              "params.removal_points: expected a number or a decimal string, got true"]


def test_the_judges_game_log_travels_in_the_file_and_its_seats_are_checked() -> None:
    from scoring.errors import InvalidTournament
    from scoring.model import LogEvent

    log = [{"kind": "nominated", "phase": 1, "seat": 4}, {"kind": "votes", "phase": 1, "seat": 4, "count": 6},
           {"kind": "voted_out", "phase": 1, "seat": 4}, {"kind": "killed", "phase": 2, "seat": 7},
           {"kind": "sheriff_check", "phase": 2, "seat": 2}]
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "red")])])])
    data["stages"][0]["rounds"][0]["games"][0]["log"] = log
    t = fileio.load(data)
    assert t.stages[0].rounds[0].games[0].log[1] == LogEvent("votes", 1, 4, 6)
    assert fileio.dump(t)["stages"][0]["rounds"][0]["games"][0]["log"] == log
    data["stages"][0]["rounds"][0]["games"][0]["log"] = [{"kind": "heal", "phase": 2, "seat": 11}]
    with pytest.raises(InvalidTournament) as refused:
        fileio.load(data)
    assert "table 1: log: seat 11 is not at the table" in str(refused.value)


def test_a_seats_numbers_are_read_exactly_whatever_was_read_before() -> None:
    """``known_fraction`` (the seats' numbers of a file, the stored numbers of the database) reads each distinct value
    once: a boolean is still refused after a 1, and a float, an int and a decimal string of the same value each read
    as that value."""
    from scoring.numbers import known_fraction

    assert known_fraction(1) == 1 and known_fraction(0.5) == Fraction(1, 2) and known_fraction("0.5") == Fraction(1, 2)
    assert known_fraction(0.1) == Fraction(1, 10)  # the decimal the file wrote, not the float's binary value
    assert known_fraction("1/15") == Fraction(1, 15) and known_fraction(Fraction(2, 3)) == Fraction(2, 3)
    with pytest.raises(TypeError):
        known_fraction(True)
    with pytest.raises(TypeError):
        known_fraction([1])
    with pytest.raises(TypeError):
        known_fraction("0,5")
