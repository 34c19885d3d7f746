"""mafiaratings.com's game JSON (docs/formats/mafiaratings.md): a document built from the repository's definition
reads with every seat, role, warning, death, check, nomination and vote; the shared examples round-trip to
``kept``; bad documents are refused naming the place; a game's deaths give first kill, missed nights and days."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio, gamelog
from scoring.filejson import dumps
from scoring.formats import PLATFORMS, FormatError
from scoring.model import LogEvent, Role, Side, Tournament

DOCUMENT = Path(__file__).parent / "documents" / "mafiaratings" / "tournament-games.json"
DATA = Path(__file__).resolve().parents[1] / "data"
PLATFORM = PLATFORMS["mafiaratings"]


def example(ruleset: str) -> Tournament:
    return fileio.loads((DATA / f"{ruleset}-example.json").read_text())


def document() -> dict[str, Any]:
    return dict(json.loads(DOCUMENT.read_text()))


def refused(doc: Any) -> str:
    text = doc if isinstance(doc, str) else json.dumps(doc)
    with pytest.raises(FormatError) as error:
        PLATFORM.read(text)
    return str(error.value)


def test_the_document_reads_with_every_fact_it_holds() -> None:
    imported = PLATFORM.read(DOCUMENT.read_text())
    t = imported.tournament
    fileio.loads(dumps(t))
    assert [s.id for s in t.stages] == ["event-7927", "event-7928"]
    game = t.stages[0].rounds[0].games[0]
    assert (game.table, game.winner, game.judge, game.notes) == (1, Side.RED, "Judge Ann", "a clean game")
    assert [(s.player, s.role) for s in game.seats][:3] == [
        ("mafiaratings-101", Role.CIVILIAN), ("mafiaratings-102", Role.SHERIFF), ("mafiaratings-103", Role.CIVILIAN)]
    assert [s.role for s in game.seats].count(Role.MAFIA) == 2 and game.seats[8].role is Role.DON
    assert [s.fouls for s in game.seats] == [0, 0, 2, 0, 0, 0, 0, 0, 0, 1]
    assert (game.seats[0].extra, game.seats[0].best) == (1, True)
    assert [s.seat for s in game.seats if s.removed] == [10]
    assert (game.first_killed, game.best_move, game.mafia_missed_three_nights) == (5, (4, 8, 9), False)
    assert game.log == (
        LogEvent("killed", 2, 5), LogEvent("don_check", 2, 2), LogEvent("sheriff_check", 2, 9),
        LogEvent("nominated", 3, 9), LogEvent("nominated", 3, 8),
        LogEvent("votes", 3, 9, 5), LogEvent("votes", 3, 8, 4),
        LogEvent("voted_out", 3, 9), LogEvent("killed", 4, 2), LogEvent("sheriff_check", 4, 8),
        LogEvent("nominated", 5, 8), LogEvent("nominated", 5, 4),
        LogEvent("votes", 5, 8, 3), LogEvent("votes", 5, 4, 3), LogEvent("votes", 5, 8, 3), LogEvent("votes", 5, 4, 3),
        LogEvent("voted_out", 5, 4), LogEvent("voted_out", 5, 8), LogEvent("removed", 5, 10))
    assert gamelog.days_survived(game.log, range(1, 11)) == {1: 3, 2: 2, 3: 3, 4: 3, 5: 1, 6: 3, 7: 3, 8: 3, 9: 2,
                                                            10: 3}
    named = t.stages[0].rounds[0].games[1]
    assert named.winner is Side.BLACK and named.seats[0].player.startswith("mafiaratings-name-")
    assert t.players_by_id()[named.seats[0].player].name == "Kestrel"
    assert named.first_killed == 1 and [s.fouls for s in named.seats][:3] == [0, 2, 1]
    unplayed = t.stages[1].rounds[0].games[0]
    assert unplayed.winner is None and unplayed.seats[2].role is Role.SHERIFF
    assert "games[2].players[3].shooting: the shots (we have none)" in imported.dropped
    assert "games[2].players[5].techFouls: technical fouls (we have none)" in imported.dropped
    assert "games[2].players[1].bonus: the title 'bestMove' (we have no such title)" in imported.dropped
    assert "games[2]: the votes to eliminate all in a split" in imported.dropped


def test_the_document_exports_back_the_same_facts() -> None:
    t = PLATFORM.read(DOCUMENT.read_text()).tournament
    exported = PLATFORM.export(t)
    back = PLATFORM.read(exported.document).tournament
    assert back == PLATFORM.kept(t)
    game, again = t.stages[0].rounds[0].games[0], back.stages[0].rounds[0].games[0]
    assert again.seats == game.seats and again.first_killed == 5 and again.best_move == (4, 8, 9)
    assert again.log == tuple(e for e in game.log if e.kind not in ("nominated", "votes"))
    assert any(line.startswith("stage event-7927, round 1, table 1: log: nominated (phase 3 seat 9")
               for line in exported.lost)
    written = json.loads(exported.document)["games"][0]["players"]
    assert written[1] == {"id": 102, "name": "Basil", "role": "sheriff", "death": {"round": 2, "type": "night"},
                          "don": 1}
    assert written[9]["death"] == {"round": 2, "type": "kickOut"}


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_example_round_trips_to_kept(ruleset: str) -> None:
    ours = example(ruleset)
    exported = PLATFORM.export(ours)
    back = PLATFORM.read(exported.document, ruleset=ruleset).tournament
    assert back == PLATFORM.kept(ours)
    fileio.loads(dumps(back))
    assert "tournament: name, city, dates and the app's extra keys (mafiaratings documents hold games only)" \
        in exported.lost


def test_what_each_example_loses_is_named() -> None:
    tomsk = PLATFORM.export(example("tomsk")).lost
    assert "stage final, round 1, table 1: seats 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 (mafiaratings games have " \
        "seats 1 to 10); the game is not written" in tomsk
    kostroma = PLATFORM.export(example("kostroma")).lost
    assert "stage final, round 1, table 1: doctor at seat 5 (mafiaratings knows civ, sheriff, maf, don only); " \
        "the game is not written" in kostroma
    fiim, kept = PLATFORM.export(example("fiim")).lost, PLATFORM.kept(example("fiim"))
    assert "stage qualifying, round 1, table 1: seats" not in " ".join(fiim)
    assert any("removed (mafiaratings writes a removal with its round" in line for line in fiim)
    assert any("mafia missed three nights: True" in line for line in fiim)
    assert "stage qualifying: its id (read back as event-1, the stage's place)" in fiim
    assert "player p001: its id (read back as " in " ".join(fiim)
    assert not any(s.removed for st in kept.stages for r in st.rounds for g in r.games for s in g.seats)
    zvezdy = PLATFORM.export(example("zvezdy")).lost
    assert "stage qualifying, round 1, table 1: circles (mafiaratings has no speech circles)" in zvezdy
    assert "stage qualifying, round 1: seating method, byes, absences and penalties (mafiaratings has none)" in zvezdy


def test_a_seating_reads_back_as_the_same_seating() -> None:
    ours = example("fiim")
    first = ours.stages[0].rounds[0]
    games = tuple(g.__class__(table=g.table, seats=tuple(s.__class__(seat=s.seat, player=s.player, role=s.role)
                                                         for s in g.seats), winner=None) for g in first.games)
    seating = Tournament(ruleset="fiim", players=ours.players,
                         stages=(ours.stages[0].__class__(id="event-1", rounds=(first.__class__(1, games),)),))
    back = PLATFORM.read(PLATFORM.export(seating).document, ruleset="fiim").tournament
    assert back == PLATFORM.kept(seating)
    assert [[(s.seat, back.players_by_id()[s.player].name) for s in g.seats] for g in back.stages[0].rounds[0].games] \
        == [[(s.seat, ours.players_by_id()[s.player].name) for s in g.seats] for g in games]
    assert all('"winner"' not in json.dumps(g) for g in json.loads(PLATFORM.export(seating).document)["games"])


def test_another_platforms_document_is_refused() -> None:
    imafia = PLATFORMS["imafia"].export(example("fiim")).document
    assert refused(imafia) == "not a mafiaratings document: unknown key(s) 'referees_array' at the top level"
    assert refused([1, 2]) == "not a mafiaratings document: not an object with a 'games' list"
    assert "not a mafiaratings document: games[0] has key(s) 'stage'" in refused({"games": [{"stage": 1}]})


def test_a_truncated_document_is_refused() -> None:
    assert refused(DOCUMENT.read_text()[:200]).startswith("not a mafiaratings document: invalid JSON at line")


def game_edit(path: list[Any], value: Any) -> dict[str, Any]:
    doc = document()
    target: Any = doc["games"][2]
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


def test_bad_games_are_refused_naming_the_place() -> None:
    assert refused(game_edit(["players", 3, "role"], "X")) == "games[2].players[3].role: unknown role code 'X'"
    assert refused(game_edit(["players", 0, "nominating"], [None, 11])) == \
        "games[2].players[0].nominating[1]: seat 11 is not a seat 1 to 10"
    eleven = document()
    eleven["games"][2]["players"].append(copy.deepcopy(eleven["games"][2]["players"][0]))
    assert refused(eleven) == "games[2].players: 11 players (mafiaratings games have exactly 10, seats 1 to 10)"
    twice = game_edit(["players", 6, "id"], 101)
    assert refused(twice) == "games[2].players[6]: 'Grove' sits twice at this table (seats 1 and 7)"
    assert refused(game_edit(["gameNum"], KeyError)) == \
        "games[2].gameNum: missing (a tournament's game names its event, round and table)"
    assert refused(game_edit(["players", 2, "warnings"], 7)) == "games[2].players[2].warnings: 7 is not 0 to 4 warnings"
    assert refused(game_edit(["players", 4, "death", "type"], "eaten")) == \
        "games[2].players[4].death.type: unknown death type 'eaten'"
    assert refused(game_edit(["players", 4, "colour"], "red")) == "games[2].players[4]: unknown key(s) 'colour'"


def test_a_document_against_our_rules_is_refused_with_the_rule() -> None:
    text = refused(game_edit(["players", 0, "role"], "maf"))
    assert text.startswith("the mafiaratings document does not make a valid fiim tournament: stage event-7927")


def deaths_game(deaths: dict[int, dict[str, Any]], winner: str) -> dict[str, Any]:
    roles = ["civ", "civ", "sheriff", "maf", "civ", "civ", "maf", "civ", "don", "civ"]
    players = [{"name": f"Player {n}", "role": roles[n - 1], **({"death": deaths[n]} if n in deaths else {})}
               for n in range(1, 11)]
    return {"games": [{"eventId": 1, "gameNum": 1, "tableNum": 1, "winner": winner, "features": "dut",
                       "players": players}]}


def test_a_games_deaths_give_first_kill_missed_nights_and_days() -> None:
    # Day 1 (round 0): seat 1 voted out; nights 1 to 3 no kill, nobody out by day; day 4 (round 3): 4, 7, 9 out.
    doc = deaths_game({1: {"round": 0, "type": "day"}, 4: {"round": 3, "type": "day"},
                       7: {"round": 3, "type": "day"}, 9: {"round": 3, "type": "day"}}, "civ")
    game = PLATFORM.read(json.dumps(doc)).tournament.stages[0].rounds[0].games[0]
    assert game.first_killed is None and game.mafia_missed_three_nights
    assert gamelog.mafia_missed_three_nights(game.log)
    assert gamelog.days_survived(game.log, range(1, 11))[1] == 1
    killed = deaths_game({2: {"round": 1, "type": "night"}, 9: {"round": 1, "type": "day"},
                          6: {"round": 2, "type": "night"}, 5: {"round": 3, "type": "night"},
                          3: {"round": 2, "type": "day"}}, "maf")
    game = PLATFORM.read(json.dumps(killed)).tournament.stages[0].rounds[0].games[0]
    assert (game.first_killed, game.mafia_missed_three_nights) == (2, False)
    assert gamelog.days_survived(game.log, [2, 9, 6, 3, 5, 10]) == {2: 1, 9: 2, 6: 2, 3: 3, 5: 3, 10: 3}
    tomsk = PLATFORM.read(json.dumps(killed), ruleset="zvezdy").tournament.stages[0].rounds[0].games[0]
    assert tomsk.seats[1].days_survived is None  # days survived are written for tomsk only


def test_a_removal_by_night_reads_back_on_the_next_day() -> None:
    doc = deaths_game({2: {"round": 1, "type": "night"},
                       8: {"round": 2, "type": "kickOut", "time": {"round": 2, "time": "shooting"}}}, "tie")
    imported = PLATFORM.read(json.dumps(doc))
    game = imported.tournament.stages[0].rounds[0].games[0]
    assert game.winner is None and LogEvent("removed", 4, 8) in game.log and game.seats[7].removed
    assert "games[0]: a tie (read as a game without a result: we have no tie)" in imported.dropped


def test_a_game_without_a_result_names_the_features_it_writes() -> None:
    """mafiaratings' cleanup_features() deletes each field whose letter is missing: a game not yet won still
    names its warnings, deaths and checks."""
    ours = example("fiim")
    stage = ours.stages[0]
    game = stage.rounds[0].games[0]
    game = dataclasses.replace(game, winner=None, best_move=(), first_killed=None, mafia_missed_three_nights=False,
                               log=(LogEvent("voted_out", 1, 3), LogEvent("killed", 2, 5),
                                    LogEvent("don_check", 2, 1), LogEvent("sheriff_check", 2, 4)),
                               seats=tuple(dataclasses.replace(s, fouls=2 if s.seat == 6 else 0, best=False,
                                                               extra=s.extra * 0, removed=False,
                                                               days_survived=None) for s in game.seats))
    round_ = dataclasses.replace(stage.rounds[0], games=(game,))
    ours = dataclasses.replace(ours, stages=(dataclasses.replace(stage, rounds=(round_,)),))
    [written] = json.loads(PLATFORM.export(ours).document)["games"]
    assert "winner" not in written
    letters = {"warnings": "w", "death": "dut", "don": "g", "sheriff": "s", "legacy": "l"}
    fields = {key for player in written["players"] for key in player}
    assert {"warnings", "death", "don", "sheriff"} <= fields
    assert written["features"] == "gsdutw"
    assert all(letter in written["features"] for key in fields & set(letters) for letter in letters[key])
    back = PLATFORM.read(PLATFORM.export(ours).document).tournament
    assert back == PLATFORM.kept(ours) and back.stages[0].rounds[0].games[0].log == game.log
    empty = dataclasses.replace(game, log=(), seats=tuple(dataclasses.replace(s, fouls=0) for s in game.seats))
    ours = dataclasses.replace(ours, stages=(dataclasses.replace(stage, rounds=(
        dataclasses.replace(round_, games=(empty,)),)),))
    assert json.loads(PLATFORM.export(ours).document)["games"][0]["features"] == ""


def test_an_error_answer_is_named_as_the_platforms_error() -> None:
    assert refused({"error": "Unknown tournament", "version": 1}) == \
        "mafiaratings answered an error: Unknown tournament"


def test_a_death_by_warnings_takes_its_time_from_the_fourth_warning() -> None:
    """game.php get_player_death_time: a "warnings" death without a time has the time of warnings[3]."""
    doc = deaths_game({2: {"round": 1, "type": "night"}, 8: {"round": 2, "type": "warnings"}}, "civ")
    night = {"round": 2, "time": "shooting"}
    doc["games"][0]["players"][7]["warnings"] = [{"round": 0, "time": "speaking"}, {"round": 1, "time": "voting"},
                                                 {"round": 2, "time": "speaking"}, night]
    game = PLATFORM.read(json.dumps(doc)).tournament.stages[0].rounds[0].games[0]
    assert LogEvent("removed", 4, 8) in game.log and game.seats[7].removed and game.seats[7].fouls == 4
    doc["games"][0]["players"][7]["warnings"][3] = {"round": 2, "time": "speaking"}
    game = PLATFORM.read(json.dumps(doc)).tournament.stages[0].rounds[0].games[0]
    assert LogEvent("removed", 5, 8) in game.log
    doc["games"][0]["players"][7]["death"]["time"] = {"round": 2, "time": "speaking"}
    doc["games"][0]["players"][7]["warnings"][3] = night  # the death's own time comes first
    game = PLATFORM.read(json.dumps(doc)).tournament.stages[0].rounds[0].games[0]
    assert LogEvent("removed", 5, 8) in game.log
