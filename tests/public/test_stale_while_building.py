"""While one request builds the model of a new results version, the others serve the last built
version at once, with its ETag, instead of every worker building the same model (found by
bench/tournament_day.py: with a protocol submitted every few hundred milliseconds, a 1,000-player
event kept every gunicorn worker rebuilding, and judges' saves waited seconds behind them)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from public.model_cache import building_lock
from public.versioning import bump
from tests.helpers import flip_a_result

pytestmark = pytest.mark.django_db

SLUG = "large"


def test_while_another_request_builds_the_new_version_the_last_built_one_is_served(
    client: Any, generated: Any, django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = generated(SLUG, players=100, rounds=4, standings_hidden=False)
    bump(tournament.pk)  # as the import's commit does outside the test's transaction
    url = reverse("public:stage_standings", args=[SLUG, "s1"])
    first = client.get(url)
    shown = client.get(url, HTTP_HX_REQUEST="true").content  # the part that changes with results
    assert first.status_code == 200

    flip_a_result(tournament, django_capture_on_commit_callbacks)
    building = building_lock(tournament)
    assert cache.add(building, True, 30)  # another worker is building the new version's model
    with django_assert_num_queries(1):  # the version only: no model built, no page rendered
        meanwhile = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert meanwhile.status_code == 304  # this browser has the last built version already
    assert client.get(url, HTTP_HX_REQUEST="true").content == shown

    cache.delete(building)  # built (or given up): the next request builds and serves the new version
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true").content != shown
    assert not cache.has_key(building)  # the request that built it let go


def test_with_nothing_built_yet_the_current_version_is_served(client: Any, generated: Any) -> None:
    """Only a version whose model is built may stand in; otherwise the request builds its own."""
    tournament = generated(SLUG, players=40, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    url = reverse("public:stage_standings", args=[SLUG, "s1"])
    building = building_lock(tournament)
    cache.add(building, True, 30)
    held = client.get(url)
    cache.delete(building)
    cache.clear()
    assert held.status_code == 200 and client.get(url)["ETag"] == held["ETag"]


def test_a_built_stamp_kept_by_the_release_before_is_still_read(
    client: Any, generated: Any, settings: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """The last build's stamp outlives a deployment in the shared cache; one written by the release before
    (version, reached, built, took) must not break the pages."""
    import time

    from public.model_cache import building_lock, built_key

    tournament = generated(SLUG, players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    tournament.refresh_from_db()
    stamp = (tournament.results_version.version, tournament.results_version.updated)
    cache.set(built_key(tournament), (*stamp, time.time(), 0.1), 3600)
    url = reverse("public:stage_standings", args=[SLUG, "s1"])
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    assert cache.add(building_lock(tournament), True, 30)  # another worker builds: the old stamp is served
    assert client.get(url).status_code == 200


def test_the_model_is_built_again_at_most_every_rebuild_interval(
    client: Any, generated: Any, settings: Any, django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """``MODEL_REBUILD_SECONDS`` (1 in the production profile, 0 here): within it after a model was built, a change
    is served from that model with its ETag (the proxy's revalidations stay 304s); past it, the next request builds
    the new one."""
    tournament = generated(SLUG, players=40, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    url = reverse("public:stage_standings", args=[SLUG, "s1"])
    settings.MODEL_REBUILD_SECONDS = 60
    first = client.get(url)
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    settings.MODEL_REBUILD_SECONDS = 0
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


def test_a_players_figures_are_computed_once_per_version_by_one_worker(
    client: Any, generated: Any, monkeypatch: Any,
) -> None:
    """Each player's rank and points (``Snapshot.totals``) are shared through the cache: another worker's first
    player page of the version computes no standings."""
    import public.snapshot as snapshot
    from public.model_cache import LOCAL_MODELS

    tournament = generated(SLUG, players=40, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    assert client.get(reverse("public:player", args=[SLUG, "p0001"])).status_code == 200
    LOCAL_MODELS.clear()  # another worker: nothing of its own yet
    monkeypatch.setattr(snapshot, "compute_standings", lambda *a, **k: (_ for _ in ()).throw(AssertionError("again")))
    assert client.get(reverse("public:player", args=[SLUG, "p0002"])).status_code == 200


@pytest.mark.parametrize("url", [f"/p/{SLUG}/standings/s1/", f"/api/tournaments/{SLUG}/standings/?stage=s1"])
def test_an_older_version_served_is_kept_by_the_proxy_one_second(
    client: Any, generated: Any, settings: Any, django_capture_on_commit_callbacks: Any, url: str,
) -> None:
    """While the new version's model is built, the answer of the version before (200, or 304 to the proxy's
    revalidation) is kept one second, not ``PROXY_CACHE_SECONDS``: the proxy asks again as soon as the newer one may
    be there, instead of keeping a copy already behind for its whole validity again. For nginx, which counts whole
    seconds (``s-maxage=1`` kept a copy 1 to 2 s), only to the end of the second it was made in (``X-Accel-Expires``,
    an absolute moment, after ``Cache-Control`` so that nginx still reads its ``stale-while-revalidate``)."""
    settings.PROXY_CACHE_SECONDS = 2
    tournament = generated(SLUG, players=40, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    first = client.get(url)
    assert "s-maxage=2," in first["Cache-Control"] and not first.has_header("X-Accel-Expires")

    flip_a_result(tournament, django_capture_on_commit_callbacks)
    building = building_lock(tournament)
    assert cache.add(building, True, 30)  # another worker is building the new version's model
    before = int(time.time())
    revalidated = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    older = client.get(url)
    for answer in (revalidated, older):
        assert "s-maxage=1," in answer["Cache-Control"]
        assert before <= int(answer["X-Accel-Expires"].removeprefix("@")) <= time.time()
        names = [name.lower() for name in answer.headers]
        assert names.index("cache-control") < names.index("x-accel-expires")
    assert revalidated.status_code == 304

    cache.delete(building)  # built: the current version's answer is kept its whole validity
    current = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert current.status_code == 200 and "s-maxage=2," in current["Cache-Control"]
    assert not current.has_header("X-Accel-Expires")
