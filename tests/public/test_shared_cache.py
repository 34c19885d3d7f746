"""The public model cache shared by several app servers through Redis (``public.model_cache``).

Two "servers" are two independent cache clients (two connection pools) on the same Redis and the
same key prefix: the model one builds, the other reads; a result changed through one is what the
other shows next. Each test uses a key prefix of its own and deletes only its own keys, so
concurrent runs and a live site on the same Redis are left alone. Skipped, with the reason, only
when no Redis answers at ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``).
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game

pytestmark = pytest.mark.django_db

SLUG = "fiim-open"
URL = os.environ.get("REDIS_URL", "").strip() or "redis://127.0.0.1:6379/0"


def reachable() -> str | None:
    """None when Redis answers a PING, else why not."""
    import redis

    try:
        redis.Redis.from_url(URL, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as error:
        return f"Redis is unreachable at {URL}: {error}"
    return None


@pytest.fixture
def two_servers(settings: Any, monkeypatch: Any) -> Iterator[tuple[Any, Any, Any]]:
    """Caches "a" (the default, the one views use) and "b" on one Redis with one prefix;
    ``use(alias)`` makes the public views of this process act as that server."""
    import redis

    problem = reachable()
    if problem:
        pytest.skip(problem)
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    redis_cache = {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": URL,
                   "KEY_PREFIX": prefix, "TIMEOUT": 300}
    settings.CACHES = {"default": dict(redis_cache), "b": dict(redis_cache)}
    from public import model_cache

    def use(alias: str) -> None:
        monkeypatch.setattr(model_cache, "cache", caches["default" if alias == "a" else alias])
        model_cache.LOCAL_MODELS.clear()  # another server: nothing of its own read yet

    raw = redis.Redis.from_url(URL)
    yield caches["default"], caches["b"], use
    for key in raw.scan_iter(match=f"{prefix}:*"):
        raw.delete(key)


def fragment(client: Any, url: str) -> str:
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return str(response.content.decode())


def model_rows(queries: Any) -> list[Any]:
    """The queries that read the games' seats: only building a model does."""
    return [q for q in queries.captured_queries if "games_gameseat" in q["sql"]]


def keys(cache: Any) -> list[bytes]:
    client = cache._cache.get_client()
    return list(client.scan_iter(match=f"{cache.key_prefix}:*"))


def test_two_clients_are_really_apart_and_on_one_redis(two_servers: Any) -> None:
    a, b, _use = two_servers
    assert a is not b and a._cache is not b._cache
    a.set("probe", "from a")
    assert b.get("probe") == "from a"
    assert keys(b)


def test_a_result_changed_through_one_server_is_seen_by_the_other(
    client: Any, fiim: Any, two_servers: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    a, _b, use = two_servers
    url = reverse("public:stage_standings", args=[SLUG, "final"])
    use("a")
    before = fragment(client, url)
    assert keys(a), "server a stored nothing in Redis"
    use("b")
    with CaptureQueriesContext(connection) as queries:  # b reads the model a built
        assert fragment(client, url) == before
    assert not model_rows(queries)

    use("a")  # the organizer's request lands on server a
    game = Game.objects.get(table__round__stage__ext_id="final", table__round__number=4)
    game.winner = "black" if game.winner == "red" else "red"
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game.save()

    use("b")
    after = fragment(client, url)
    assert after != before  # b does not serve the fragment of the old version
    use("a")
    with CaptureQueriesContext(connection) as queries:  # and a reads the model b built for the new version
        assert fragment(client, url) == after
    assert not model_rows(queries)
    # A fresh render agrees with the shared one.
    for key in keys(a):
        a._cache.get_client().delete(key)
    assert fragment(client, url) == after


def test_hiding_the_standings_through_one_server_hides_them_on_the_other(
    client: Any, fiim: Any, organizer: Any, two_servers: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    from public.services import hide_standings

    _a, _b, use = two_servers
    url = reverse("public:stage_standings", args=[SLUG, "final"])
    use("b")
    shown = fragment(client, url)
    use("a")
    with django_capture_on_commit_callbacks(execute=True):
        hide_standings(fiim, organizer)
    use("b")
    hidden = fragment(client, url)
    assert 'id="standings"' in shown
    assert 'id="standings"' not in hidden and "Points" not in hidden
