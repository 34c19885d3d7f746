"""The MWT converter (docs/formats/mwt.md): a game document with every field MWT's code defines reads with each
seat, role, foul, check, shot, vote and leave, and exports the same facts back; the four shared examples round-trip
to ``kept`` with what is lost named; a seating goes through both the game document and MWT's seating text; bad
documents are refused naming the place; MWT's leaves and checks become our game log with its derived facts."""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio
from scoring.filejson import dumps
from scoring.formats import FormatError
from scoring.formats.mwt import MWT
from scoring.formats.mwt.codes import player_id
from scoring.formats.mwt.seating import export_seating
from scoring.model import Game, LogEvent, Penalty, Role, Side, Tournament

DATA = Path(__file__).resolve().parents[1] / "data"
DOCUMENTS = Path(__file__).resolve().parent / "documents" / "mwt"
PLATFORM = MWT()
REQUIRED = ("every game with a result: tournament_id, result.start_time and result.end_time (MWT requires them; "
            "our file holds no MWT tournament id nor game times: add them before posting)")


def example(ruleset: str) -> Tournament:
    return fileio.loads((DATA / f"{ruleset}-example.json").read_text())


def document() -> dict[str, Any]:
    return dict(json.loads((DOCUMENTS / "game.json").read_text()))


def text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False)


def refused(doc: str, ruleset: str = "fiim") -> str:
    with pytest.raises(FormatError) as error:
        PLATFORM.read(doc, ruleset=ruleset)
    return str(error.value)


def only_game(t: Tournament) -> Game:
    [stage] = t.stages
    [round_] = stage.rounds
    [game] = round_.games
    return game


# -- (a) the document built from MWT's definitions -------------------------------------------------------------


def test_the_game_document_reads_with_every_fact() -> None:
    imported = PLATFORM.read((DOCUMENTS / "game.json").read_text())
    t = imported.tournament
    fileio.loads(dumps(t))
    assert t.ruleset == "fiim"
    assert [(p.id, p.name, p.nickname) for p in t.players][:2] == [("mwt-101", "Alpha", "Alpha"),
                                                                   ("mwt-102", "Bravo", "Bravo")]
    assert t.players[9].name == "Гость" and t.players[9].id == player_id(None, "Гость")
    assert [s.id for s in t.stages] == ["part-1"] and t.stages[0].rounds[0].number == 1
    game = only_game(t)
    assert game.table == 1 and game.winner is Side.RED and game.judge == "mwt-5001"
    assert [s.role for s in game.seats] == [Role.CIVILIAN, Role.MAFIA, Role.SHERIFF, Role.CIVILIAN, Role.DON,
                                            Role.CIVILIAN, Role.MAFIA, Role.CIVILIAN, Role.CIVILIAN, Role.CIVILIAN]
    assert [s.fouls for s in game.seats] == [1, 0, 0, 0, 0, 2, 4, 0, 0, 0]
    assert [s.extra for s in game.seats] == [0, 0, 1, 0, Fraction(1, 2), 0, 0, 0, 0, 0]
    assert [s.seat for s in game.seats if s.removed] == [7]
    assert game.first_killed == 4 and game.best_move == (2, 5, 7)
    assert game.notes == "7. four fouls"
    assert game.log == (
        LogEvent("votes", 1, 9, 6), LogEvent("voted_out", 1, 9),
        LogEvent("killed", 2, 4), LogEvent("don_check", 2, 3), LogEvent("sheriff_check", 2, 2),
        LogEvent("votes", 3, 2, 5), LogEvent("voted_out", 3, 2),
        LogEvent("killed", 4, 3), LogEvent("don_check", 4, 1), LogEvent("sheriff_check", 4, 7),
        LogEvent("votes", 5, 5, 4), LogEvent("voted_out", 5, 5), LogEvent("removed", 5, 7))
    assert [s.days_survived for s in game.seats] == [3, 2, 2, 1, 3, 3, 3, 3, 1, 3]
    assert game.mafia_missed_three_nights is False
    assert t.stages[0].rounds[0].penalties == (Penalty("mwt-107", Fraction(-1, 2)),)
    assert imported.dropped == (
        "success[0].tournament_id 2898: the MWT tournament id (our file keeps no platform's tournament id)",
        "success[0].result.is_replacement: seats 10 replaced the seated player (our model has no such mark)",
        "success[0].result.start_time '2024-07-14 12:00:00': the game's time (our model keeps none)",
        "success[0].result.end_time '2024-07-14 12:55:00': the game's time (our model keeps none)",
    )


