"""The one way the apps act once a change is committed (the public version, the rating, the notifications, the
overlay's frames, queued tasks), with one behaviour for every one of them:

- it runs once the transaction commits (at once outside a transaction), never for a change rolled back: a
  savepoint rolled back drops what was registered inside it (Django's ``on_commit``);
- a failure is logged, never raised (``robust=True``): the change itself is committed, and the reactions after
  this one must still run.

``after_commit(fn)`` is for one action. ``Collector`` is for a reaction fired by many saves of one transaction
(a protocol saved seat by seat): the keys of one savepoint level gather in one batch, handled once on commit.
What a save sets off is listed in one place, ``mafia_tournament/reactions.py``.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from django.db import transaction

K = TypeVar("K", bound=Hashable)


def after_commit(action: Callable[[], object]) -> None:
    """``action()`` once the current transaction commits; logged, not raised, if it fails."""
    transaction.on_commit(action, robust=True)


class Batch(Generic[K]):
    """The keys gathered at one savepoint level. Only Django's list of commit hooks holds a batch (through its
    bound ``run``), so it is gone when that savepoint or transaction rolls back."""

    def __init__(self, handle: Callable[[list[K]], None], key: K) -> None:
        self.handle = handle
        self.keys = {key: None}  # each key once, in the order of the changes
        self.ran = False

    def run(self) -> None:
        self.ran = True  # even if the handler fails: later changes need a batch of their own
        self.handle(list(self.keys))


class Collector(Generic[K]):
    """Keys gathered per transaction (per savepoint level) and handed to ``handle`` once it commits, each key
    once, in the order the changes came."""

    def __init__(self, handle: Callable[[list[K]], None]) -> None:
        self.handle = handle
        # The batch waiting at each savepoint level, per connection, found by weak reference: a batch dropped with
        # a rolled-back savepoint is gone; one that has run is marked so (a failed handler's traceback may keep it
        # alive a while). A live batch that has not run still waits for the commit, and this level's keys join it.
        self.pending: weakref.WeakKeyDictionary[Any, dict[tuple[str, ...], weakref.ref[Batch[K]]]] = (
            weakref.WeakKeyDictionary())

    def add(self, key: K) -> None:
        wrapper = transaction.get_connection()  # this thread's connection, not the proxy every thread shares
        if not wrapper.in_atomic_block:
            after_commit(Batch(self.handle, key).run)  # committed already: runs at once
            return
        level = tuple(wrapper.savepoint_ids)
        waiting = self.pending.setdefault(wrapper, {})
        found = waiting.get(level)
        batch = found() if found is not None else None
        if batch is not None and not batch.ran:
            batch.keys.setdefault(key)
            return
        for gone in [other for other, ref in waiting.items() if (kept := ref()) is None or kept.ran]:
            del waiting[gone]
        batch = Batch(self.handle, key)
        waiting[level] = weakref.ref(batch)
        after_commit(batch.run)
