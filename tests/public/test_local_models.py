"""Each process keeps the last models it read, so the pages of a new version do not each unpickle
the tournament's model from the shared cache (found by bench/tournament_day.py: players' pages
spent most of their time there at 1,000 players); the shared cache stays the authority."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from public.versioning import bump

pytestmark = pytest.mark.django_db


def test_pages_of_one_version_read_the_model_from_the_shared_cache_once(
    client: Any, generated: Any, monkeypatch: Any,
) -> None:
    tournament = generated("local", players=40, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    assert client.get(reverse("public:stage_standings", args=["local", "s1"])).status_code == 200
    reads: list[str] = []
    real_get = cache.get
    monkeypatch.setattr(cache, "get", lambda key, *a, **k: (reads.append(key), real_get(key, *a, **k))[1])
    for player in ("p0001", "p0002", "p0003"):
        assert client.get(reverse("public:player", args=["local", player])).status_code == 200
    assert not [key for key in reads if key.startswith("public-model:")]

    monkeypatch.undo()
    cache.clear()  # the shared cache lost it: this process does not serve its own copy
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("public:player", args=["local", "p0004"]))
    assert any("games_gameseat" in q["sql"] for q in queries.captured_queries)  # built again from the rows


def test_pages_of_one_version_compute_the_standings_once(client: Any, generated: Any, rankings: list[str]) -> None:
    """A player's page says why they are ranked there from the stage's standings: computed once per version and
    process, not for each of a thousand players' pages (bench/tournament_day.py: most of the workers' time)."""
    tournament = generated("local", players=40, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    computed = rankings
    pages = [client.get(reverse("public:player", args=["local", player])).content.decode()
             for player in ("p0001", "p0002", "p0003")]
    assert computed == ["s1"]
    assert all('id="why-s1"' in page for page in pages)

    bump(tournament.pk)  # a new version: its model, so its standings
    assert client.get(reverse("public:player", args=["local", "p0004"])).status_code == 200
    assert computed == ["s1", "s1"]
