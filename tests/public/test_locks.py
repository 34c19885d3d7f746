"""The cache's locks (``model_cache.take_lock``): a holder lets go of its own lock only. A holder slower than its
lock's seconds finds it expired and perhaps taken by another worker; letting go then must leave the other's lock
alone, or a third worker would build beside the second (the model's build, a figure, a document's build slot)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.cache import cache

from paper import documents
from public import model_cache
from public import snapshot as snapshots
from scoring import model as m

pytestmark = pytest.mark.django_db


def expire_and_take(name: str) -> str:
    """What happens while a slow holder works: its lock expires (deleted here) and another worker takes it."""
    cache.delete(name)
    token = model_cache.take_lock(name, 30)
    assert token is not None
    return token


def test_a_lock_is_let_go_only_by_its_holder() -> None:
    name = "test-locks:plain"
    cache.delete(name)
    first = model_cache.take_lock(name, 30)
    assert first is not None and model_cache.take_lock(name, 30) is None  # held
    other = expire_and_take(name)
    model_cache.release_lock(name, first)
    assert cache.get(name) == other  # the other's, still held
    model_cache.release_lock(name, other)
    assert cache.get(name) is None


def test_a_model_build_that_outlives_its_lock_leaves_the_next_holders(generated: Any) -> None:
    tournament = generated("locks-model", players=20, rounds=1, standings_hidden=False)
    lock = model_cache.building_lock(tournament)
    cache.delete(lock)
    others: list[str] = []

    def slow_build() -> m.Tournament:
        others.append(expire_and_take(lock))
        return snapshots.Snapshot(tournament).build()

    assert model_cache.built_under_lock(tournament, slow_build, None) is not None
    assert others and cache.get(lock) == others[0]


def test_a_holder_in_time_lets_go_of_its_own_lock(generated: Any) -> None:
    tournament = generated("locks-in-time", players=20, rounds=1, standings_hidden=False)
    lock = model_cache.building_lock(tournament)
    cache.delete(lock)
    assert model_cache.built_under_lock(tournament, snapshots.Snapshot(tournament).build, None) is not None
    assert cache.get(lock) is None
    key = "test-locks:in-time"
    cache.delete(key)
    assert model_cache.computed_once(key, lambda: {"p01": 1}) == {"p01": 1}
    assert cache.get(f"{key}:computing") is None
    with documents.build_slot():
        assert cache.get("document-build-slot:0") is not None
    assert cache.get("document-build-slot:0") is None


def test_a_figure_computed_past_its_lock_leaves_the_next_holders() -> None:
    key = "test-locks:figure"
    cache.delete(key)
    lock = f"{key}:computing"
    cache.delete(lock)
    others: list[str] = []

    def slow() -> dict[str, int]:
        others.append(expire_and_take(lock))
        return {"p01": 1}

    assert model_cache.computed_once(key, slow) == {"p01": 1}
    assert cache.get(lock) == others[0]


def test_a_build_slot_held_past_its_seconds_leaves_the_next_holders(settings: Any) -> None:
    settings.DOCUMENT_BUILDS_AT_ONCE = 1
    slot = "document-build-slot:0"
    cache.delete(slot)
    with documents.build_slot() as number:
        assert number == 0
        other = expire_and_take(slot)
    assert cache.get(slot) == other
    model_cache.release_lock(slot, other)



def test_on_redis_the_check_and_the_delete_are_one_step(monkeypatch: Any) -> None:
    """Read, then deleted, a lock that expired between the two and was taken by another worker was deleted with it:
    on Redis the holder lets go in one script, never through the cache's own read and delete. (A Redis cache of the
    test's own key prefix: the public tests' default cache is this process's memory.)"""
    from django.core.cache.backends.redis import RedisCache

    from tests.public.test_shared_cache import URL, reachable

    problem = reachable()
    if problem:
        pytest.skip(problem)
    store = RedisCache(URL, {"KEY_PREFIX": f"test-{uuid.uuid4().hex[:12]}"})
    name = "locks:one-step"
    first = model_cache.take_lock(name, 30, store)
    assert first is not None
    store.delete(name)  # expired while its holder worked, and taken by another worker
    other = model_cache.take_lock(name, 30, store)
    assert other is not None

    def apart(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the lock was read and deleted in two steps")

    for token in (first, other):  # the other's lock stays; then the other lets go of its own
        with monkeypatch.context() as patched:
            patched.setattr(RedisCache, "get", apart)
            patched.setattr(RedisCache, "delete", apart)
            model_cache.release_lock(name, token, store)
        assert store.get(name) == (other if token == first else None)
