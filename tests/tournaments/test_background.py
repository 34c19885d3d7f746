"""The background work's health on the organizer's dashboard (tournaments/background.py): each queue's waiting,
running and failed tasks from the task rows, and a warning naming the queue and the command when a task has
waited past ``LATE_AFTER`` (no worker takes that queue)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from tests.conftest import TASKS_IN_DATABASE
from tournaments import background

pytestmark = pytest.mark.django_db


def dashboard(tournament: Any, user: Any, language: str) -> str:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    client.force_login(user)
    response = client.get(f"/t/{tournament.slug}/")
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("ruleset", ["fiim", "tomsk", "kostroma", "zvezdy"])
def test_a_queue_no_worker_takes_is_named_on_the_dashboard(ruleset: str, make_tournament: Any, organizer: Any,
                                                           settings: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    from paper.tasks import build_document

    settings.TASKS = TASKS_IN_DATABASE
    tournament = make_tournament(ruleset)
    calm = dashboard(tournament, organizer, "en")
    assert 'id="background-health"' in calm and "alert-warning" not in calm.split('id="background-health"')[1]
    for _n in range(3):
        build_document.enqueue(tournament.pk, "pdf", "en")
    DBTaskResult.objects.update(enqueued_at=timezone.now() - dt.timedelta(minutes=3))
    page = dashboard(tournament, organizer, "ru")
    section = page.split('id="background-health"')[1]
    assert "«Документы (итоги, дипломы, PDF)»: 3 задачи" in section and "python manage.py db_worker" in section
    assert 'data-queue="documents" class="table-warning"' in section


def test_health_counts_each_queue(settings: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    from running.tasks import run_seating
    from stream.tasks import publish_tables

    settings.TASKS = TASKS_IN_DATABASE
    now = timezone.now()
    run_seating.enqueue(1, "ru")
    publish_tables.enqueue(1, [1])
    failed = run_seating.enqueue(2, "ru")
    DBTaskResult.objects.filter(pk=failed.id).update(status="FAILED", finished_at=now)
    found = {queue.name: queue for queue in background.health(now + dt.timedelta(seconds=5))}
    assert found["seating"].waiting == 1 and found["seating"].failed_last_hour == 1
    assert found["stream"].waiting == 1 and found["documents"].waiting == 0
    assert not any(queue.late for queue in found.values())
    assert found["seating"].last_finished == now


def test_a_task_whose_worker_stopped_is_named(make_tournament: Any, organizer: Any, settings: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    from running.tasks import run_seating

    settings.TASKS = TASKS_IN_DATABASE
    stuck = run_seating.enqueue(1, "ru")
    DBTaskResult.objects.filter(pk=stuck.id).update(status="RUNNING",
                                                    started_at=timezone.now() - dt.timedelta(minutes=20))
    found = {queue.name: queue for queue in background.health()}
    assert found["seating"].running == 1 and found["seating"].stalled == 1 and found["documents"].stalled == 0
    page = dashboard(make_tournament("kostroma"), organizer, "ru").split('id="background-health"')[1]
    assert "«Рассадка»: 1 задача выполняется дольше 15 минут" in page
    assert 'data-queue="seating" class="table-warning"' in page


def test_old_finished_rows_are_pruned(settings: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    from running.tasks import run_seating

    settings.TASKS = TASKS_IN_DATABASE
    old, recent, waiting = (run_seating.enqueue(n, "ru") for n in range(3))
    now = timezone.now()
    DBTaskResult.objects.filter(pk=old.id).update(status="SUCCESSFUL", finished_at=now - dt.timedelta(days=2))
    DBTaskResult.objects.filter(pk=recent.id).update(status="FAILED", finished_at=now - dt.timedelta(hours=2))
    assert background.prune(now) == 1
    assert {str(pk) for pk in DBTaskResult.objects.values_list("pk", flat=True)} == {recent.id, waiting.id}


def test_tasks_that_run_at_once_show_no_health(make_tournament: Any, organizer: Any) -> None:
    """The tests' immediate backend (and any setup without the database queue) has no queue to watch."""
    assert background.health() == []
    assert 'id="background-health"' not in dashboard(make_tournament("fiim"), organizer, "en")


@pytest.mark.parametrize(("argv", "run_main", "started"), [
    (["manage.py", "runserver", "--noreload"], None, True),  # serves in this very process
    (["manage.py", "runserver"], None, False),  # the autoreloader's watching parent
    (["manage.py", "runserver"], "true", True),  # its serving child
    (["manage.py", "migrate"], None, False),
])
def test_make_runs_workers_start_in_the_process_that_serves(monkeypatch: Any, settings: Any, argv: list[str],
                                                             run_main: str | None, started: bool) -> None:
    """With ``TASKS_IN_PROCESS`` the development server's serving process runs the workers: ``runserver
    --noreload`` too (its seatings waited at 0 % for ever), never the reloader's parent or another command."""
    import sys

    from tournaments import background

    settings.TASKS_IN_PROCESS = True
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend", "QUEUES": list(background.QUEUES)}}
    calls: list[bool] = []
    monkeypatch.setattr(background, "start_in_process", lambda: calls.append(True))
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.delenv("TASKS_IN_PROCESS_NOW", raising=False)
    if run_main is None:
        monkeypatch.delenv("RUN_MAIN", raising=False)
    else:
        monkeypatch.setenv("RUN_MAIN", run_main)
    background.start_for_runserver()
    assert calls == ([True] if started else [])
