"""The notices queue beside the others: a round's withdrawal waits in the database (``run_after``), and the
dashboard's health counts its wait from when it is due, not from when it was queued."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.utils import timezone, translation

from notices import tasks
from tournaments import background

pytestmark = pytest.mark.django_db


def test_a_deferred_notice_is_not_late_while_it_waits(worker: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    now = timezone.now()
    result = tasks.round_withdrawn.using(run_after=tasks.later(tasks.WITHDRAWN_AFTER)).enqueue(1)
    found = {queue.name: queue for queue in background.health(now)}
    assert found["notices"].waiting == 0 and not found["notices"].late  # not due yet
    DBTaskResult.objects.filter(pk=result.id).update(enqueued_at=now - dt.timedelta(minutes=5),
                                                     run_after=now - dt.timedelta(seconds=5))
    found = {queue.name: queue for queue in background.health(now)}
    assert found["notices"].waiting == 1 and not found["notices"].late
    assert found["notices"].waited_seconds == 5
    with translation.override("ru"):  # the label is translated when read, in the reader's language
        assert found["notices"].label == "Оповещения (эл. почта, Телеграм)"
