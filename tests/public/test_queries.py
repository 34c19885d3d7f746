"""Every public page and API answer uses the same number of queries whatever the tournament's
size (a cold cache), and one query when its fragment is cached."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from public.model_cache import LOCAL_MODELS

pytestmark = pytest.mark.django_db


def urls(slug: str) -> list[str]:
    return [
        "/p/", f"/p/{slug}/", f"/p/{slug}/rules/", f"/p/{slug}/where/?q=Player 1",
        f"/p/{slug}/seating/", f"/p/{slug}/seating/s1/2/", f"/p/{slug}/standings/",
        f"/p/{slug}/standings/s1/", f"/p/{slug}/players/p0001/", f"/p/{slug}/games/s1/1/1/",
        "/api/tournaments/", f"/api/tournaments/{slug}/", f"/api/tournaments/{slug}/stages/",
        f"/api/tournaments/{slug}/rounds/", f"/api/tournaments/{slug}/rounds/s1/2/seating/",
        f"/api/tournaments/{slug}/games/", f"/api/tournaments/{slug}/standings/?stage=s2",
        f"/api/tournaments/{slug}/awards/",
    ]


def counts(client: Any, slug: str) -> dict[str, int]:
    out = {}
    for url in urls(slug):
        cache.clear()
        LOCAL_MODELS.clear()
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200, url
        out[url.replace(slug, "SLUG")] = len(queries)
    return out


def test_query_counts_do_not_grow_with_the_tournament(client: Any, generated: Any) -> None:
    generated("small", players=20, rounds=4, stages=2)
    generated("large", players=100, rounds=8, stages=2, standings_hidden=False)
    small, large = counts(client, "small"), counts(client, "large")
    assert small == large
    assert max(small.values()) <= 20, small


def test_an_unchanged_page_costs_one_query_and_a_page_read_again_builds_no_model(
    client: Any, generated: Any, django_assert_num_queries: Any,
) -> None:
    """What the proxy asks again with the ETag costs the version's query; a page rendered again within a version
    reads the model kept (``public.model_cache``), so it costs only its own few queries."""
    generated("large", players=100, rounds=8, stages=2)
    for url in urls("large")[1:10]:
        first = client.get(url)
        with django_assert_num_queries(1):
            assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        assert not [q for q in queries.captured_queries if "games_gameseat" in q["sql"]], url  # the model's rows


def test_api_answers_read_the_kept_model_and_follow_the_version(
    client: Any, generated: Any, django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """The standings and games answers are computed from the model kept for the version: read again, they build
    nothing; after a new version, the new model is built."""
    from public.versioning import bump

    tournament = generated("large", players=100, rounds=8, stages=2, standings_hidden=False)
    for url in ["/api/tournaments/large/standings/?stage=s2", "/api/tournaments/large/standings/",
                "/api/tournaments/large/games/?stage=s1&round=2"]:
        first = client.get(url).json()
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).json() == first
        assert not [q for q in queries.captured_queries if "games_gameseat" in q["sql"]], url
        with django_capture_on_commit_callbacks(execute=True):
            bump(tournament.pk)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).json() == first
        assert [q for q in queries.captured_queries if "games_gameseat" in q["sql"]], url  # a new version's model


def test_the_model_is_built_once_per_version_for_every_page(
    client: Any, generated: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """After a change, the first page builds the tournament's model; other pages reuse it from the
    shared cache until the next change."""
    from public.versioning import bump

    tournament = generated("large", players=100, rounds=8, stages=2, standings_hidden=False)

    def cold_queries(url: str) -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        return len(queries)

    first = cold_queries("/p/large/players/p0001/")
    other = cold_queries("/p/large/players/p0002/")
    assert other < first
    with django_capture_on_commit_callbacks(execute=True):
        bump(tournament.pk)
    # built again, from the games this process converted before (no game changed: their seats, protests and rows
    # are not read again, exchange.reading.ConvertedGames; on SQLite, with no digest of the rows, all of them are)
    assert cold_queries("/p/large/players/p0003/") == (first - 3 if connection.vendor == "postgresql" else first)