def test_the_game_document_exports_back_the_same_facts() -> None:
    original = document()
    t = PLATFORM.read(text(original)).tournament
    exported = PLATFORM.export(t)
    assert exported.lost == (REQUIRED,)
    [game] = json.loads(exported.document)["success"]
    [source] = original["success"]
    for key in ("part_number", "table_number", "session_number", "referee_user_id", "protocol"):
        assert game[key] == source[key], key
    kept = {"start_time", "end_time", "is_replacement", "game_autobonus"}  # dropped on reading, said so
    assert set(source["result"]) - set(game["result"]) == kept
    for key in set(source["result"]) - kept:
        assert game["result"][key] == source["result"][key], key
    assert PLATFORM.read(exported.document).tournament == t


def test_the_seating_text_reads_and_writes_back() -> None:
    written = (DOCUMENTS / "seating.txt").read_text()
    t = PLATFORM.read(written).tournament
    fileio.loads(dumps(t))
    [stage] = t.stages
    assert [r.number for r in stage.rounds] == [1, 2]
    first = stage.rounds[0].games
    assert [g.table for g in first] == [1, 2]
    assert [s.player for s in first[1].seats][:3] == ["mwt-n-Kilo", "mwt-n-Lima", "mwt-n-Mike"]
    assert all(g.winner is None for r in stage.rounds for g in r.games)
    back = export_seating(t).document
    assert [[cell.strip() for cell in line.split(",")] for line in back.splitlines()] == \
        [[cell.strip() for cell in line.split(",")] for line in written.splitlines()]


# -- (b) the four shared examples ------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_example_reads_back_as_kept(ruleset: str) -> None:
    ours = example(ruleset)
    exported = PLATFORM.export(ours)
    back = PLATFORM.read(exported.document, ruleset=ruleset).tournament
    assert back == PLATFORM.kept(ours)
    assert fileio.loads(dumps(back)) == back


def test_fiim_loses_what_mwt_has_no_place_for() -> None:
    ours = example("fiim")
    lost = PLATFORM.export(ours).lost
    for line in (
        "stage qualifying: id, kind, players, lots (mwt numbers parts only: part 1)",
        "stage qualifying, round 1: seating method balanced (mwt has none)",
        "stage qualifying, round 1: absent p023 (mwt has no absences)",
        "stage qualifying, round 1: the reason 'discipline' of p002's penalty (mwt keeps the points)",
        "stage qualifying, round 1, table 7: best player at seats 10 (mwt has none)",
        "stage qualifying, round 1, table 2: the mafia's three missed nights as written "
        "(mwt derives them from the leaves)",
        "player p002: name 'Vasiliev Mikhail #2', nickname 'nick2' (mwt holds the nickname only: 'nick2')",
        "player p002: id (mwt knows a player by an MWT user id or the nickname: mwt-n-nick2)",
    ):
        assert line in lost
    kept = PLATFORM.kept(ours)
    assert [s.id for s in kept.stages] == ["part-1", "part-2", "part-3"]
    assert kept.stages[0].rounds[0].penalties == (Penalty("mwt-n-nick2", Fraction(-1, 2)),)
    assert kept.stages[0].rounds[0].games[1].mafia_missed_three_nights is False
    assert not any(s.best for st in kept.stages for r in st.rounds for g in r.games for s in g.seats)


