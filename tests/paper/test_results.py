"""Results: each stage's standings and the final results as CSV and XLSX, the printable sheet with
the winners; the same figures as scoring; nothing while hidden except for organizers."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from exchange.reading import to_model
from scoring.standings import compute_standings
from scoring.validation import ruleset_for
from tests.conftest import PASSWORD
from tests.worlds import kept_fiim_fixtures

from .conftest import pdf_body, pdf_pages

pytestmark = pytest.mark.django_db
# the fiim example, imported once for this module's tests (tests/worlds.py)
organizer, fiim = kept_fiim_fixtures()

RULESETS = ["fiim", "kostroma", "tomsk", "zvezdy"]


def read_csv(response: Any) -> list[list[str]]:
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:])))


def expected(tournament: Any, stage: str) -> Any:
    model = to_model(tournament)
    return compute_standings(model, stage, ruleset_for(model)[0])


@pytest.mark.parametrize("ruleset", RULESETS)
def test_example_stage_csv_matches_scoring(client: Any, import_file: Any, ruleset: str) -> None:
    tournament = import_file(f"{ruleset}-example.json", f"{ruleset}-x")
    tournament.standings_hidden = False  # the zvezdy example hides them
    tournament.save()
    for stage in tournament.stages.all():
        rows = read_csv(client.get(reverse("paper:stage_csv", args=[tournament.slug, stage.ext_id])))
        standings = expected(tournament, stage.ext_id)
        header, body = rows[0], rows[1:]
        body = body[:body.index([])] if [] in body else body  # below the final's rows: its winners (as in XLSX)
        assert header[:4] == ["Place", "No.", "Player id", "Player"] and "Points" in header
        assert header.count("Wins") == 1 and "wins" not in header  # fiim's wins tie-break: one column
        assert len(body) == len(standings.rows)
        points = header.index("Points")
        for line, row in zip(body, standings.rows, strict=True):
            assert line[0] == str(row.rank) and line[2] == row.player and line[3] == row.name
            assert abs(float(line[points]) - float(row.points)) < 1e-6


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_final_results_show_the_games_and_wins_each_place_rests_on(client: Any, import_file: Any,
                                                                      ruleset: str) -> None:
    """The whole tournament's order lacked the wins (fiim's first tie-break after the points): a player placed
    above another with the same points showed no reason. Each row carries its stage's games and wins."""
    tournament = import_file(f"{ruleset}-example.json", f"{ruleset}-w")
    tournament.standings_hidden = False
    tournament.save()
    header, *rows = read_csv(client.get(reverse("paper:results_csv", args=[tournament.slug])))
    rows = rows[:rows.index([])]
    assert header.count("Games") == 1 and header.count("Wins") == 1
    games, wins, stage_column = header.index("Games"), header.index("Wins"), header.index("Placed by the stage")
    by_stage = {str(stage): {row.player: row for row in expected(tournament, stage.ext_id).rows}
                for stage in tournament.stages.all()}
    for line in rows:
        row = by_stage[line[stage_column]][line[2]]
        assert (line[games], line[wins]) == (str(row.tally.games), str(row.tally.wins)), line


def test_final_results_order_later_stages_first(client: Any, fiim: Any) -> None:
    """fiim example: 10 finalists, then 20 more semifinalists, then the other 40 of the qualifying."""
    header, *rows = read_csv(client.get(reverse("paper:results_csv", args=[fiim.slug])))
    assert header[0] == "Place" and rows[rows.index([]):][1] == ["Final results"]  # the title is below the rows
    rows = rows[:rows.index([])]
    stage_column = header.index("Placed by the stage")
    placed: list[str] = []
    start = 0
    for stage in reversed(list(fiim.stages.order_by("order"))):
        fresh = [r for r in expected(fiim, stage.ext_id).rows if r.player not in placed]
        block = rows[start:start + len(fresh)]
        assert [line[2] for line in block] == [r.player for r in fresh]
        assert {line[stage_column] for line in block} == {str(stage)}
        placed += [r.player for r in fresh]
        start += len(fresh)
    assert [len(placed), len(rows)] == [70, 70]
    places = [int(line[0]) for line in rows]
    assert places[0] == 1 and places == sorted(places) and places[10] == 11 and places[30] == 31


