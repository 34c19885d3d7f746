"""The results documents' column headings are capitalised as their neighbours: the tie-break columns read
«прожито дней», «раз назван лучшим» beside «Место», «Игрок» (found walking the results as an organizer)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.paper.conftest import csv_of, first_sheet, russian

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_every_heading_starts_with_a_capital(client: Any, import_file: Any, ruleset: str) -> None:
    client = russian(client)
    import_file(f"{ruleset}-example.json", ruleset, standings_hidden=False)
    for heading in (csv_of(client, ruleset)[0], [str(cell) for cell in first_sheet(client, ruleset)[0] if cell]):
        assert heading and all(not cell[:1].islower() for cell in heading), heading
    if ruleset == "tomsk":
        assert "Прожито дней" in csv_of(client, ruleset)[0]
