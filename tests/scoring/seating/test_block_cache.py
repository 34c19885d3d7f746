"""Block plans kept between calls: one round at a time searches once, same seating."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scoring.seating import SeatingHistory, SeatingRequest, plan, replay, report
from scoring.seating import cache as plans
from tests.scoring.seating.helpers import ids, one_at_a_time


class DictStore:
    def __init__(self) -> None:
        self.data: dict[str, object] = {}

    def get(self, key: str) -> object:
        return self.data.get(key)

    def set(self, key: str, value: object) -> None:
        self.data[key] = value


@pytest.fixture(autouse=True)
def empty_cache() -> Iterator[None]:
    kept = plans._shared[:]
    plans.use_store(None)
    plans.clear()
    yield
    plans.clear()
    plans._shared[:] = kept


@pytest.fixture
def builds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the blocks built (searched or constructed) rather than read from a cache."""
    calls: list[int] = []
    real = replay.build_block

    def counted(*args: Any, **kwargs: Any) -> list[list[list[int]]]:
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(replay, "build_block", counted)
    return calls


def test_later_rounds_reuse_the_first_rounds_block(builds: list[int]) -> None:
    rounds = one_at_a_time(ids(70), 10, 7, seed=3)
    assert len(builds) == 1
    rep = report([r.tables for r in rounds], table_size=10)
    assert rep["q"] == 441 and rep["max_meetings"] == 2  # the whole block: at the bound


def test_a_searched_block_is_searched_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay, "SEARCH_MOVES", 20_000)  # 10 tables of 4: no construction
    searches: list[int] = []
    real = replay.search_offsets
    monkeypatch.setattr(replay, "search_offsets", lambda *a, **kw: searches.append(1) or real(*a, **kw))
    one_at_a_time(ids(40), 4, 4, seed=1)
    assert len(searches) == 1


def test_cached_rounds_are_those_planned_without_the_cache() -> None:
    rounds = one_at_a_time(ids(70), 10, 4, seed=5)
    for done in range(1, 4):
        plans.clear()
        history = SeatingHistory(tuple(r.tables for r in rounds[:done]))
        (alone,) = plan(SeatingRequest(ids(70), 10, "balanced", history, seed=5 + done))
        assert alone == rounds[done]


def test_a_shared_store_serves_another_process(builds: list[int]) -> None:
    store = DictStore()
    plans.use_store(store)
    first = one_at_a_time(ids(70), 10, 1, seed=2)
    assert len(builds) == 1 and len(store.data) == 1
    plans.clear()  # a new worker: nothing in its own memory
    history = SeatingHistory((first[0].tables,))
    (second,) = plan(SeatingRequest(ids(70), 10, "balanced", history, seed=9))
    assert len(builds) == 1
    plans.use_store(None)
    plans.clear()
    assert plan(SeatingRequest(ids(70), 10, "balanced", history, seed=9)) == [second]


def test_a_foreign_value_in_the_store_is_ignored(builds: list[int]) -> None:
    store = DictStore()
    plans.use_store(store)
    first = one_at_a_time(ids(70), 10, 1, seed=2)
    history = SeatingHistory((first[0].tables,))
    (right,) = plan(SeatingRequest(ids(70), 10, "balanced", history))
    for bad in ("junk", [[["p000"]]], [[list(t) for t in first[0].tables[1:]]]):
        store.data = dict.fromkeys(store.data, bad)
        plans.clear()
        assert plan(SeatingRequest(ids(70), 10, "balanced", history)) == [right]
    assert len(builds) == 4