def test_tomsk_tables_of_twelve_are_lost_whole() -> None:
    ours = example("tomsk")
    exported = PLATFORM.export(ours)
    assert "stage qualifying, round 1: tables 1, 2, 3, 4, 5, 6, 7, 8 (mwt seats ten at a table, seats 1-10; " \
        "these have 12)" in exported.lost
    assert "teams t1, t2, t3, t4, t5, t6 (mwt has no teams)" in exported.lost
    assert json.loads(exported.document) == {"success": []}
    assert PLATFORM.kept(ours) == Tournament(ruleset="tomsk", players=(), stages=())


def test_kostroma_keeps_the_seating_of_a_game_with_a_doctor() -> None:
    ours = example("kostroma")
    lost = PLATFORM.export(ours).lost
    assert "stage qualifying, round 1, table 1: the result (doctor at seat 9: mwt has a red or black win and the " \
        "roles red, black, don, sheriff); the seating is kept" in lost
    game = PLATFORM.kept(ours).stages[0].rounds[0].games[0]
    assert game.winner is None and {s.role for s in game.seats} == {Role.CIVILIAN}
    names = {p.id: p.nickname or p.name for p in ours.players}
    ours_game = ours.stages[0].rounds[0].games[0]
    assert [s.player for s in game.seats] == [player_id(None, names[s.player]) for s in ours_game.seats]


def test_zvezdy_loses_circles_and_byes() -> None:
    lost = PLATFORM.export(example("zvezdy")).lost
    assert "stage qualifying, round 1, table 1: speech circles' marks (mwt has none)" in lost
    assert "stage qualifying, round 1: byes p008, p029, p025, p009, p016, p012, p044 (mwt has no byes)" in lost


# -- (c) a seating only ----------------------------------------------------------------------------------------


def seating_only(t: Tournament) -> Tournament:
    stage = t.stages[0]
    rounds = tuple(dataclasses.replace(r, games=tuple(Game(table=g.table, winner=None, seats=tuple(
        dataclasses.replace(s, role=Role.CIVILIAN, fouls=0, removed=False, extra=Fraction(0), best=False,
                            days_survived=None) for s in g.seats)) for g in r.games), byes=(), absent=(),
        penalties=(), seating=None) for r in stage.rounds[:2])
    return dataclasses.replace(t, stages=(dataclasses.replace(stage, rounds=rounds),), info=None)


def placements(t: Tournament, rename: dict[str, str] | None = None) -> list[tuple[int, int, int, str]]:
    rename = rename or {}
    return sorted((r.number, g.table, s.seat, rename.get(s.player, s.player))
                  for st in t.stages for r in st.rounds for g in r.games for s in g.seats)


def test_a_seating_goes_through_the_game_document_unchanged() -> None:
    ours = seating_only(example("fiim"))
    exported = PLATFORM.export(ours)
    assert all("result" not in game for game in json.loads(exported.document)["success"])
    back = PLATFORM.read(exported.document).tournament
    assert back == PLATFORM.kept(ours)
    names = {p.id: p.nickname or p.name for p in ours.players}
    rename = {p: player_id(None, names[p]) for p in names}
    assert placements(back) == placements(ours, rename)


def test_a_seating_goes_through_mwts_seating_text_unchanged() -> None:
    ours = seating_only(example("fiim"))
    exported = export_seating(ours)
    blocks = exported.document.split("\n\n")
    assert len([b for b in blocks if b.strip()]) == 2 and len(blocks[0].splitlines()) == 10
    assert len(blocks[0].splitlines()[0].split(",")) == 7  # seven tables a round
    back = PLATFORM.read(exported.document).tournament
    names = {p.id: p.nickname or p.name for p in ours.players}
    rename = {p: player_id(None, names[p]) for p in names}
    assert placements(back) == placements(ours, rename)
    assert {p.name for p in back.players} == {names[p] for p in ours.stages[0].participants()
                                              if any(p == s.player for r in ours.stages[0].rounds
                                                     for g in r.games for s in g.seats)}


