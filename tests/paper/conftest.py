from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from exchange.reading import to_model
from scoring.standings import Standings, compute_standings
from scoring.validation import ruleset_for


@pytest.fixture(autouse=True)
def english(client: Any) -> None:
    client.cookies["django_language"] = "en"


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page of a PDF."""
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def pdf_body(response: Any) -> bytes:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return b"".join(response.streaming_content) if response.streaming else response.content


def russian(client: Any) -> Any:
    client.cookies["django_language"] = "ru"
    return client


def csv_of(client: Any, slug: str) -> list[list[str]]:
    text = client.get(reverse("paper:results_csv", args=[slug])).content.decode("utf-8")
    assert text.startswith("\ufeff")  # a spreadsheet program reads the Cyrillic
    return list(csv.reader(io.StringIO(text[1:]), delimiter=";"))  # Russian: ";" as before


def first_sheet(client: Any, slug: str) -> list[list[Any]]:
    book = load_workbook(io.BytesIO(client.get(reverse("paper:results_xlsx", args=[slug])).content))
    return [["" if v is None else v for v in row] for row in book.worksheets[0].iter_rows(values_only=True)]


def standings_of(tournament: Any) -> dict[str, Standings]:
    model = to_model(tournament)
    ruleset = ruleset_for(model)[0]
    return {stage.id: compute_standings(model, stage.id, ruleset) for stage in model.stages}
