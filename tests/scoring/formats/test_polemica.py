"""Polemica's whole games (docs/formats/polemica.md): a real game from the public client's fixtures becomes our
game with its log, and the first kill, the days survived and the three missed nights are derived from that log by
``scoring.gamelog``; our tournaments export to Polemica games and read back as ``kept`` says; bad documents are
refused naming the place."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio, gamelog
from scoring.filejson import dumps
from scoring.formats import PLATFORMS, FormatError
from scoring.model import Game, LogEvent, Player, Role, Round, Seat, Side, Stage, Tournament

HERE = Path(__file__).resolve().parent
DOCUMENTS = HERE / "documents" / "polemica"
DATA = HERE.parents[0] / "data"
POLEMICA = PLATFORMS["polemica"]


def real(name: str = "334187") -> str:
    return (DOCUMENTS / f"{name}.json").read_text()


def only_game(t: Tournament) -> Game:
    (stage,) = t.stages
    (round_,) = stage.rounds
    (game,) = round_.games
    return game


def example(ruleset: str) -> Tournament:
    return fileio.loads((DATA / f"{ruleset}-example.json").read_text())


def refused(document: Any) -> str:
    text = document if isinstance(document, str) else json.dumps(document, ensure_ascii=False)
    with pytest.raises(FormatError) as error:
        POLEMICA.read(text)
    return str(error.value)


# ---- (a) + (e): the real game ----------------------------------------------------------------------------------


def test_the_real_game_imports_every_seat_role_foul_and_the_result() -> None:
    imported = POLEMICA.read(real())
    t = imported.tournament
    fileio.loads(dumps(t))  # a valid tournament file under fiim
    assert t.ruleset == "fiim"
    assert [s.id for s in t.stages] == ["phase-0"] and t.stages[0].rounds[0].number == 3
    game = only_game(t)
    assert game.table == 1 and game.winner is Side.RED and game.judge == "Darky"
    assert [(s.seat, s.role) for s in game.seats] == [
        (1, Role.CIVILIAN), (2, Role.MAFIA), (3, Role.CIVILIAN), (4, Role.CIVILIAN), (5, Role.CIVILIAN),
        (6, Role.CIVILIAN), (7, Role.DON), (8, Role.SHERIFF), (9, Role.MAFIA), (10, Role.CIVILIAN)]
    assert [s.fouls for s in game.seats] == [0, 1, 1, 0, 2, 3, 0, 3, 3, 3]
    assert not any(s.removed for s in game.seats)
    assert game.seats[6].player == "polemica-65472"
    assert t.players_by_id()["polemica-65472"] == Player("polemica-65472", "Г-н Storm")
    assert len(t.players) == 10


def test_the_real_game_becomes_our_log() -> None:
    game = only_game(POLEMICA.read(real()).tournament)
    log = game.log
    assert [e.seat for e in log if e.kind == "nominated" and e.phase == 1] == [1, 2, 3, 4]
    # Day 1 under zeroVoting "liftOnly": seat 1 leads 5 to 4 but stays (GameUtils.getFinalVotes).
    assert [(e.seat, e.count) for e in log if e.kind == "votes" and e.phase == 1] == [(2, 4), (1, 5), (4, 1)]
    # Day 2: a tie 4-4 between 2 and 8, the revote 5-4 sends 8 out.
    assert [(e.seat, e.count) for e in log if e.kind == "votes" and e.phase == 3] == [
        (2, 4), (8, 4), (1, 1), (2, 4), (8, 5)]
    departures = [(e.kind, e.phase, e.seat) for e in log if e.kind in gamelog.DEPARTURES]
    assert departures == [("killed", 2, 4), ("voted_out", 3, 8), ("voted_out", 5, 2), ("killed", 6, 1),
                          ("killed", 8, 5), ("voted_out", 9, 7), ("killed", 10, 10), ("voted_out", 11, 9)]
    # Night 2: shots 2->7, 7->1, 9->7 disagree: a miss, no kill. Day 4: 3-3 twice, 3 of 6 to lift: nobody out.
    assert not [e for e in log if e.phase in (4, 7) and e.kind in gamelog.DEPARTURES]
    checks = [(e.kind, e.phase, e.seat) for e in log if e.kind.endswith("_check")]
    assert checks == [("don_check", 2, 4), ("sheriff_check", 2, 2), ("don_check", 4, 1), ("don_check", 6, 8)]


def test_the_real_games_facts_are_derived_from_its_log_by_gamelog() -> None:
    game = only_game(POLEMICA.read(real()).tournament)
    seats = [s.seat for s in game.seats]
    assert game.first_killed == gamelog.first_killed(game.log) == 4
    assert {s.seat: s.days_survived for s in game.seats} == gamelog.days_survived(game.log, seats) == {
        1: 3, 2: 3, 3: 6, 4: 1, 5: 4, 6: 6, 7: 5, 8: 2, 9: 6, 10: 5}
    assert game.mafia_missed_three_nights is gamelog.mafia_missed_three_nights(game.log) is False
    assert game.best_move == (6, 8)  # the first killed player's (seat 4's) guess of mafia


def test_the_real_game_names_what_our_model_drops() -> None:
    dropped = POLEMICA.read(real()).dropped
    assert "game: day 4: 3 of 6 voted to lift the tied players (our log has no lift vote)" in dropped
    assert "game.players[3].guess: civs 10 (our best move holds the first killed player's mafia guesses only)" \
        in dropped
    assert "game: seat 8's guess of mafia 7, 2, 5 (our best move is the first killed player's)" in dropped
    assert "game.players: avatar, quitTime (not held by our seats)" in dropped
    assert any(line.startswith("game: comKiller, factor, id, isLive, master") for line in dropped)
    assert "game.stage: gameOver on day 6 (where the game stands; our game has no current stage)" in dropped


def test_technical_fouls_and_bonuses_texts_are_dropped() -> None:
    doc = json.loads(real())
    doc["players"][1]["techs"] = [{"time": "2025-04-05T14:37:25", "stage": {"type": "speech", "day": 2}}]
    doc["bonuses"] = [{"position": 3, "text": "лучший ход", "scores": 0.3, "basic": False}]
    imported = POLEMICA.read(json.dumps(doc))
    assert "game.players[1]: 1 technical foul (our model has no technical fouls)" in imported.dropped
    assert "game.bonuses[0].text: 'лучший ход' (our extra points have no reason)" in imported.dropped
    assert only_game(imported.tournament).seats[2].extra == Fraction(3, 10)


def test_the_real_game_exports_back_the_same_facts() -> None:
    original = json.loads(real())
    t = POLEMICA.read(real()).tournament
    exported = POLEMICA.export(t)
    (game,) = json.loads(exported.document)
    assert (game["num"], game["table"], game["phase"], game["result"]) == (3, 1, 0, 0)
    assert [(p["position"], p["role"], len(p["fouls"])) for p in game["players"]] == [
        (p["position"], p["role"], len(p["fouls"])) for p in original["players"]]
    assert [p["player"]["id"] for p in game["players"]] == [p["player"]["id"] for p in original["players"]]
    assert sorted(map(tuple, (c.values() for c in game["checks"]))) == sorted(
        map(tuple, (c.values() for c in original["checks"])))
    # Each round's count per candidate (who voted is not in our log: the voters are placeholders).

    def tallies(votes: list[dict[str, Any]]) -> Counter[tuple[int, int | None, int]]:
        return Counter((v["day"], v.get("num"), v["candidate"]) for v in votes if v.get("num") is not None)
    assert tallies(game["votes"]) == tallies(original["votes"])
    # The kills: every night's shots agree on the victim the original's shots killed; the miss is not written.
    kills = {(s["night"], s["victim"]) for s in game["shots"]}
    assert kills == {(1, 4), (3, 1), (4, 5), (5, 10)}
    assert next(p for p in game["players"] if p["position"] == 4)["guess"] == {"mafs": [6, 8]}
    back = POLEMICA.read(exported.document).tournament
    assert back == POLEMICA.kept(t)
    assert only_game(back).log == only_game(t).log
    assert "stage phase-0, round 3, table 1: judge (a polemica game holds none)" in exported.lost


def test_a_game_in_progress_reads_without_a_result() -> None:
    imported = POLEMICA.read(real("333915"))
    game = only_game(imported.tournament)
    fileio.loads(dumps(imported.tournament))
    assert game.winner is None and game.first_killed == 10 and game.best_move == (4,)
    assert [(e.seat, e.count) for e in game.log if e.kind == "votes"] == [(5, 3), (4, 3), (6, 3)] * 2
    assert not [e for e in game.log if e.kind == "voted_out"]  # 2 of 9 to lift: the tied stay
    assert "game: day 2: 2 of 9 voted to lift the tied players (our log has no lift vote)" in imported.dropped


def test_a_list_of_games_is_a_tournament_of_phases_rounds_and_tables() -> None:
    one, two = json.loads(real()), json.loads(real("333915"))
    two["phase"], two["num"], two["table"] = 0, 3, 2
    ids = {p["player"]["id"] for p in one["players"]}
    for p in two["players"]:  # other people at the second table of the same round
        p["player"]["id"] += 1_000_000
        assert p["player"]["id"] not in ids
    t = POLEMICA.read(json.dumps([two, one])).tournament
    assert [(s.id, [(r.number, [g.table for g in r.games]) for r in s.rounds]) for s in t.stages] == [
        ("phase-0", [(3, [1, 2])])]
    assert len(t.players) == 20


# ---- (b) the four examples ------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_example_reads_back_as_kept(ruleset: str) -> None:
    t = example(ruleset)
    exported = POLEMICA.export(t)
    back = POLEMICA.read(exported.document, ruleset=ruleset).tournament
    assert back == POLEMICA.kept(t)
    fileio.loads(dumps(back))


def test_the_fiim_example_names_what_it_loses() -> None:
    t = example("fiim")
    lost = POLEMICA.export(t).lost
    kept = POLEMICA.kept(t)
    assert "tournament: name, city (a polemica game holds no tournament)" in lost
    assert ("stage qualifying: its id, kind, players, lots (polemica numbers the tournament's phases: written as "
            "phase 0, read back as stage phase-0)") in lost
    assert "stage qualifying, round 1: seating method, absent, penalties (a polemica game holds its table only)" \
        in lost
    assert "stage qualifying, round 1, table 2: mafia missed three nights True (the shots say False)" in lost
    assert [s.id for s in kept.stages] == ["phase-0", "phase-1", "phase-2"]
    assert all(r.penalties == () and r.absent == () for s in kept.stages for r in s.rounds)
    nick = next(p for p in t.players if p.nickname)
    assert any(line.startswith(f"player {nick.id}: name {nick.name!r} (polemica keeps one username: "
                               f"{nick.nickname!r})") for line in lost)
    # The first kill travels as the night-1 shots, the best move as the first killed player's guess.
    ours = t.stages[1].rounds[0].games[0]
    theirs = kept.stages[1].rounds[0].games[0]
    assert (theirs.first_killed, theirs.best_move) == (ours.first_killed, ours.best_move) == (2, (4, 7, 3))
    assert theirs.log == (LogEvent("killed", 2, 2),)


def test_the_tomsk_example_loses_its_twelve_seat_tables() -> None:
    t = example("tomsk")
    lost = POLEMICA.export(t).lost
    assert ("stage qualifying, round 1, table 1: the whole game (polemica seats 1-10; this table has 11, 12)"
            in lost)
    assert "teams Team 1, Team 2, Team 3, Team 4, Team 5, Team 6 (polemica has no teams)" in lost
    assert POLEMICA.kept(t).stages == ()


def test_the_kostroma_example_loses_the_roles_polemica_has_not() -> None:
    lost = POLEMICA.export(example("kostroma")).lost
    assert ("stage qualifying, round 1, table 2: roles 4 artist, 9 doctor written as civilian, civilian (polemica "
            "has don, mafia, sheriff and civilian only)") in lost
    assert "stage qualifying, round 1, table 2: result red (the game's roles are not polemica's)" in lost


def test_the_zvezdy_example_loses_circles_and_keeps_extra_points() -> None:
    t = example("zvezdy")
    lost = POLEMICA.export(t).lost
    assert "stage qualifying, round 1, table 1: circles (a polemica game holds none)" in lost
    ours = t.stages[1].rounds[0].games[0]
    theirs = POLEMICA.kept(t).stages[1].rounds[0].games[0]
    assert [s.extra for s in theirs.seats] == [s.extra for s in ours.seats]
    assert [s.fouls for s in theirs.seats] == [s.fouls for s in ours.seats]


# ---- (c) a seating ----------------------------------------------------------------------------------------------


def seating() -> Tournament:
    players = tuple(Player(f"p{i:02}", f"Player {i}") for i in range(1, 21))
    games = tuple(Game(table, tuple(Seat(n, f"p{(table - 1) * 10 + n:02}", Role.CIVILIAN) for n in range(1, 11)),
                       None) for table in (1, 2))
    return Tournament("fiim", players, (Stage("phase-0", (Round(1, games),)),))


def test_a_seating_exports_and_reads_back_the_same_seating() -> None:
    t = seating()
    exported = POLEMICA.export(t)
    document = json.loads(exported.document)
    assert [(g["num"], g["table"], g["result"], [p["position"] for p in g["players"]]) for g in document] == [
        (1, 1, None, list(range(1, 11))), (1, 2, None, list(range(1, 11)))]
    back = POLEMICA.read(exported.document).tournament
    assert back == POLEMICA.kept(t)
    assert [[(s.seat, back.players_by_id()[s.player].name) for s in g.seats] for g in back.stages[0].rounds[0].games] \
        == [[(n, f"Player {(table - 1) * 10 + n}") for n in range(1, 11)] for table in (1, 2)]
    assert all(line.startswith("player p") and "read back as polemica-name-" in line for line in exported.lost)


def test_polemica_ids_survive_the_round_trip() -> None:
    t = POLEMICA.read(real()).tournament
    back = POLEMICA.read(POLEMICA.export(t).document).tournament
    assert [p.id for p in back.players] == [p.id for p in t.players]


# ---- (d) bad documents --------------------------------------------------------------------------------------------


def test_another_platforms_document_is_not_a_polemica_document() -> None:
    gomafia_like = {"tournament": {"id": 1, "title": "Cup"}, "games": [{"game_num": 1, "table_num": 1}]}
    assert refused(gomafia_like).startswith("not a polemica document: an object without a game's players")
    ours = (DATA / "fiim-example.json").read_text()
    assert refused(ours) == "not a polemica document: it is our own tournament file"
    assert refused([{"players": [{"id": "x"}]}]).startswith("not a polemica document: games[0] is not a Polemica game")


def test_a_truncated_document_is_refused() -> None:
    text = refused(real()[:300])
    assert text.startswith("not a polemica document: invalid JSON at line")


def test_an_unknown_role_code_is_named() -> None:
    doc = json.loads(real())
    doc["players"][4]["role"] = 7
    assert "game.players[4].role: unknown role code 7 (0 don, 1 mafia, 2 civilian, 3 sheriff)" in refused(doc)


def test_a_seat_out_of_range_is_named() -> None:
    doc = json.loads(real())
    doc["players"][9]["position"] = 11
    assert "game.players[9].position: a seat is 1 to 10 (Position.kt), not: 11" in refused(doc)
    doc = json.loads(real())
    doc["shots"][0]["victim"] = 0
    assert "game.shots[0].victim: a seat is 1 to 10 (Position.kt), not: 0" in refused(doc)


def test_the_same_player_twice_in_a_game_is_named() -> None:
    doc = json.loads(real())
    doc["players"][5]["player"] = dict(doc["players"][2]["player"])
    assert "game.players[5].player: polemica-80933 (BRO) is already at seat 3" in refused(doc)
    doc = json.loads(real())
    doc["players"][5]["position"] = 3
    assert "game.players[5].position: seat 3 twice" in refused(doc)


def test_a_missing_required_field_is_named() -> None:
    doc = json.loads(real())
    del doc["players"][2]["role"]
    del doc["shots"][1]["night"]
    problems = refused([doc]).splitlines()
    assert problems[0] == "a polemica document with 2 problems:"
    assert problems[1:] == ["games[0].players[2].role: missing", "games[0].shots[1].night: missing"]


def test_an_unknown_key_in_a_vote_is_refused_as_jackson_would() -> None:
    doc = json.loads(real())
    doc["votes"][0]["weight"] = 2
    assert "game.votes[0].weight: unknown key" in refused(doc)


def test_two_games_at_one_table_are_named() -> None:
    doc = json.loads(real())
    assert "games[1]: table 1 of game 3 in phase 0 twice (also games[0])" in refused([doc, doc])


# ---- (e) our log to Polemica and back -----------------------------------------------------------------------------


def logged_game(log: tuple[LogEvent, ...], winner: Side | None = Side.RED, **seat_changes: Any) -> Tournament:
    roles = {1: Role.DON, 2: Role.MAFIA, 3: Role.MAFIA, 4: Role.SHERIFF}
    seats = tuple(Seat(n, f"polemica-{100 + n}", roles.get(n, Role.CIVILIAN)) for n in range(1, 11))
    seats = tuple(dataclasses.replace(s, **seat_changes.get(f"s{s.seat}", {})) for s in seats)
    players = tuple(Player(f"polemica-{100 + n}", f"Name {n}") for n in range(1, 11))
    return Tournament("fiim", players, (Stage("phase-0", (Round(1, (Game(1, seats, winner, log=log),)),)),))


def test_our_log_goes_to_polemica_and_comes_back_with_its_facts_derived() -> None:
    log = (LogEvent("nominated", 1, 5), LogEvent("nominated", 1, 6), LogEvent("votes", 1, 5, 6),
           LogEvent("votes", 1, 6, 4), LogEvent("voted_out", 1, 5),
           LogEvent("killed", 2, 7), LogEvent("don_check", 2, 4), LogEvent("sheriff_check", 2, 1),
           LogEvent("nominated", 3, 2), LogEvent("votes", 3, 2, 8), LogEvent("voted_out", 3, 2),
           LogEvent("sheriff_check", 4, 3), LogEvent("nominated", 5, 3), LogEvent("votes", 5, 3, 6),
           LogEvent("voted_out", 5, 3), LogEvent("nominated", 7, 1), LogEvent("votes", 7, 1, 4),
           LogEvent("voted_out", 7, 1))
    t = logged_game(log)
    exported = POLEMICA.export(t)
    (document,) = json.loads(exported.document)
    assert {(s["night"], s["shooter"], s["victim"]) for s in document["shots"]} == {(1, 1, 7), (1, 2, 7), (1, 3, 7)}
    assert document["checks"] == [{"night": 1, "role": 0, "player": 4}, {"night": 1, "role": 3, "player": 1},
                                  {"night": 2, "role": 3, "player": 3}]
    game = only_game(POLEMICA.read(exported.document).tournament)
    assert game.log == log
    assert game.first_killed == 7
    # Nights 2 and 3 without a kill, and day 3 voted seat 3 out between them: no three missed nights in a row.
    assert game.mafia_missed_three_nights is False
    assert {s.seat: s.days_survived for s in game.seats} == {
        1: 4, 2: 2, 3: 3, 4: 4, 5: 1, 6: 4, 7: 1, 8: 4, 9: 4, 10: 4}
    assert only_game(POLEMICA.kept(t)) == game


def test_three_missed_nights_are_derived_from_the_shots() -> None:
    log = (LogEvent("killed", 2, 9), LogEvent("sheriff_check", 4, 1), LogEvent("sheriff_check", 6, 2),
           LogEvent("sheriff_check", 8, 3), LogEvent("nominated", 9, 1), LogEvent("votes", 9, 1, 7),
           LogEvent("voted_out", 9, 1), LogEvent("nominated", 11, 2), LogEvent("votes", 11, 2, 6),
           LogEvent("voted_out", 11, 2), LogEvent("nominated", 13, 3), LogEvent("votes", 13, 3, 5),
           LogEvent("voted_out", 13, 3))
    game = only_game(POLEMICA.read(POLEMICA.export(logged_game(log)).document).tournament)
    assert game.mafia_missed_three_nights is True
    assert game.log == log


def test_a_tie_lifted_and_a_removal_by_disqualification() -> None:
    log = (LogEvent("nominated", 1, 5), LogEvent("nominated", 1, 6), LogEvent("votes", 1, 5, 5),
           LogEvent("votes", 1, 6, 5), LogEvent("votes", 1, 5, 5), LogEvent("votes", 1, 6, 5),
           LogEvent("voted_out", 1, 5), LogEvent("voted_out", 1, 6), LogEvent("killed", 2, 8),
           LogEvent("removed", 3, 9))
    t = logged_game(log, winner=None, s9={"removed": True, "fouls": 2})
    exported = POLEMICA.export(t)
    (document,) = json.loads(exported.document)
    lifts = [v for v in document["votes"] if "num" not in v]
    assert len(lifts) == 6  # more than half of the ten who voted
    assert document["players"][8]["disqual"] == {"type": "speech", "day": 2}
    game = only_game(POLEMICA.read(exported.document).tournament)
    assert game.log == log
    assert game.seats[8].removed and game.seats[8].days_survived == 2
    assert {s.seat: s.days_survived for s in game.seats if s.seat in (5, 6, 8)} == {5: 1, 6: 1, 8: 1}


def test_a_departure_without_votes_and_a_heal_are_named_in_lost() -> None:
    log = (LogEvent("voted_out", 1, 5), LogEvent("heal", 2, 6), LogEvent("killed", 2, 6))
    t = logged_game(log)
    exported = POLEMICA.export(t)
    assert ("stage phase-0, round 1, table 1: day 1: seat 5 voted out without the votes to show it (written as a "
            "vote of the whole table)") in exported.lost
    assert "stage phase-0, round 1, table 1: night 1: heal of seat 6 (polemica has no doctor)" in exported.lost
    kept = only_game(POLEMICA.kept(t))
    assert kept.log == (LogEvent("votes", 1, 5, 10), LogEvent("voted_out", 1, 5), LogEvent("killed", 2, 6))
    assert only_game(POLEMICA.read(exported.document).tournament) == kept


def test_four_fouls_remove_under_the_ruleset() -> None:
    doc = json.loads(real())
    foul = doc["players"][5]["fouls"][0]
    doc["players"][5]["fouls"].append({"time": foul["time"], "stage": {"type": "speech", "day": 5, "player": 6}})
    game = only_game(POLEMICA.read(json.dumps(doc)).tournament)
    seat = game.seats[5]
    assert (seat.fouls, seat.removed, seat.days_survived) == (4, True, 5)
    assert LogEvent("removed", 9, 6) in game.log
    tomsk = only_game(POLEMICA.read(json.dumps(doc), ruleset="tomsk").tournament)
    assert not tomsk.seats[5].removed  # tomsk removes for no number of fouls