def test_players_of_one_nickname_stay_apart() -> None:
    ours = seating_only(example("fiim"))
    twins = tuple(dataclasses.replace(p, nickname="twin") if p.id in ("p001", "p003") else p for p in ours.players)
    ours = dataclasses.replace(ours, players=twins)
    back = PLATFORM.read(PLATFORM.export(ours).document).tournament
    assert back == PLATFORM.kept(ours)
    assert {"twin (p001)", "twin (p003)"} <= {p.name for p in back.players}


# -- (d) bad documents -----------------------------------------------------------------------------------------


def game0() -> tuple[dict[str, Any], dict[str, Any]]:
    doc = document()
    return doc, doc["success"][0]


def test_another_platforms_document_is_not_mwts() -> None:
    assert refused('{"format": "mafia-tournament/1", "players": []}').startswith(
        "not a mwt document: it is an object with keys format, players")
    assert refused("[1, 2]").startswith("not a mwt document: it is a JSON list")
    assert refused('{"error": "Unauthenticated."}') == \
        "not a mwt document: an MWT error answer: 'Unauthenticated.'"
    assert "mwt seating, round 1: 1 lines; a round has 10, one a seat (not a mwt document?)" in \
        refused("id,name\n1,Ann\n".replace("\n1", " 1"))


def test_a_truncated_document_names_where_it_breaks() -> None:
    assert refused((DOCUMENTS / "game.json").read_text()[:300]).startswith("not a mwt document: invalid JSON at line")
    assert refused("\n".join((DOCUMENTS / "seating.txt").read_text().splitlines()[:15])) == \
        "mwt seating, round 2: 4 lines; a round has 10, one a seat"


def test_an_unknown_role_code() -> None:
    doc, game = game0()
    game["result"]["player_roles"][3] = "doctor"
    assert refused(text(doc)) == \
        "success[0].result.player_roles[3]: unknown role code \"doctor\" (red, black, don, sheriff)"


def test_seat_eleven() -> None:
    doc, game = game0()
    game["result"]["leaves"][0]["p_num"] = 11
    assert refused(text(doc)) == "success[0].result.leaves[0].p_num: 11 is not a whole number 1..10"
    doc, game = game0()
    game["protocol"].append({"user_id": 111, "nickname": "Kilo"})
    assert refused(text(doc)) == "success[0].protocol: 11 seats; an MWT table has 10"
    doc, game = game0()
    game["result"]["reveal_sheriff"] = [11]
    assert refused(text(doc)) == "success[0].result.reveal_sheriff[0]: 11 is not a whole number 1..10"


def test_the_same_player_twice_in_a_game() -> None:
    doc, game = game0()
    game["protocol"][5] = {"user_id": 102, "nickname": "Bravo"}
    game["result"]["players"][5] = 102
    assert refused(text(doc)) == "success[0].protocol[5]: player mwt-102 is also at seat 2"


def test_the_same_player_at_two_tables_of_a_round() -> None:
    doc, game = game0()
    other = json.loads(json.dumps(game))
    other["table_number"] = 2
    doc["success"].append(other)
    assert "mwt document: stage part-1, round 1, table 2, seat 1:" in refused(text(doc))


def test_a_missing_required_field() -> None:
    doc, game = game0()
    del game["session_number"]
    assert refused(text(doc)) == "success[0].session_number: missing"
    doc, game = game0()
    del game["result"]["player_roles"]
    assert refused(text(doc)) == "success[0].result.player_roles: missing"
    doc, game = game0()
    del game["protocol"], game["result"]
    assert refused(text(doc)) == "success[0].protocol: missing (a game needs its protocol or its result's players)"


