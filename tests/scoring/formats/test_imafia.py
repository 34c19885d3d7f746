"""iMafia's tournament games as mafiaratings' import reads them (docs/formats/imafia.md): a document built from that
reader reads with every seat, role, point, first kill and best move; the shared examples round-trip to ``kept``;
bad documents are refused naming the place. iMafia has no game log: nothing of ``Game.log`` is written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio
from scoring.filejson import dumps
from scoring.formats import PLATFORMS, FormatError
from scoring.model import Role, Side, Tournament

DOCUMENT = Path(__file__).parent / "documents" / "imafia" / "tournament-games.json"
DATA = Path(__file__).resolve().parents[1] / "data"
PLATFORM = PLATFORMS["imafia"]


def example(ruleset: str) -> Tournament:
    return fileio.loads((DATA / f"{ruleset}-example.json").read_text())


def refused(doc: Any) -> str:
    with pytest.raises(FormatError) as error:
        PLATFORM.read(doc if isinstance(doc, str) else json.dumps(doc))
    return str(error.value)


def edited(game: int, path: list[Any], value: Any) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(DOCUMENT.read_text())
    target: Any = doc["games"][game]
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


def test_the_document_reads_with_every_fact_it_holds() -> None:
    imported = PLATFORM.read(DOCUMENT.read_text())
    t = imported.tournament
    fileio.loads(dumps(t))
    assert [(s.id, [r.number for r in s.rounds]) for s in t.stages] == [("stage-1", [1]), ("stage-2", [1, 2])]
    game = t.stages[0].rounds[0].games[0]
    assert (game.winner, game.first_killed, game.best_move, game.judge, game.notes) == \
        (Side.RED, 5, (4, 8, 9), "Judge Ann", "a clean game")
    assert [s.role for s in game.seats] == [Role.CIVILIAN, Role.SHERIFF, Role.CIVILIAN, Role.MAFIA, Role.CIVILIAN,
                                           Role.CIVILIAN, Role.CIVILIAN, Role.MAFIA, Role.DON, Role.CIVILIAN]
    assert [s.extra for s in game.seats][:4] == [1, 0, 0, 0.5]
    assert game.seats[0].player == "imafia-201" and t.players_by_id()["imafia-201"].name == "Amber"
    second = t.stages[1].rounds[0].games[0]
    assert second.winner is Side.BLACK and second.judge == "Judge Ben"
    assert second.seats[9].player.startswith("imafia-name-")
    assert t.stages[1].rounds[1].games[0].winner is None  # result 0: a game the reader skips, read as a seating


def test_the_document_exports_back_the_same_facts() -> None:
    t = PLATFORM.read(DOCUMENT.read_text()).tournament
    exported = PLATFORM.export(t)
    kept = PLATFORM.kept(t)
    assert PLATFORM.read(exported.document).tournament == kept
    assert [g.judge for s in kept.stages for r in s.rounds for g in r.games] == [None, None, None]
    assert [[g.seats for g in r.games] for s in kept.stages for r in s.rounds] == \
        [[g.seats for g in r.games] for s in t.stages for r in s.rounds]
    assert "stage stage-1, round 1, table 1: judge 'Judge Ann' (imafia names a referee by its iMafia user id, which " \
        "we do not have)" in exported.lost
    first = json.loads(exported.document)["games"][0]
    assert (first["result"], first["first_blood"], first["best_move_1"], first["best_move_3"]) == (1, 5, 4, 9)
    assert first["players"]["4"] == {"players_id": 204, "name": "Delta", "roles_id": 3, "points_plus": 0.5,
                                     "points_minus": 0}


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_example_round_trips_to_kept(ruleset: str) -> None:
    ours = example(ruleset)
    exported = PLATFORM.export(ours)
    back = PLATFORM.read(exported.document, ruleset=ruleset).tournament
    assert back == PLATFORM.kept(ours)
    fileio.loads(dumps(back))
    assert exported.lost


def test_what_each_example_loses_is_named() -> None:
    fiim = PLATFORM.export(example("fiim")).lost
    assert "stage qualifying, round 1, table 1: seat 4: fouls 1 (imafia has none)" in fiim
    assert any(": removed True (imafia has none)" in line for line in fiim)
    assert any(": mafia missed three nights (imafia has none)" in line for line in fiim)
    kept = PLATFORM.kept(example("fiim"))
    assert all(g.first_killed == o.first_killed and g.best_move == o.best_move
               for s, so in zip(kept.stages, example("fiim").stages, strict=True)
               for r, ro in zip(s.rounds, so.rounds, strict=True)
               for g, o in zip(r.games, ro.games, strict=True))
    assert any("doctor at seat" in line for line in PLATFORM.export(example("kostroma")).lost)
    assert any("(imafia games have seats 1 to 10)" in line for line in PLATFORM.export(example("tomsk")).lost)
    assert "stage qualifying, round 1, table 1: circles (imafia has none)" in PLATFORM.export(example("zvezdy")).lost


def test_a_seating_reads_back_as_the_same_seating() -> None:
    t = PLATFORM.read(DOCUMENT.read_text()).tournament
    seating = t.stages[1].rounds[1]
    only = Tournament(ruleset="fiim", players=t.players, stages=(t.stages[1].__class__("stage-1", (seating,)),))
    exported = json.loads(PLATFORM.export(only).document)
    assert exported["games"][0]["result"] == 0
    back = PLATFORM.read(json.dumps(exported)).tournament
    assert back.stages[0].rounds[0].games == seating.games


def test_another_platforms_document_is_refused() -> None:
    mafiaratings = PLATFORMS["mafiaratings"].export(example("fiim")).document
    assert refused(mafiaratings) == "not a imafia document: unknown key(s) 'count' at the top level"
    assert refused({"games": [{"eventId": 1}]}).startswith("not an imafia document: games[0] has key(s) 'eventId'")


def test_bad_input_is_refused_naming_the_place() -> None:
    assert refused(DOCUMENT.read_text()[:100]).startswith("not a imafia document: invalid JSON at line")
    assert refused(edited(1, ["result"], "red")) == "games[1].result: 'red' is not a result (1 civ, 2 maf, 3 tie)"
    assert refused(edited(1, ["players", "4", "players_id"], "-4")) == \
        "games[1].players['4'].players_id: '-4' is not a user id"
    doc = edited(1, ["players", "11"], {"players_id": 999, "name": "Extra", "roles_id": 1})
    assert refused(doc) == "games[1].players['11']: seat 11 is not a seat 1 to 10"
    assert refused(edited(1, ["players", "7", "players_id"], 201)) == \
        "games[1].players['7']: 'Grove' sits twice at this table (seats 1 and 7)"
    assert refused(edited(1, ["table"], KeyError)) == \
        "games[1].table: missing (a game names its stage, number and table)"
    assert refused(edited(1, ["first_blood"], 12)) == "games[1].first_blood: seat 12 is not a seat 1 to 10"
    assert refused(edited(1, ["players", "3"], KeyError)) == \
        "games[1].players: seat(s) 3 missing (imafia games here have seats 1 to 10)"


def test_numbers_as_text_are_read_as_mafiaratings_casts_them() -> None:
    """api/ops/imafia.php compares result and roles_id loosely and keys players by players_id: "3" is 3."""
    doc = edited(1, ["result"], "1")
    for player in doc["games"][1]["players"].values():
        player["roles_id"] = f" {player.get('roles_id', 1)} "
        if player.get("players_id") is not None:
            player["players_id"] = str(player["players_id"])
    assert PLATFORM.read(json.dumps(doc)) == PLATFORM.read(DOCUMENT.read_text())
    game = PLATFORM.read(json.dumps(doc)).tournament.stages[0].rounds[0].games[0]
    assert game.winner is Side.RED and (game.seats[3].role, game.seats[3].player) == (Role.MAFIA, "imafia-204")


def test_an_unknown_role_id_is_a_civilian_as_mafiaratings_reads_it() -> None:
    imported = PLATFORM.read(json.dumps(edited(1, ["players", "1", "roles_id"], 7)))
    assert imported.tournament.stages[0].rounds[0].games[0].seats[0].role is Role.CIVILIAN
    assert "games[1].players['1'].roles_id: unknown role code 7, read as a civilian (as mafiaratings reads it)" \
        in imported.dropped
    imported = PLATFORM.read(json.dumps(edited(1, ["players", "1", "roles_id"], None)))
    assert "games[1].players['1'].roles_id: unknown role code None, read as a civilian (as mafiaratings reads " \
        "it)" in imported.dropped
