"""gomafia.pro's tournament document (docs/formats/gomafia.md): a document built from gomafia-library's DTOs reads
with every seat, role, result, judge and point it holds and exports back the same facts; our four examples round
trip to ``kept`` with ``lost`` naming the rest; a seating stays a seating; broken documents are refused by place."""

from __future__ import annotations

import copy
import dataclasses
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio, gamelog
from scoring.filejson import dumps
from scoring.formats import FormatError, get_platform
from scoring.formats.gomafia.codes import id_from_login
from scoring.model import Game, LogEvent, Role, Side, Tournament

DATA = Path(__file__).resolve().parents[1] / "data"
DOCUMENT = Path(__file__).resolve().parent / "documents" / "gomafia" / "tournament-get.json"
GOMAFIA = get_platform("gomafia")


def example(ruleset: str) -> Tournament:
    return fileio.loads((DATA / f"{ruleset}-example.json").read_text())


def document() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DOCUMENT.read_text())
    return data


def refused(doc: dict[str, Any] | str) -> str:
    text = doc if isinstance(doc, str) else json.dumps(doc, ensure_ascii=False)
    with pytest.raises(FormatError) as error:
        GOMAFIA.read(text)
    return str(error.value)


def facts(doc: dict[str, Any]) -> list[tuple[Any, ...]]:
    """What a document says of its games in the keys we read, in a comparable form."""
    out = []
    for entry in doc["data"]["games"]:
        for table in entry["game"]:
            for seat in table["table"]:
                points = seat.get("points")
                # A seat of a game without a result may have no role: ours then is a civilian, written "red".
                role = seat.get("role") or "red"
                out.append((entry["gameNum"], table["tableNum"], table.get("win"), table.get("referee"),
                            seat["place"], seat.get("id"), seat["login"], role,
                            None if points is None else Fraction(str(points))))
    return sorted(out, key=repr)


# --- (a) the document built from the DTOs -------------------------------------------------------------------


def test_the_document_reads_with_every_seat_role_result_judge_and_point() -> None:
    imported = GOMAFIA.read(DOCUMENT.read_text())
    t = imported.tournament
    fileio.loads(dumps(t))
    assert t.ruleset == "fiim"
    assert (t.info.name, t.info.city, t.info.starts, t.info.ends) == (  # type: ignore[union-attr]
        "Кубок Вясьмы", "Санкт-Петербург", "2025-04-12", "2025-04-13")
    [stage] = t.stages
    assert [r.number for r in stage.rounds] == [1, 2]
    first, second = stage.rounds[0].games
    assert (first.table, first.winner, first.judge) == (1, Side.RED, "Малкав")
    assert (second.table, second.winner, second.judge) == (2, Side.BLACK, "Фред")
    assert [(s.seat, s.player, s.role) for s in first.seats[:5]] == [
        (1, "gomafia-1101", Role.CIVILIAN), (2, "gomafia-1102", Role.MAFIA), (3, "gomafia-1103", Role.CIVILIAN),
        (4, "gomafia-1104", Role.SHERIFF), (5, "gomafia-1105", Role.DON)]
    # fiim gives 2 for a win: 3 is 2 and extra 1 (a winner), 0.5 a loser's extra 0.5.
    assert {s.seat: s.extra for s in first.seats if s.extra} == {4: 1, 5: Fraction(1, 2)}
    assert {s.seat: s.extra for s in second.seats if s.extra} == {8: 1}
    # A seat without a gomafia id is known by its login.
    assert second.seats[9].player == id_from_login("Stereo")
    seating = stage.rounds[1].games[0]
    assert seating.winner is None and all(s.role is Role.CIVILIAN for s in seating.seats)
    assert [s.player for s in seating.seats][:2] == ["gomafia-1201", "gomafia-1101"]
    names = {p.id: p.name for p in t.players}
    assert names["gomafia-1101"] == "Самурай" and names[id_from_login("Заяц")] == "Заяц"  # from tournament_result
    assert imported.dropped == (
        'data.tournament: country "Россия", elo_average "1450.5", id "1918", is_fsm_rating "1", is_hidden_result '
        '"0", main_referee_id "86129", star "2", status "finished", type "personal", user_organizer_id "63218": '
        'not in our model, not read',
        "game 1, table 1: referee_is_paid: the judge's badges, not read",
        "game 1, table 1: elo, eloDelta, isPaid, type of the seats: gomafia's rating and badges, not read",
        "game 1, table 2: elo, eloDelta, isPaid, type of the seats: gomafia's rating and badges, not read",
        "data.tournament_result: 2 players' tournament totals (place, sum, wins, Ci, extra points, first kills ...): "
        "our standings compute them from the games, not read",
    )