def test_unknown_keys_and_other_faults_are_all_named() -> None:
    doc, game = game0()
    game["colour"] = "blue"
    game["result"]["leaves"][1]["weapon"] = "knife"
    game["result"]["result"] = "draw"
    game["result"]["player_fouls"][0] = -1
    problems = refused(text(doc)).splitlines()
    assert "success[0].colour: unknown key" in problems
    assert "success[0].result.leaves[1].weapon: unknown key" in problems
    assert "success[0].result.result: unknown result \"draw\" (red or black)" in problems
    assert "success[0].result.player_fouls[0]: -1 is not a whole number at least 0" in problems


def test_a_protocol_disagreeing_with_the_result() -> None:
    doc, game = game0()
    game["result"]["players"][0] = 999
    assert refused(text(doc)) == "success[0].result.players[0]: 999 differs from the protocol's user_id 101"


def test_a_game_given_twice() -> None:
    doc, game = game0()
    doc["success"].append(json.loads(json.dumps(game)))
    assert refused(text(doc)) == "success[1]: part 1, session 1, table 1 is given twice"


def test_a_seating_text_with_a_player_twice_at_a_table() -> None:
    lines = (DOCUMENTS / "seating.txt").read_text().splitlines()
    lines[1] = " Alpha, Lima"
    assert refused("\n".join(lines)) == "mwt seating, round 1, table 1, seat 2: Alpha also at seat 1"


# -- (e) the game log from MWT's leaves and checks -------------------------------------------------------------


def test_three_nights_without_a_kill_are_derived() -> None:
    doc, game = game0()
    result = game["result"]
    result["leaves"] = [{"leave_type": 1, "votes_count": 7, "nights_before_count": 0, "days_before_count": 1,
                         "p_num": 9}]
    result["reveal_sheriff"] = [2, 5, 7]
    result["reveal_don"] = [None, 3]
    del result["killed_first"], result["best_move_value"], result["best_move"]
    result["penalty_disciplinary"] = [0] * 10
    imported = PLATFORM.read(text(doc))
    played = only_game(imported.tournament)
    assert played.mafia_missed_three_nights is True and played.first_killed is None
    assert LogEvent("don_check", 4, 3) in played.log and LogEvent("sheriff_check", 6, 7) in played.log
    assert [s.days_survived for s in played.seats] == [3] * 8 + [1, 3]
    assert [s.seat for s in played.seats if s.removed] == []


def test_the_first_kill_comes_from_the_leaves_when_not_given() -> None:
    doc, game = game0()
    del game["result"]["killed_first"], game["result"]["best_move_value"], game["result"]["best_move"]
    assert only_game(PLATFORM.read(text(doc)).tournament).first_killed == 4


def test_a_removal_at_no_stated_time_and_a_team_removal() -> None:
    doc, game = game0()
    leaves = game["result"]["leaves"]
    leaves[5] = {"leave_type": 3, "p_num": 7}
    leaves.append({"leave_type": 4, "nights_before_count": 2, "days_before_count": 3, "p_num": 6})
    imported = PLATFORM.read(text(doc))
    played = only_game(imported.tournament)
    assert [s.seat for s in played.seats if s.removed] == [6, 7]
    assert LogEvent("removed", 5, 6) in played.log and not any(e.seat == 7 and e.kind == "removed" for e in played.log)
    assert "success[0].result.leaves[6]: seat 6 disqualified with the team's defeat (ППК), read as a removal" \
        in imported.dropped


def test_a_penalty_is_a_negative_extra() -> None:
    doc, game = game0()
    game["result"]["game_bonus"] = [0] * 10
    game["result"]["penalty"] = [0, 0, 0, 0, 0, 1, 0, 0, 0, 0]
    played = only_game(PLATFORM.read(text(doc), ruleset="zvezdy").tournament)
    assert played.seats[5].extra == -1