@pytest.mark.parametrize("ruleset", RULESETS)
def test_xlsx_has_the_final_results_and_every_stage(client: Any, generated: Any, ruleset: str) -> None:
    tournament = generated(f"x-{ruleset}", players=24 if ruleset == "tomsk" else 20, rounds=2, ruleset=ruleset,
                           standings_hidden=False)  # zvezdy's are hidden unless the file says otherwise
    response = client.get(reverse("paper:results_xlsx", args=[tournament.slug]))
    assert response.status_code == 200
    book = load_workbook(io.BytesIO(response.content))
    stages = list(tournament.stages.order_by("order"))
    # one stage still open, no final: "standings after round 2" (docs/rules/awards.md), never "final results"
    assert book.sheetnames[0] == "Standings after round 2" and len(book.sheetnames) == 1 + len(stages)
    sheet = book.worksheets[1]
    header = [c.value for c in sheet[1]]
    standings = expected(tournament, stages[0].ext_id)
    values = list(sheet.iter_rows(min_row=2, values_only=True))
    assert [v[header.index("Player id")] for v in values] == [r.player for r in standings.rows]
    assert [v[header.index("Points")] for v in values] == pytest.approx([float(r.points) for r in standings.rows])


def test_printable_sheet_names_the_winners(client: Any, fiim: Any) -> None:
    final_stage = fiim.stages.order_by("order").last()
    standings = expected(fiim, final_stage.ext_id)
    pages = pdf_pages(pdf_body(client.get(reverse("paper:results_pdf", args=[fiim.slug]))))
    text = "\n".join(pages)
    assert "Winners" in pages[0] and "Final results" in pages[0]
    for pid in standings.winners or ():
        assert next(r.name for r in standings.rows if r.player == pid) in pages[0]
    for row in standings.rows:
        assert row.name in text
    page = client.get(reverse("paper:results", args=[fiim.slug]))
    assert page.status_code == 200 and "<button type=\"button\" data-print>" in page.content.decode()  # site.js


def hide(tournament: Any) -> None:
    tournament.standings_hidden = True
    tournament.save()


URLS = ["paper:results", "paper:results_pdf", "paper:results_xlsx", "paper:results_csv"]


@pytest.mark.parametrize("name", URLS)
def test_nothing_while_hidden(client: Any, fiim: Any, stranger: Any, name: str) -> None:
    hide(fiim)
    some_player = expected(fiim, fiim.stages.first().ext_id).rows[0].name
    for login in (False, True):
        if login:
            client.login(username=stranger.username, password=PASSWORD)
        response = client.get(reverse(name, args=[fiim.slug]))
        assert response.status_code == 403
        assert some_player.encode() not in response.content
    stage = fiim.stages.first().ext_id
    assert client.get(reverse("paper:stage_csv", args=[fiim.slug, stage])).status_code == 403


def test_organizers_get_results_while_hidden_marked(client: Any, fiim: Any, organizer: Any) -> None:
    hide(fiim)
    client.login(username=organizer.username, password=PASSWORD)
    pages = pdf_pages(pdf_body(client.get(reverse("paper:results_pdf", args=[fiim.slug]))))
    assert len(pages) > 4 and all("not for publication" in page for page in pages)
    client.cookies["django_language"] = "en"
    response = client.get(reverse("paper:results_xlsx", args=[fiim.slug]))
    assert response.status_code == 200 and "not-for-publication.xlsx" in response["Content-Disposition"]
    book = load_workbook(io.BytesIO(response.content))
    for sheet in book.worksheets:
        assert sheet["A1"].value == "The standings are hidden: not for publication."
        assert sheet["A2"].value == "Place" and sheet.freeze_panes == "A3"
    stage = fiim.stages.first().ext_id
    response = client.get(reverse("paper:stage_csv", args=[fiim.slug, stage]))
    assert "not-for-publication.csv" in response["Content-Disposition"]
    rows = read_csv(response)
    assert rows[-1] == ["The standings are hidden: not for publication."] and rows[0][0] == "Place"
    assert len(rows) - 3 == len(expected(fiim, stage).rows)  # the header; a blank line and the notice below


def test_published_downloads_carry_no_notice(client: Any, fiim: Any) -> None:
    response = client.get(reverse("paper:results_csv", args=[fiim.slug]))
    assert "publication" not in response["Content-Disposition"]
    assert "-results.csv" in response["Content-Disposition"]  # the whole tournament's, never "final": no stage's
    rows = read_csv(response)
    assert rows[0][0] == "Place" and not any("publication" in line[0] for line in rows if line)


def test_unknown_stage_is_404(client: Any, fiim: Any) -> None:
    assert client.get(reverse("paper:stage_csv", args=[fiim.slug, "nope"])).status_code == 404
