"""A published zvezdy table: the head-to-head tie-break is null for players whose points are not
tied, and the page, its htmx fragment and the English page answered 500 on it."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["ru", "en"])
def test_published_zvezdy_standings_render(client: Any, import_file: Any, language: str) -> None:
    tournament = import_file("zvezdy-example.json", "zvezdy-open")
    tournament.standings_hidden = False
    tournament.save()
    client.cookies["django_language"] = language
    page = client.get("/p/zvezdy-open/standings/")
    fragment = client.get("/p/zvezdy-open/standings/", headers={"HX-Request": "true"})
    assert page.status_code == 200 and fragment.status_code == 200
    assert 'id="standings"' in page.content.decode() and 'id="standings"' in fragment.content.decode()
