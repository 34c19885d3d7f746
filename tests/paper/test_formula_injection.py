"""A player or team named like a spreadsheet formula must stay text in every XLSX and CSV the
app produces (``results.xlsx``, ``results.csv``, each stage's CSV); numbers stay numbers (points as
numbers in XLSX and as exact decimal text in CSV)."""

from __future__ import annotations

import csv
import io
import zipfile
from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation
from openpyxl import load_workbook

from paper import spreadsheets
from paper.results import Column, ResultTable

pytestmark = pytest.mark.django_db

PAYLOADS = ['=HYPERLINK("http://x","y")', "=1+1", "-1+2", "@SUM(A1)", "\t=1", "\r=1", "+1"]


def read_csv(data: str) -> list[list[str]]:
    assert data.startswith("\ufeff")
    return list(csv.reader(io.StringIO(data[1:], newline="")))


def workbook_xml(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return "".join(archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/"))


def table_of(names: list[str]) -> ResultTable:
    columns = [Column("place", "Place", True), Column("name", "Player"), Column("points", "Points", True)]
    rows = [{"place": i, "name": name, "points": Fraction(-1, 2) if i % 2 else Fraction(9, 4)}
            for i, name in enumerate(names, start=1)]
    return ResultTable("final", "=Final", columns, rows, winners=[names[0]])


def test_csv_text_cells_are_quoted_numbers_are_not() -> None:
    for payload in PAYLOADS:
        assert spreadsheets.csv_cell(payload) == "'" + payload
    cell = spreadsheets.csv_cell
    assert cell(Fraction(-1, 2)) == "-0.5" and cell(-3) == "-3" and cell(Fraction(9, 4)) == "2.25"
    assert cell("Иванов") == "Иванов" and cell(None) == "" and cell("a=1") == "a=1"
    with translation.override("en"):
        rows = read_csv(spreadsheets.to_csv(table_of(PAYLOADS), notice="=not for publication"))
    assert rows[-2:] == [[], ["'=not for publication"]]  # below the table: the header is the first line
    assert ["Winners", "'" + PAYLOADS[0]] in rows  # the winners below the table: a name is text there too
    body = rows[1:1 + len(PAYLOADS)]
    assert [r[1] for r in body] == ["'" + p for p in PAYLOADS]
    assert [r[2] for r in body] == ["-0.5" if i % 2 else "2.25" for i in range(1, len(PAYLOADS) + 1)]
    assert [r[0] for r in body] == [str(i) for i in range(1, len(PAYLOADS) + 1)]
    # in Russian: ";" between cells, a decimal comma (Excel in a Russian locale reads the file so)
    with translation.override("ru"):
        rows = list(csv.reader(io.StringIO(spreadsheets.to_csv(table_of(PAYLOADS))[1:], newline=""), delimiter=";"))
    body = rows[1:1 + len(PAYLOADS)]
    assert [r[2] for r in body] == ["-0,5" if i % 2 else "2,25" for i in range(1, len(PAYLOADS) + 1)]
    assert [r[1] for r in body] == ["'" + p for p in PAYLOADS]


def test_xlsx_text_cells_are_strings_never_formulas() -> None:
    data = spreadsheets.to_xlsx([table_of(PAYLOADS)], notice="=1+1")
    assert "<f>" not in workbook_xml(data) and "<f " not in workbook_xml(data)
    sheet = load_workbook(io.BytesIO(data)).worksheets[0]
    assert sheet["A1"].value == "=1+1" and sheet["A1"].data_type == "s"
    names = [row[1] for row in sheet.iter_rows(min_row=3, max_row=2 + len(PAYLOADS))]
    # Not mangled: the very text (XML reads a carriage return back as a line feed).
    assert [c.value for c in names] == [p.replace("\r", "\n") for p in PAYLOADS]
    assert all(c.data_type == "s" for c in names)
    points = [row[2] for row in sheet.iter_rows(min_row=3, max_row=2 + len(PAYLOADS))]
    assert [c.value for c in points] == [-0.5 if i % 2 else 2.25 for i in range(1, len(PAYLOADS) + 1)]
    assert all(c.data_type == "n" for c in points)
    winners = sheet.cell(row=sheet.max_row, column=2)
    assert winners.value.startswith(PAYLOADS[0]) and winners.data_type == "s"


def test_xlsx_cell_drops_characters_xml_cannot_hold() -> None:
    """A control character in a name (the XML of a workbook cannot hold it) is not a 500."""
    from openpyxl import Workbook

    sheet = Workbook().active
    cell = spreadsheets.xlsx_cell(sheet, "A\x01B\x0b=")
    assert cell.data_type == "s" and "\x01" not in cell.value and cell.value.startswith("A")
    data = spreadsheets.to_xlsx([table_of(["=1\x02+1", "ok"])])
    assert load_workbook(io.BytesIO(data)).worksheets[0]["B2"].data_type == "s"


@pytest.fixture
def payload_tournament(import_file: Any) -> Any:
    """A generated fiim tournament whose players and teams are named with the payloads."""
    from scoring import fileio
    from scoring.generate import generate

    data = fileio.dump(generate("fiim", players=20, rounds=2, seed=7, stages=1))
    data["teams"] = [{"id": f"t{i}", "name": payload} for i, payload in enumerate(PAYLOADS[:2])]
    for i, player in enumerate(data["players"]):
        player["name"] = PAYLOADS[i % len(PAYLOADS)] + f" {i}"
        player["team"] = f"t{i % 2}"
    data["tournament"] = {"name": "=1+1 Cup", "standings_hidden": False}
    return import_file(data, "formula-cup")


def names_in(tournament: Any) -> set[str]:
    return {str(p.player.display_name) for p in tournament.participants.select_related("player")}


def test_results_downloads_keep_payload_names_as_text(client: Any, payload_tournament: Any) -> None:
    slug = payload_tournament.slug
    names = names_in(payload_tournament)
    assert any(n.startswith("=HYPERLINK") for n in names)
    stage = payload_tournament.stages.get()
    for url in (reverse("paper:results_csv", args=[slug]), reverse("paper:stage_csv", args=[slug, stage.ext_id])):
        response = client.get(url)
        assert response.status_code == 200
        rows = read_csv(response.content.decode("utf-8"))
        rows = rows[:next((i for i, r in enumerate(rows) if not r), len(rows))]  # the final results' title below
        header, body = rows[0], rows[1:]
        name, team = header.index("Player"), header.index("Team")
        points = header.index("Points" if "Points" in header else "Points in that stage")
        assert {r[name] for r in body} == {"'" + n if n[0] in "=+-@\t\r" else n for n in names}
        assert {r[team] for r in body} == {"'" + p for p in PAYLOADS[:2]}
        for line in body:
            float(line[points])  # exact decimal text, not quoted
            assert not any(cell[:1] in ("=", "+", "@", "\t", "\r") for cell in line)
            assert not any(cell[:1] == "-" and not cell.lstrip("-").replace(".", "").isdigit() for cell in line)
    rows = read_csv(client.get(reverse("paper:teams_csv", args=[slug, stage.ext_id])).content.decode("utf-8"))
    assert {r[2] for r in rows[1:]} >= {"'" + p for p in PAYLOADS[:2]}
    response = client.get(reverse("paper:results_xlsx", args=[slug]))
    assert response.status_code == 200
    xml = workbook_xml(response.content)
    assert "<f>" not in xml and "<f " not in xml
    book = load_workbook(io.BytesIO(response.content))
    for sheet in book.worksheets:
        header = [c.value for c in sheet[1]]
        if "Player" not in header:  # a stage's team table: the team names stay text, the points numbers
            team, points_col = header.index("Team"), header.index("Points")
            rows = list(sheet.iter_rows(min_row=2))
            assert {r[team].value for r in rows} >= set(PAYLOADS[:2]) and all(r[team].data_type == "s" for r in rows)
            assert all(r[points_col].data_type == "n" for r in rows)
            continue
        name, points = header.index("Player") + 1, header.index("Points") + 1 if "Points" in header else None
        values = set()
        for row in sheet.iter_rows(min_row=2, max_row=1 + payload_tournament.participants.count()):
            cell = row[name - 1]
            assert cell.data_type == "s", (sheet.title, cell.value)
            values.add(cell.value)
            if points is not None:
                assert row[points - 1].data_type == "n"
        assert values <= {n.replace("\r", "\n") for n in names}
        assert sheet.cell(row=2, column=1).data_type == "n"  # the place is a number
