"""While one request builds the model of a new results version, the others serve the last built
version at once, with its ETag, instead of every worker building the same model (found by
bench/tournament_day.py: with a protocol submitted every few hundred milliseconds, a 1,000-player
event kept every gunicorn worker rebuilding, and judges' saves waited seconds behind them)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.urls import reverse

from public.cache import tournament_scope
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
    building = f"public-building:{tournament_scope(tournament)}"
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
    building = f"public-building:{tournament_scope(tournament)}"
    cache.add(building, True, 30)
    held = client.get(url)
    cache.delete(building)
    cache.clear()
    assert held.status_code == 200 and client.get(url)["ETag"] == held["ETag"]


def test_while_another_request_renders_a_page_the_last_rendered_one_is_served(
    client: Any, generated: Any, monkeypatch: Any, django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The same for one page's fragment: rendered once at a time, the others serve the last one."""
    from public.views import base

    tournament = generated(SLUG, players=100, rounds=4, standings_hidden=False)
    bump(tournament.pk)
    url = reverse("public:stage_standings", args=[SLUG, "s1"])
    first = client.get(url)
    shown = client.get(url, HTTP_HX_REQUEST="true").content
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    assert client.get(reverse("public:standings", args=[SLUG])).status_code == 200  # the new model is built

    real_add = base.cache.add
    monkeypatch.setattr(base.cache, "add", lambda key, *a, **k: False if key.startswith("public-rendering:")
                        else real_add(key, *a, **k))  # another worker is rendering every page
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    assert client.get(url, HTTP_HX_REQUEST="true").content == shown

    monkeypatch.undo()
    after = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert after.status_code == 200 and client.get(url, HTTP_HX_REQUEST="true").content != shown
    assert not [key for key in cache._cache if "public-rendering:" in key]  # every lock let go


def test_the_model_is_built_again_at_most_every_refresh_interval(
    client: Any, generated: Any, settings: Any, django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """``PUBLIC_REFRESH_SECONDS`` (2 in the production profile, 0 here): within it after a model was
    built, a change is served from that model; past it, the next request builds the new one."""
    tournament = generated(SLUG, players=100, rounds=4, standings_hidden=False)
    bump(tournament.pk)
    url = reverse("public:stage_standings", args=[SLUG, "s1"])
    settings.PUBLIC_REFRESH_SECONDS = 60
    first = client.get(url)
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    settings.PUBLIC_REFRESH_SECONDS = 0
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


@pytest.mark.parametrize(("share", "refresh", "took", "interval"), [
    (5, 2, 0.1, 2), (5, 2, 0.5, 2), (5, 2, 1.5, 6), (5, 0, 3, 0),
    (1, 2, 0.1, 2), (1, 2, 1.5, 2), (1, 2, 3, 2), (1, 0, 3, 0),
])
def test_a_slow_build_waits_longer_before_the_next(settings: Any, share: int, refresh: float, took: float,
                                                    interval: float) -> None:
    """With ``PUBLIC_WORK_SHARE`` 5 builds take at most a fifth of one core on a busy day: the next one waits four
    build times at least; with 1 (the default: the readers' pool is nice'd beside the judges') only
    ``PUBLIC_REFRESH_SECONDS``; never in development and tests, where every change is built at once."""
    from public.snapshot import refresh_interval

    settings.PUBLIC_REFRESH_SECONDS = refresh
    settings.PUBLIC_WORK_SHARE = share
    assert refresh_interval(took) == pytest.approx(interval)


def test_a_built_stamp_kept_by_the_release_before_is_still_read(
    client: Any, generated: Any, settings: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """The last build's stamp outlives a deployment in the shared cache; the one written before the builds' own
    duration was recorded (version, reached, built) must not break the pages (it counts as a quick build)."""
    import time

    from public.cache import built_key, served

    tournament = generated(SLUG, players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    tournament.refresh_from_db()
    settings.PUBLIC_REFRESH_SECONDS = 60
    cache.set(built_key(tournament), (*served(tournament), time.time()), 3600)
    url = reverse("public:stage_standings", args=[SLUG, "s1"])
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    assert client.get(url).status_code == 200
