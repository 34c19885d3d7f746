"""Every output follows one order (docs/rules/tournament.md): in the final the players eligible for prize
places first, then those who are not, and the disqualified last of all, struck out, with no place and
the reason. The print, the CSV and XLSX, the API, the public and the organizer's standings say the same."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring import fileio
from scoring.generate import generate
from scoring.standings import compute_standings
from tests.scoring.build import game, players, round_, stage, tournament

pytestmark = pytest.mark.django_db

RULESETS = ["fiim", "kostroma", "tomsk", "zvezdy"]
REASON = "Peeking at night, round 2"


def csv_rows(client: Any, url: str) -> tuple[list[str], list[list[str]]]:
    response = client.get(url)
    assert response.status_code == 200
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8")[1:])))
    header, *rows = lines
    if [] in rows:  # a blank line, then the winners and the awards
        rows = rows[:rows.index([])]
    return header, rows


def disqualified_leader(import_file: Any, ruleset: str) -> tuple[Any, str, list[str]]:
    """A generated tournament of 2 stages whose final's leader is disqualified; also the final's
    order before the disqualification."""
    model = generate(ruleset, players=24 if ruleset == "tomsk" else 20, rounds=2, seed=7, stages=2)
    before = [row.player for row in compute_standings(model, "s2").rows]
    data = fileio.dump(model)
    data["tournament"] = {"name": "Cup", "standings_hidden": False,
                          "disqualifications": [{"player": before[0], "reason": REASON}]}
    t = import_file(data, f"dq-{ruleset}")
    t.stages.filter(ext_id="s2").update(closed=True)  # the final is over: the winners are shown
    return t, before[0], before


def name(tournament_row: Any, player: str) -> str:
    return str(tournament_row.participants.get(ext_id=player).player.full_name)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_output_puts_a_disqualified_leader_last_without_a_place(
        client: Any, api: Any, organizer: Any, import_file: Any, ruleset: str) -> None:
    t, leader, before = disqualified_leader(import_file, ruleset)
    others = [p for p in before if p != leader]
    # The API: the engine's JSON, the leader last with no rank, never a winner.
    body = api().get(reverse("api:standings", args=[t.slug]) + "?stage=s2").json()
    assert [row["player"] for row in body["standings"]] == [*others, leader]
    assert body["standings"][-1] | {"rank": None, "disqualified": True, "reason": REASON} == body["standings"][-1]
    assert body["standings"][0]["rank"] == 1 and leader not in body["winners"] and body["winners"]
    # The stage's CSV: the same order, no place, the note.
    header, rows = csv_rows(client, reverse("paper:stage_csv", args=[t.slug, "s2"]))
    assert [line[2] for line in rows] == [*others, leader]
    assert rows[-1][0] == "" and rows[-1][header.index("Note")] == f"disqualified: {REASON}"
    assert rows[0][0] == "1"
    # The final results: last of all, with no place.
    header, rows = csv_rows(client, reverse("paper:results_csv", args=[t.slug]))
    assert rows[-1][2] == leader and rows[-1][0] == "" and rows[-1][header.index("Note")] == f"disqualified: {REASON}"
    assert [int(line[0]) for line in rows[:-1]] == sorted(int(line[0]) for line in rows[:-1])
    assert rows[0][0] == "1" and leader not in [line[2] for line in rows[:-1]]
    # XLSX: the final results' sheet ends with the leader.
    book = load_workbook(io.BytesIO(client.get(reverse("paper:results_xlsx", args=[t.slug])).content))
    lines = list(book.worksheets[0].iter_rows(values_only=True))
    data = lines[1:lines.index(next(line for line in lines if not any(line)))]  # then a blank line, the winners
    assert data[-1][2] == leader and data[-1][0] is None and data[0][0] == 1
    # The print: struck out, and not among the winners.
    html = client.get(reverse("paper:results", args=[t.slug])).content.decode()
    winners = re.search(r'<ol class="winners">(.*?)</ol>', html, re.S)
    assert winners is not None and f"<li>{name(t, leader)}</li>" not in winners.group(1)
    assert html.count('<tr class="disqualified">') == 3  # the final results and the two stages
    # The public standings: the last row, struck out, with the reason.
    html = client.get(reverse("public:stage_standings", args=[t.slug, "s2"])).content.decode()
    rows_html = re.findall(r"<tr class=\"[^\"]*\">.*?</tr>", html.split('id="standings"')[1], re.S)
    assert "disqualified-row" in rows_html[-1] and name(t, leader) in rows_html[-1]
    assert "<s>" in rows_html[-1] and 'class="badge text-bg-danger disqualified"' in rows_html[-1]
    # The badge says "disqualified"; the note beside it gives the reason alone, not the word again.
    assert f'<span class="small standing-note">{REASON}</span>' in rows_html[-1]
    assert sum("disqualified-row" in row for row in rows_html) == 1
    # The organizer's standings.
    client.force_login(organizer)
    html = client.get(reverse("running:standings", args=[t.slug, "s1"])).content.decode()
    rows_html = re.findall(r'<tr class="standing-row.*?</tr>', html, re.S)
    assert "disqualified-row" in rows_html[-1] and f"<s>{name(t, leader)}</s>" in rows_html[-1]
    assert f"disqualified: {REASON}" in rows_html[-1] and "advances" not in rows_html[-1]


def ineligible_leader_file() -> dict[str, Any]:
    """fiim: p04 missed both qualifying rounds (2 absences: not eligible for awards) and leads the
    final (reset) on points; p05..p10 share the best eligible rank and win."""
    ten, others = players(10), players(10, start=11)
    qualifying = stage("q", [round_(1, [game("fiim", others, "red")], absent=["p04"]),
                             round_(2, [game("fiim", others, "red")], absent=["p04"])], players=[*ten, *others])
    final = stage("final", [round_(1, [game("fiim", ten, "red", seats={4: {"extra": 1}})])], reset=True,
                  players=ten)
    data = tournament("fiim", [qualifying, final], player_ids=[*ten, *others])
    data["tournament"] = {"name": "Zelenograd", "standings_hidden": False}
    return data


def test_an_ineligible_fiim_leader_is_never_placed_above_the_winners(
        client: Any, api: Any, import_file: Any) -> None:
    t = import_file(ineligible_leader_file(), "ineligible")
    t.stages.filter(ext_id="final").update(closed=True)
    winners = {f"p{n:02d}" for n in range(5, 11)}
    body = api().get(reverse("api:standings", args=[t.slug]) + "?stage=final").json()
    assert set(body["winners"]) == winners
    assert {row["player"] for row in body["standings"][:6]} == winners
    assert body["standings"][-1] | {"player": "p04", "rank": 10, "eligible": False} == body["standings"][-1]
    note = "not eligible for prize places: missed 2 rounds or more"
    for url in (reverse("paper:results_csv", args=[t.slug]), reverse("paper:stage_csv", args=[t.slug, "final"])):
        header, rows = csv_rows(client, url)
        assert {line[2] for line in rows[:6]} == winners and {line[0] for line in rows[:6]} == {"1"}
        p04 = next(line for line in rows if line[2] == "p04")
        assert p04[0] == "10" and p04[header.index("Note")] == note
    html = client.get(reverse("public:stage_standings", args=[t.slug, "final"])).content.decode()
    table = html.split('id="standings"')[1]
    assert table.index(f'title="{note}"') > max(table.index(f"Player {p}") for p in winners)