def test_the_document_exports_back_the_same_facts() -> None:
    t = GOMAFIA.read(DOCUMENT.read_text()).tournament
    again = GOMAFIA.export(t)
    original = document()
    # The player only in tournament_result is in no game, so not written; nothing else of the games is lost.
    assert again.lost == (f"player {id_from_login('Заяц')}: in no game gomafia holds, so not written at all",)
    assert facts(json.loads(again.document)) == facts(original)
    head = json.loads(again.document)["data"]["tournament"]
    assert head == {key: original["data"]["tournament"][key] for key in ("title", "city", "date_start", "date_end")}
    assert GOMAFIA.read(again.document).tournament == GOMAFIA.kept(t)


def test_unknown_keys_are_named_in_dropped_not_refused() -> None:
    """gomafia-library reads with FAIL_ON_UNKNOWN_PROPERTIES off: the API sends keys its DTOs do not name."""
    doc = document()
    doc["data"]["games"][0]["game"][1]["table"][3]["nickname_color"] = "red"
    doc["data"]["games"][0]["game"][1]["stream"] = "https://example.org"
    dropped = GOMAFIA.read(json.dumps(doc)).dropped
    assert "data.games[0].game[1].table[3]: nickname_color: keys gomafia-library does not define, not read" in dropped
    assert "data.games[0].game[1]: stream: keys gomafia-library does not define, not read" in dropped


def test_points_fiim_cannot_read_as_extra_points_are_named() -> None:
    doc = document()
    doc["data"]["games"][0]["game"][0]["table"][0]["points"] = 2.25  # a best move's 0.25: no fiim extra
    imported = GOMAFIA.read(json.dumps(doc))
    assert imported.tournament.stages[0].rounds[0].games[0].seats[0].extra == 0
    assert ("game 1, table 1, seat 1: points 2.25: fiim gives 2 for the result and no extra points of 0.25 there: "
            "read as 2") in imported.dropped


def test_ids_and_logins() -> None:
    assert id_from_login("Доктор Ливси") == id_from_login("Доктор Ливси")
    assert id_from_login("Доктор Ливси").startswith("name-Doktor-Livsi-")
    assert id_from_login("Ёж") != id_from_login("Еж")
    doc = document()
    doc["data"]["games"][0]["game"][0]["table"][0]["id"] = "1101"  # Jackson reads "1101" as the Int 1101
    assert GOMAFIA.read(json.dumps(doc)).tournament.stages[0].rounds[0].games[0].seats[0].player == "gomafia-1101"


