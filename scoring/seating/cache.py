"""Block plans kept between calls, so seating one round at a time searches once.

A replayed block (replay.py) is a pure function of its inputs, so it is kept under a digest of
them: in this process (a small LRU), and, where the caller installs one with `use_store`, in a
shared store (the web app's cache, seen by every worker). A value read back is checked for
shape and otherwise computed again, so a stale or foreign entry can never change a seating.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable
from typing import Protocol

import cachetools

Block = tuple[tuple[tuple[str, ...], ...], ...]  # rounds of tables of player ids, in seat order

LOCAL_SIZE = 16


class PlanStore(Protocol):
    """A shared key-value store (Django's cache has this shape)."""

    def get(self, key: str) -> object: ...

    def set(self, key: str, value: object) -> None: ...


_local: cachetools.LRUCache[str, Block] = cachetools.LRUCache(LOCAL_SIZE)
_lock = threading.Lock()  # seating jobs run in worker threads; cachetools' caches are not thread-safe
_shared: list[PlanStore] = []


def use_store(store: PlanStore | None) -> None:
    """Share block plans through `store` as well (None: this process only)."""
    _shared[:] = [] if store is None else [store]


def clear() -> None:
    """Forget the plans kept in this process (tests)."""
    with _lock:
        _local.clear()


def digest(*parts: object) -> str:
    """A key naming these inputs (plain data: ints, strings, lists)."""
    text = json.dumps(parts, separators=(",", ":"), sort_keys=True)
    return "seating-block:" + hashlib.sha256(text.encode()).hexdigest()


def cached_block(key: str, compute: Callable[[], Block], valid: Callable[[Block], bool]) -> Block:
    """The block stored under `key`, computed (and stored) when neither store has a `valid` one."""
    with _lock:
        block = _local.get(key)
    if block is not None:
        return block
    block = _from_shared(key, valid)
    if block is None:
        block = compute()
        for store in _shared:
            store.set(key, [[list(t) for t in tables] for tables in block])
    with _lock:
        _local[key] = block
    return block


def _from_shared(key: str, valid: Callable[[Block], bool]) -> Block | None:
    for store in _shared:
        block = _as_block(store.get(key))
        if block is not None and valid(block):
            return block
    return None


def _as_block(value: object) -> Block | None:
    """The stored lists back as a block, or None when they are not one."""
    if not isinstance(value, (list, tuple)) or not value:
        return None
    rounds = []
    for tables in value:
        if not isinstance(tables, (list, tuple)):
            return None
        round_ = []
        for table in tables:
            if not isinstance(table, (list, tuple)) or not all(isinstance(p, str) for p in table):
                return None
            round_.append(tuple(str(p) for p in table))
        rounds.append(tuple(round_))
    return tuple(rounds)
