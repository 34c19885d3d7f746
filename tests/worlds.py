"""Worlds built once for many tests, and builders that skip the side effects their tests do not read.

**A kept world** (``kept_world``) is pytest-django's answer to Django's ``setUpTestData``: a module- or class-scoped
fixture builds its rows inside a transaction of its own, each test then runs in a savepoint inside it (the usual
``db`` fixture: rolled back after the test), and the transaction is rolled back when the last test of the scope is
done. A test may write whatever it likes: the next one starts from the world as it was built. What a test gets is
a deep copy of the built objects (``fresh``), so no test sees another's changes to them in memory either. Only for
modules without a transactional test (``transactional_db``, ``live_server``): those commit, and a kept world's
transaction would hold them.

**Quiet saves** (``quiet_saves``) switch off, for the ``with`` block only, what a save sets off that a world's
builder has no use for: the history rows (simple-history), the public results version, the rating's triggers and
the stream overlay's publisher. Each is connected again when the block ends, whatever happens in it; a test that
checks one of them builds its world without it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any, TypeVar

import pytest
from django.db import transaction
from django.test import TestCase, override_settings

T = TypeVar("T")


@contextmanager
def kept_world(django_db_blocker: Any) -> Iterator[Callable[..., Any]]:
    """Opens the world's transaction and gives a ``build(function)`` that runs a builder inside it, the database
    open to it; rolls everything back at the end. As in a test, what the builder registers for the commit is not
    run, unless ``build(function, run_commit_callbacks=True)`` (as ``django_capture_on_commit_callbacks(
    execute=True)`` would). Use it in a module- or class-scoped fixture that also asks for ``django_db_setup``."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()

    def build(function: Callable[[], T], *, run_commit_callbacks: bool = False) -> T:
        with django_db_blocker.unblock(), ExitStack() as stack:
            if run_commit_callbacks:
                stack.enter_context(TestCase.captureOnCommitCallbacks(execute=True))
            return function()

    try:
        yield build
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def fresh(world: T) -> T:
    """A test's own copy of a kept world's objects (as Django's ``TestData`` gives each test)."""
    return copy.deepcopy(world)


def build_fiim() -> dict[str, Any]:
    """tests/conftest.py's ``fiim`` and its ``organizer``: the fiim example imported as ``fiim-open``."""
    from exchange.files import import_text
    from tests.conftest import new_user
    from tests.helpers import example_text

    organizer = new_user("director", can_create=True)
    return {"organizer": organizer,
            "fiim": import_text(example_text("fiim-example.json"), slug="fiim-open", organizers=[organizer])}


def kept_fiim_fixtures() -> tuple[Any, Any]:
    """``fiim`` and ``organizer`` for a module whose tests read the fiim example: imported once for the module
    (tests/conftest.py's ``kept_fiim``), not once a test. Bind both in the module (``organizer, fiim =
    kept_fiim_fixtures()``): every test of the module then sees the tournament, whether it asks for it or not."""

    @pytest.fixture(name="organizer")
    def organizer(kept_fiim: dict[str, Any], db: Any) -> Any:
        return fresh(kept_fiim["organizer"])

    @pytest.fixture(name="fiim")
    def fiim(kept_fiim: dict[str, Any], db: Any) -> Any:
        return fresh(kept_fiim["fiim"])

    return organizer, fiim


@contextmanager
def quiet_saves(*, history: bool = True, versioning: bool = True, ratings: bool = True,
                overlay: bool = True) -> Iterator[None]:
    """Saves in this block write no history row (``history``), bump no public results version (``versioning``),
    touch no rating (``ratings``), publish nothing to the stream overlay (``overlay``): each flag set to True
    switches that one off. Everything is connected again on the way out."""
    from mafia_tournament import reactions

    with ExitStack() as stack:
        if history:
            stack.enter_context(override_settings(SIMPLE_HISTORY_ENABLED=False))
        paused = [name for name, off in (("public version", versioning), ("rating", ratings),
                                         ("overlay frames", overlay)) if off]
        if paused:
            stack.enter_context(reactions.paused(*paused))
        yield
