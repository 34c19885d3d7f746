"""A round in play: every player seated at a table without a result yet is on the stage's standings
with 0 games, on the app's model (``to_model``: the public pages, the API, the organizer's standings) and in the
command line's standings of the exported file, the same rows; the file keeps its ``tables_in_play``."""

from __future__ import annotations

import json
from typing import Any

import pytest

from exchange.files import export_data, import_text
from exchange.reading import CONVERTED, to_model
from games.models import Game
from scoring import fileio
from scoring.standings import compute_standings, standings_json
from tests.scoring.build import game, players, round_, stage, tournament

pytestmark = pytest.mark.django_db
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def in_play_file(ruleset: str) -> dict[str, Any]:
    """Round 1 of three tables: table 1 has its result, tables 2 and 3 are in play (no protocol yet)."""
    size = 12 if ruleset == "tomsk" else 10
    ids = players(3 * size)
    data = tournament(ruleset, [stage("q", [round_(1, [game(ruleset, ids[:size], "red")])])], player_ids=ids)
    data["tournament"] = {"tables_in_play": [
        {"stage": "q", "round": 1, "table": t + 1,
         "seats": [{"seat": n + 1, "player": ids[t * size + n]} for n in range(size)]} for t in (1, 2)]}
    return data


@pytest.mark.parametrize("ruleset", RULESETS)
def test_players_of_the_tables_in_play_are_on_the_standings_with_no_games(ruleset: str) -> None:
    data = in_play_file(ruleset)
    size = 12 if ruleset == "tomsk" else 10
    t = import_text(json.dumps(data), slug=f"in-play-{ruleset}")
    assert Game.objects.filter(table__round__stage__tournament=t).count() == 1  # two tables without a protocol
    standings = compute_standings(to_model(t), "q")
    assert {row.player for row in standings.rows} == {p["id"] for p in data["players"]}  # all 3 tables, not 1
    waiting = [row for row in standings.rows if row.player in players(2 * size, start=size + 1)]
    assert len(waiting) == 2 * size and all(row.tally.games == 0 and row.points == 0 for row in waiting)
    # the command line on the exported file lists the same rows with the same numbers (the contract's §3)
    exported = export_data(t)
    assert len(exported["tournament"]["tables_in_play"]) == 2
    cli = compute_standings(fileio.load(exported), "q")
    assert standings_json(cli) == standings_json(standings)


def test_without_a_table_in_play_the_model_reads_no_more(django_assert_num_queries: Any) -> None:
    data = in_play_file("fiim")
    del data["tournament"]
    t = import_text(json.dumps(data), slug="no-play")
    CONVERTED.clear()  # every game converted: the most queries
    with django_assert_num_queries(12):
        model = to_model(t)
    assert model.info is None or "tables_in_play" not in dict(model.info.other)
    assert len(compute_standings(model, "q").rows) == 10  # the file's players who never sat: not the stage's
