"""A query string the page does not read is the same page, with the same ETag (``?x=1`` made another
page): the page links to itself without it, so a reader's ``?utm_source`` is never in anybody's page."""

from __future__ import annotations

from typing import Any

import pytest

from public.versioning import bump

pytestmark = pytest.mark.django_db


def test_an_unknown_query_string_is_served_from_the_cache(client: Any, generated: Any) -> None:
    tournament = generated("qs", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    for url in ("/p/qs/standings/", "/p/qs/seating/", "/p/qs/", "/p/qs/players/p0001/"):
        first = client.get(url)
        for query in ("?x=1", "?x=2&y=3", "?utm_source=telegram", "?" + "a" * 2000):
            again = client.get(url + query)
            assert again.status_code == 200 and again.content == first.content, url + query
            assert client.get(url + query, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        fragment = client.get(url + "?x=9", HTTP_HX_REQUEST="true")
        assert fragment.content.decode() in first.content.decode()


def test_the_search_reads_its_query(client: Any, generated: Any) -> None:
    """"Where do I sit?" reads ``q``: each search is its own answer, other parameters still change nothing."""
    tournament = generated("qs", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    hx = {"HTTP_HX_REQUEST": "true"}
    one = client.get("/p/qs/where/?q=Player 1", **hx).content.decode()
    two = client.get("/p/qs/where/?q=Player 2", **hx).content.decode()
    assert one != two and "Player 1" in one
    assert client.get("/p/qs/where/?q=Player 1&x=1", **hx).content.decode() == one