def test_our_log_goes_out_as_leaves_and_checks_and_the_rest_is_named() -> None:
    ours = example("fiim")
    stage = ours.stages[1]
    game = stage.rounds[0].games[0]  # a black win, first killed 2
    log = (LogEvent("nominated", 1, 4), LogEvent("votes", 1, 4, 3), LogEvent("votes", 1, 6, 7),
           LogEvent("voted_out", 1, 6), LogEvent("killed", 2, 2), LogEvent("heal", 2, 3),
           LogEvent("sheriff_check", 2, 8), LogEvent("don_check", 2, 4), LogEvent("removed", 3, 5))
    game = dataclasses.replace(game, log=log)
    rounds = (dataclasses.replace(stage.rounds[0], games=(game, *stage.rounds[0].games[1:])), *stage.rounds[1:])
    ours = dataclasses.replace(ours, stages=(ours.stages[0], dataclasses.replace(stage, rounds=rounds),
                                             ours.stages[2]))
    exported = PLATFORM.export(ours)
    assert "stage semifinal, round 1, table 1: log entries beyond mwt's leaves and checks (heal, nominated)" \
        in exported.lost
    [sent] = [g for g in json.loads(exported.document)["success"] if g["part_number"] == 2
              and g["session_number"] == 1 and g["table_number"] == 1]
    assert sent["result"]["reveal_sheriff"] == [8] and sent["result"]["reveal_don"] == [4]
    assert [(leave["leave_type"], leave["p_num"], leave["votes_count"]) for leave in sent["result"]["leaves"]] == \
        [(1, 6, 7), (2, 2, 0), (3, 5, 0)]
    back = PLATFORM.read(exported.document).tournament
    assert back == PLATFORM.kept(ours)
    read = back.stages[1].rounds[0].games[0]
    assert read.log == (LogEvent("votes", 1, 6, 7), LogEvent("voted_out", 1, 6), LogEvent("killed", 2, 2),
                        LogEvent("don_check", 2, 4), LogEvent("sheriff_check", 2, 8), LogEvent("removed", 3, 5))
    assert read.first_killed == 2 and read.seats[4].removed
    assert [s.days_survived for s in read.seats][:6] == [2, 1, 2, 2, 2, 1]


# -- (f) what mafiaratings' code requires, writes or answers beyond the definitions above --------------------------


def test_what_mwt_requires_and_we_cannot_write_is_named() -> None:
    """convert_mwt_game (include/mwt_game.php) refuses a game without tournament_id, start_time or end_time; we
    hold none of them and invent none."""
    exported = PLATFORM.export(example("fiim"))
    assert REQUIRED in exported.lost
    for game in json.loads(exported.document)["success"]:
        assert "tournament_id" not in game
        assert "start_time" not in game.get("result", {}) and "end_time" not in game.get("result", {})
    seating = PLATFORM.export(seating_only(example("fiim")))
    assert REQUIRED not in seating.lost  # a seating is not posted as results


def test_a_best_move_given_as_a_count_is_dropped_not_refused() -> None:
    doc, game = game0()
    game["result"]["best_move_value"] = 2
    imported = PLATFORM.read(text(doc))
    assert only_game(imported.tournament).best_move == ()
    assert "success[0].result.best_move_value 2: a guess count only (no seats: our best move is the seats " \
        "guessed)" in imported.dropped
    doc, game = game0()
    game["result"]["best_move_value"] = "2, 5, 7"
    assert refused(text(doc)) == "success[0].result.best_move_value: not a list of seats nor a guess count"


def test_the_protocol_answers_referee_is_read() -> None:
    doc, game = game0()
    del game["referee_user_id"]
    game["referee"] = {"user_id": 5002, "nickname": "Judge"}
    imported = PLATFORM.read(text(doc))
    assert only_game(imported.tournament).judge == "mwt-5002"
    doc, game = game0()
    game["referee"] = 5001
    imported = PLATFORM.read(text(doc))
    assert only_game(imported.tournament).judge == "mwt-5001"
    assert not any(".referee " in line for line in imported.dropped)
    doc, game = game0()
    game["referee"] = "Judge"
    imported = PLATFORM.read(text(doc))
    assert only_game(imported.tournament).judge == "mwt-5001"
    assert 'success[0].referee "Judge": the protocol\'s referee, not read (referee_user_id names the judge)' \
        in imported.dropped
