"""Python's cyclic garbage collector, kept out of the way of a tournament's large builds.

A thousand-player tournament's model is some hundred thousand small objects; reading it, ranking a stage and reading
the figures other workers shared allocate as many again. CPython runs a young collection every 700 allocations and a
full one each time the objects that survived grow by a quarter, and a full collection walks every object the process
holds: Django, the apps, the models it keeps. None of these builds makes garbage cycles worth finding, yet measured in
a public worker (bench/README.md "The collector") the collector took more than half of the CPU a new results version
cost. Two remedies, both the standard ones:

- ``paused()`` around a large build: no collection runs inside it; the objects it made are looked at once after it,
  in the next collection, instead of again and again while it runs.
- ``freeze_loaded()`` once the application is loaded: what the process loaded to start (modules, URL patterns,
  settings, translations) lives as long as the process and is never garbage, so full collections stop walking it
  (``gc.freeze``, as large Python sites do after start-up).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_pauses = 0  # how many ``paused()`` blocks are open in this process, in any thread
_enable_after = False  # whether the collector was on when the first of them opened


@contextmanager
def paused() -> Iterator[None]:
    """No cyclic collection while the block runs (reference counting frees what it drops as always). Blocks may nest
    and overlap across threads: the collector is switched on again when the last one ends, and only if it was on
    when the first began (a test or a caller that switched it off keeps it off)."""
    global _pauses, _enable_after
    with _lock:
        _pauses += 1
        if _pauses == 1:
            _enable_after = gc.isenabled()
            gc.disable()
    try:
        yield
    finally:
        with _lock:
            _pauses -= 1
            if _pauses == 0 and _enable_after:
                gc.enable()


def freeze_loaded() -> None:
    """Loads the URL patterns (every view module, which the first request would import), collects once, then moves
    every object alive now out of the collector's sight for the life of the process. Called by the WSGI and ASGI
    entry points once Django is set up: in each gunicorn worker (which loads the application itself), or once in
    the master with ``--preload``, the workers inheriting the frozen objects."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 -- imports the views now, to be frozen with the rest
    gc.collect()
    gc.freeze()