def test_an_id_past_gomafias_int_is_refused_and_not_written() -> None:
    """PlayerDto.id is a Kotlin Int: no gomafia id is past 2147483647."""
    doc = document()
    doc["data"]["games"][0]["game"][0]["table"][0]["id"] = 2147483648
    assert refused(doc) == ("data.games[0].game[0].table[0].id: 2147483648: past gomafia's largest id 2147483647 "
                            "(PlayerDto.id is a 32-bit Int)")
    doc["data"]["games"][0]["game"][0]["table"][0]["id"] = 2147483647
    assert GOMAFIA.read(json.dumps(doc)).tournament.stages[0].rounds[0].games[0].seats[0].player == \
        "gomafia-2147483647"
    ours = GOMAFIA.read(DOCUMENT.read_text()).tournament
    big = "gomafia-99999999999"
    ours = dataclasses.replace(ours, players=tuple(dataclasses.replace(p, id=big) if p.id == "gomafia-1101" else p
                                                   for p in ours.players),
                               stages=tuple(dataclasses.replace(st, rounds=tuple(dataclasses.replace(r, games=tuple(
                                   dataclasses.replace(g, seats=tuple(dataclasses.replace(
                                       seat, player=big if seat.player == "gomafia-1101" else seat.player)
                                       for seat in g.seats)) for g in r.games)) for r in st.rounds))
                                   for st in ours.stages))
    exported = GOMAFIA.export(ours)
    written = json.loads(exported.document)["data"]["games"][0]["game"][0]["table"][0]
    assert (written["id"], written["login"]) == (None, "Самурай")
    assert (f"player {big}: its id, past gomafia's largest (2147483647: PlayerDto.id is a 32-bit Int), written as "
            f"id null with the login, read back as {id_from_login('Самурай')}") in exported.lost
    back = GOMAFIA.read(exported.document).tournament
    assert back == GOMAFIA.kept(ours)
    assert back.stages[0].rounds[0].games[0].seats[0].player == id_from_login("Самурай")


# --- (b) the four examples ----------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_example_reads_back_as_kept(ruleset: str) -> None:
    t = example(ruleset)
    exported = GOMAFIA.export(t)
    back = GOMAFIA.read(exported.document, ruleset=ruleset)
    assert back.tournament == GOMAFIA.kept(t)
    fileio.loads(dumps(back.tournament))


def test_fiim_loses_stages_fouls_best_moves_and_points_parts() -> None:
    t = example("fiim")
    lost = GOMAFIA.export(t).lost
    kept = GOMAFIA.kept(t)
    assert [s.id for s in kept.stages] == ["gomafia"] and len(kept.stages[0].rounds) == 14
    assert ("stages qualifying, semifinal, final: gomafia numbers the games through the tournament (qualifying as "
            "games 1-7; semifinal as games 8-10; final as games 11-14), read back as one stage gomafia") in lost
    assert "stage qualifying, round 1, table 1: fouls 4: 1, 8: 1, 9: 1, 10: 2 (gomafia has no fouls)" in lost
    assert ("stage qualifying, round 1, table 4: first killed 5; best move 2, 4, 10 (gomafia's game has none of "
            "these)") in lost
    assert ("stage qualifying, round 1, table 4: points written as one number a seat (5: 0.25 = result + best move "
            "0.25, read back as result + extra 0)") in lost
    assert "stage qualifying, round 1: absent p023 (gomafia has no absences)" in lost
    assert "stage qualifying, round 1: penalty -0.5 for p002 (gomafia's games hold no penalties)" in lost
    assert any(line.startswith("player ids p001, p002, ") for line in lost)
    assert "player p002: name 'Mikhailov Dmitry #2' (written as the login 'nick2')" in lost or any(
        line.startswith("player p002: name ") for line in lost)
    # What kept removed: fouls, first kills and the best move's points; a loser's extra 0.5 stays.
    game = kept.stages[0].rounds[0].games[3]
    assert all(s.fouls == 0 for s in game.seats) and game.first_killed is None and game.best_move == ()
    assert game.seat_at(5).extra == 0  # type: ignore[union-attr]
    assert game.seat_at(3).extra == Fraction(1, 2)  # type: ignore[union-attr]


def test_tomsk_tables_of_twelve_and_kostroma_doctors_are_left_out() -> None:
    tomsk, kostroma = GOMAFIA.export(example("tomsk")).lost, GOMAFIA.export(example("kostroma")).lost
    assert "stage qualifying, round 1, table 1: left out: seats 11, 12 (gomafia's tables have seats 1-10)" in tomsk
    assert "teams Team 1, Team 2, Team 3, Team 4, Team 5, Team 6: gomafia's tournament has no teams" in tomsk
    assert ("stage qualifying, round 1, table 1: left out: role doctor (gomafia's roles are red, sheriff, mafia and "
            "don)") in kostroma
    for ruleset in ("tomsk", "kostroma"):
        kept = GOMAFIA.kept(example(ruleset))
        assert kept.players == () and all(not r.games for r in kept.stages[0].rounds)


