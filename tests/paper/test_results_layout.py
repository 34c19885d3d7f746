"""The results PDF's stage tables have a column per tie-break and did not fit a portrait A4 page: the right-hand
columns (the last tie-breaks, "eligible", "goes on") were cut off (found walking the PDFs). The sheets are
landscape now, rows never split across pages, the header repeats on every page."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

pytestmark = pytest.mark.django_db


def test_results_pdf_pages_are_landscape(client: Any, import_file: Any) -> None:
    import_file("zvezdy-example.json", "zv", standings_hidden=False)
    client.cookies["django_language"] = "ru"
    reader = PdfReader(io.BytesIO(client.get("/t/zv/results.pdf").content))
    assert all(page.mediabox.width > page.mediabox.height for page in reader.pages)
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "личные встречи" in text and "Проходит дальше" in text
