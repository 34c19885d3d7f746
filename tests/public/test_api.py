"""The read-only API: the standings of docs/command-line.md equal ``python -m scoring standings`` on the
exported file; hidden standings answer 403 without figures; every endpoint answers."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from exchange.files import export_text
from scoring.cli import main as scoring_main
from tests.worlds import kept_fiim_fixtures

pytestmark = pytest.mark.django_db
# the fiim example, imported once for this module's tests (tests/worlds.py)
organizer, fiim = kept_fiim_fixtures()


def cli_standings(tmp_path: Path, tournament: Any, stage: str | None) -> dict[str, Any]:
    path = tmp_path / "export.json"
    path.write_text(export_text(tournament), encoding="utf-8")
    out = io.StringIO()
    argv = ["standings", str(path)] + (["--stage", stage] if stage else [])
    assert scoring_main(argv, stdout=out, stderr=io.StringIO()) == 0
    return dict(json.loads(out.getvalue()))


@pytest.mark.parametrize("stage", [None, "qualifying", "semifinal", "final"])
def test_standings_are_the_cli_answer_on_the_exported_file(client: Any, fiim: Any, tmp_path: Path,
                                                           stage: str | None) -> None:
    url = "/api/tournaments/fiim-open/standings/" + (f"?stage={stage}" if stage else "")
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    expected = cli_standings(tmp_path, fiim, stage)
    assert response.json() == expected
    assert expected["standings"] and "winners" in cli_standings(tmp_path, fiim, "final")


@pytest.mark.parametrize("example", ["tomsk-example.json", "kostroma-example.json", "zvezdy-example.json"])
def test_standings_match_the_cli_for_every_ruleset(client: Any, import_file: Any, tmp_path: Path,
                                                   example: str) -> None:
    t = import_file(example, "cup", standings_hidden=False)
    for stage in t.stages.values_list("ext_id", flat=True):
        got = client.get(f"/api/tournaments/cup/standings/?stage={stage}").json()
        assert got == cli_standings(tmp_path, t, stage)
    if t.teams.exists():
        assert "teams" in got


def test_hidden_standings_are_refused_to_anonymous_and_strangers(client: Any, fiim: Any, stranger: Any,
                                                                 organizer: Any) -> None:
    fiim.standings_hidden = True
    fiim.save()
    response = client.get("/api/tournaments/fiim-open/standings/?stage=qualifying")
    assert response.status_code == 403
    body = response.content.decode()
    assert "points" not in body and "p001" not in body and "rank" not in body
    client.force_login(stranger)
    assert client.get("/api/tournaments/fiim-open/standings/").status_code == 403
    client.force_login(organizer)
    assert client.get("/api/tournaments/fiim-open/standings/").json()["standings"]


def test_unknown_stage_and_tournament(client: Any, fiim: Any) -> None:
    assert client.get("/api/tournaments/fiim-open/standings/?stage=nope").status_code == 404
    assert client.get("/api/tournaments/nope/standings/").status_code == 404


def test_other_endpoints(client: Any, fiim: Any) -> None:
    assert [t["slug"] for t in client.get("/api/tournaments/").json()] == ["fiim-open"]
    assert client.get("/api/tournaments/fiim-open/").json()["ruleset"] == "fiim"
    assert [s["id"] for s in client.get("/api/tournaments/fiim-open/stages/").json()] == [
        "qualifying", "semifinal", "final"]
    rounds = client.get("/api/tournaments/fiim-open/rounds/?stage=final").json()
    assert [r["number"] for r in rounds] == [1, 2, 3, 4]
    seating = client.get("/api/tournaments/fiim-open/rounds/final/1/seating/").json()
    assert [len(t["seats"]) for t in seating["tables"]] == [10]
    assert seating["tables"][0]["seats"][0]["seat"] == 1
    games = client.get("/api/tournaments/fiim-open/games/?stage=final&round=2").json()
    assert len(games) == 1 and games[0]["winner"] in {"red", "black"} and len(games[0]["seats"]) == 10
    assert client.get("/api/tournaments/fiim-open/rounds/final/9/seating/").status_code == 404


def test_draft_rounds_are_not_in_the_api(client: Any, fiim: Any) -> None:
    from tournaments.models import Round, RoundState

    Round.objects.filter(stage__ext_id="final", number=4).update(state=RoundState.DRAFT)
    assert [r["number"] for r in client.get("/api/tournaments/fiim-open/rounds/?stage=final").json()] == [1, 2, 3]
    assert client.get("/api/tournaments/fiim-open/rounds/final/4/seating/").status_code == 404
    assert client.get("/api/tournaments/fiim-open/games/?stage=final&round=4").json() == []


def test_openapi_schema_is_served(client: Any) -> None:
    response = client.get("/api/schema/")
    assert response.status_code == 200
    text = response.content.decode()
    assert "/api/tournaments/{slug}/standings/" in text and "openapi" in text
