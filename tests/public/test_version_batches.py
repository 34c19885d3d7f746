"""The results version is bumped once per committed change the public can see, never for a rolled-back one, and
never lost: the batches of ``public.versioning`` (found by weak references, not Django's private list of commit
hooks) against savepoints, rollbacks and a bump that fails."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction

from public.models import ResultsVersion
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def version(t: Tournament) -> int:
    row = ResultsVersion.objects.filter(tournament=t).first()
    return row.version if row else 0


def rename(t: Tournament, name: str) -> None:
    t.name = name
    t.save()


class Undone(Exception):
    pass


def test_committed_changes_bump_and_rolled_back_ones_do_not() -> None:
    t = Tournament.objects.create(slug="batches", name="A", ruleset="fiim")
    base = version(t)
    rename(t, "B")  # no transaction: at once
    assert version(t) == base + 1
    with pytest.raises(Undone), transaction.atomic():
        rename(t, "C")
        raise Undone
    assert version(t) == base + 1
    with transaction.atomic():
        with pytest.raises(Undone), transaction.atomic():
            rename(t, "D")
            raise Undone
        with transaction.atomic():
            rename(t, "E")
        rename(t, "F")
    # a batch per savepoint level that kept a change (the released one and the outer one), none for the undone one
    assert version(t) == base + 3
    with transaction.atomic():
        for n in range(3):
            rename(t, f"G{n}")
    assert version(t) == base + 4  # changes at one level share their batch


def test_a_bump_that_fails_does_not_swallow_the_next_change(monkeypatch: Any, caplog: Any) -> None:
    """Found by a review: a batch whose bump raised a database error stayed alive in the error's traceback, and
    the next transaction's change joined it instead of a batch of its own; that change was never bumped. The
    failure itself is logged, not raised (``after_commit``): the change it follows is committed."""
    from public import versioning

    t = Tournament.objects.create(slug="flaky", name="A", ruleset="fiim")
    base = version(t)
    real = versioning.bump
    calls: list[int] = []

    def flaky(*ids: int) -> None:
        calls.append(1)
        if len(calls) == 1:
            connection.cursor().execute("SELECT * FROM no_such_table_here")
        real(*ids)

    monkeypatch.setattr(versioning, "bump", flaky)
    with caplog.at_level(logging.ERROR, logger="django.db.backends.base"), transaction.atomic():
        rename(t, "B")
    assert Tournament.objects.get(pk=t.pk).name == "B"  # committed whatever the bump did
    assert any(isinstance(record.exc_info[1], DatabaseError) for record in caplog.records if record.exc_info)
    with transaction.atomic():
        rename(t, "C")
    assert version(t) == base + 1 and len(calls) == 2
