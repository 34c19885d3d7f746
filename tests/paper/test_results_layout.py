"""The results PDF's stage tables have a column per tie-break and did not fit a portrait A4 page: the right-hand
columns (the last tie-breaks, "eligible", "goes on") were cut off (found walking the PDFs). The sheets are
landscape now, rows never split across pages, the header repeats on every page.

Even landscape, a numeric column's header did not wrap (``white-space: nowrap`` of the numbers' cells): the fiim
example's final table ran 168 px past the page's right margin, its last columns off the paper (found rasterizing
the PDF); the text stayed in the file, so only the layout shows it."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.utils import translation
from pypdf import PdfReader

from paper.builds import RESULTS_TEMPLATE, results_context

pytestmark = pytest.mark.django_db


def test_results_pdf_pages_are_landscape(client: Any, import_file: Any) -> None:
    import_file("zvezdy-example.json", "zv", standings_hidden=False)
    client.cookies["django_language"] = "ru"
    reader = PdfReader(io.BytesIO(client.get("/t/zv/results.pdf").content))
    assert all(page.mediabox.width > page.mediabox.height for page in reader.pages)
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "Личные встречи" in text and "Проходит дальше" in text


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_every_results_table_fits_the_page(import_file: Any, ruleset: str) -> None:
    from weasyprint import HTML

    tournament = import_file(f"{ruleset}-example.json", ruleset, standings_hidden=False)
    with translation.override("ru"):
        html = render_to_string(RESULTS_TEMPLATE, {**results_context(tournament), "pdf": True})
    pages = HTML(string=html).render().pages
    past_the_margin = []
    for number, page in enumerate(pages, start=1):
        sheet = page._page_box  # WeasyPrint's laid-out page (no public API gives the boxes' places)
        right = sheet.margin_width() - sheet.margin_right
        past_the_margin += [(number, round(box.position_x + box.margin_width() - right))
                            for box in sheet.descendants() if box is not sheet
                            and box.position_x + box.margin_width() > right + 0.5]
    assert len(pages) > 1 and not past_the_margin, past_the_margin