def test_zvezdy_circles_and_hidden_standings_are_lost() -> None:
    lost = GOMAFIA.export(example("zvezdy")).lost
    assert "tournament standings hidden: True (not written)" in lost
    assert ("stage qualifying, round 1, table 1: first killed 10; best move 5, 8, 1; circles 3 (gomafia's game has "
            "none of these)") in lost
    assert ("stage qualifying, round 1: byes p008, p029, p025, p009, p016, p012, p044 (gomafia has no byes)") in lost


# --- (c) a seating ------------------------------------------------------------------------------------------


def seating(t: Tournament) -> Tournament:
    stage = t.stages[0]
    first = stage.rounds[0]
    games = tuple(Game(table=g.table, seats=tuple(dataclasses.replace(s, fouls=0, removed=False, best=False,
                                                                      extra=s.extra * 0, subjective=None,
                                                                      days_survived=None) for s in g.seats),
                       winner=None) for g in first.games)
    return dataclasses.replace(t, stages=(dataclasses.replace(stage, rounds=(dataclasses.replace(
        first, games=games, byes=(), absent=(), penalties=()),)),))


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "zvezdy"])
def test_a_seating_reads_back_as_the_same_seating(ruleset: str) -> None:
    ours = seating(example(ruleset))
    exported = GOMAFIA.export(ours)
    doc = json.loads(exported.document)
    assert all(table["win"] is None and all(s["points"] is None for s in table["table"])
               for entry in doc["data"]["games"] for table in entry["game"])
    back = GOMAFIA.read(exported.document, ruleset=ruleset).tournament
    assert back == GOMAFIA.kept(ours)
    ids = {p.id: p.id for p in ours.players}
    ids.update({p.id: id_from_login(p.nickname or p.name) for p in ours.players})
    assert [[(s.seat, ids[s.player]) for s in g.seats] for g in ours.stages[0].rounds[0].games] == \
        [[(s.seat, s.player) for s in g.seats] for g in back.stages[0].rounds[0].games]
    if ruleset == "kostroma":  # a doctor's card has no gomafia code: a civilian once read back
        assert ("stage qualifying, round 1, table 1: roles 9: doctor (no gomafia role code; read back as "
                "civilians)") in exported.lost


# --- (d) broken documents -----------------------------------------------------------------------------------


def test_another_platforms_document_is_refused() -> None:
    assert refused({"format": "mafia-tournament/1", "players": []}).startswith(
        "not a gomafia document: no data.tournament object and data.games list (top-level keys: format, players)")
    assert refused("[1, 2]").startswith("not a gomafia document: the top level is a list")
    assert refused(dumps(example("fiim"))).startswith("not a gomafia document")


def test_a_truncated_document_is_refused() -> None:
    assert refused(DOCUMENT.read_text()[:300]).startswith("not a gomafia document: invalid JSON at line")


def test_an_unknown_role_code_is_refused_by_place() -> None:
    doc = document()
    doc["data"]["games"][0]["game"][1]["table"][2]["role"] = "doctor"
    assert refused(doc) == ("data.games[0].game[1].table[2].role: unknown role code 'doctor' (gomafia's are red, "
                            "sheriff, mafia, don)")


def test_an_unknown_result_is_refused_by_place() -> None:
    doc = document()
    doc["data"]["games"][0]["game"][0]["win"] = "draw"
    assert refused(doc) == "data.games[0].game[0].win: unknown result 'draw' (gomafia's are mafia, red)"


def test_seat_11_is_refused_by_place() -> None:
    doc = document()
    doc["data"]["games"][0]["game"][0]["table"][9]["place"] = 11
    assert refused(doc) == "data.games[0].game[0].table[9].place: seat 11 (gomafia's tables have seats 1-10)"


def test_a_player_twice_in_a_game_is_refused_by_place() -> None:
    doc = document()
    table = doc["data"]["games"][0]["game"][0]["table"]
    table[6] = dict(table[2], place=7)
    assert refused(doc) == ("data.games[0].game[0].table[6]: player 'Фурия.' (gomafia-1103) twice at the table "
                            "(seats 3 and 7)")
    doc = document()
    doc["data"]["games"][0]["game"][1]["table"][0] = dict(doc["data"]["games"][0]["game"][0]["table"][0], place=1)
    assert refused(doc) == ("data.games[0].game[1].table[0]: player 'Самурай' (gomafia-1101) also at table 1 in "
                            "game 1")


def test_a_missing_required_field_is_refused_by_place() -> None:
    doc = document()
    del doc["data"]["games"][0]["game"][1]["table"][4]["place"]
    del doc["data"]["games"][1]["gameNum"]
    assert refused(doc) == "data.games[0].game[1].table[4].place: missing\ndata.games[1].gameNum: missing"
    doc = document()
    del doc["data"]["games"][0]["game"][0]["table"][0]["role"]
    assert refused(doc) == "data.games[0].game[0].table[0].role: missing in a game with a result"


def test_a_table_our_ruleset_refuses_is_refused_with_the_rule() -> None:
    doc = document()
    doc["data"]["games"][0]["game"][0]["table"][0]["role"] = "mafia"  # three mafia at the table
    text = refused(doc)
    assert text.startswith("the gomafia document is not a valid fiim tournament: ")
    assert "mafia" in text


def test_an_unknown_ruleset_is_refused() -> None:
    with pytest.raises(FormatError, match="unknown ruleset 'nowhere'"):
        GOMAFIA.read(DOCUMENT.read_text(), ruleset="nowhere")


# --- (e) the game log ---------------------------------------------------------------------------------------


def test_gomafia_has_no_game_log_so_a_log_and_what_it_implies_are_lost() -> None:
    """gomafia's GameDto holds no votes, shots or checks: our log, and the first kill and missed nights it implies
    (scoring.gamelog), are named lost and not read back."""
    t = example("fiim")
    stage = t.stages[0]
    game = stage.rounds[0].games[0]
    log = (LogEvent("voted_out", 1, 3), LogEvent("killed", 2, 7), LogEvent("sheriff_check", 2, 1),
           LogEvent("votes", 3, 2, count=6), LogEvent("voted_out", 3, 2))
    logged = dataclasses.replace(game, log=log, first_killed=gamelog.first_killed(log))
    assert logged.first_killed == 7 and gamelog.days_survived(log, [3, 7, 1]) == {3: 1, 7: 1, 1: 2}
    ours = dataclasses.replace(t, stages=(dataclasses.replace(stage, rounds=(dataclasses.replace(
        stage.rounds[0], games=(logged, *stage.rounds[0].games[1:])), *stage.rounds[1:])), *t.stages[1:]))
    lost = GOMAFIA.export(ours).lost
    assert ("stage qualifying, round 1, table 1: first killed 7; judge's log 5 events (gomafia's game has none of "
            "these)") in lost
    back = GOMAFIA.read(GOMAFIA.export(ours).document).tournament.stages[0].rounds[0].games[0]
    assert back.log == () and back.first_killed is None and not back.mafia_missed_three_nights


def test_export_is_a_gomafia_answer() -> None:
    doc = json.loads(GOMAFIA.export(example("fiim")).document)
    assert set(doc) == {"data"} and set(doc["data"]) == {"tournament", "games"}
    entry = doc["data"]["games"][0]
    assert entry["gameNum"] == 1 and entry["game"][0]["tableNum"] == 1
    seat = entry["game"][0]["table"][0]
    assert set(seat) == {"place", "id", "login", "role", "points"}
    assert seat["id"] is None  # our ids are not gomafia's
    assert copy.deepcopy(doc) == doc
