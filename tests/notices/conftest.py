from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import timezone

from tests.notices.servers import TOKEN, BotServer, SMTPServer

TASKS_IN_DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                 "QUEUES": ["stream", "seating", "documents", "notices"]}}


@pytest.fixture
def smtp(settings: Any) -> Iterator[SMTPServer]:
    server = SMTPServer().start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", server.port
    settings.EMAIL_USE_TLS = False
    yield server
    server.stop()


@pytest.fixture
def bot(settings: Any) -> Iterator[BotServer]:
    server = BotServer().start()
    settings.TELEGRAM_API_URL, settings.TELEGRAM_BOT_TOKEN, settings.TELEGRAM_BOT_NAME = server.url, TOKEN, ""
    settings.SITE_URL = "https://mafia.example.org"
    yield server
    server.stop()


class Worker:
    """The notices queue's worker, run by hand: ``run()`` takes every task due (db_worker --batch);
    ``later()`` makes the deferred ones due first (a round's withdrawal waits ``WITHDRAWN_AFTER``)."""

    def run(self) -> None:
        """In the test's transaction: the worker's ``close_old_connections`` would close it (its autocommit is
        off), so it is left out here."""
        from unittest import mock

        with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
            self._run()

    def _run(self) -> None:
        call_command("db_worker", queue_name="notices", batch=True, reload=False, interval=0, startup_delay=False,
                     verbosity=0)

    def later(self) -> None:
        from django_tasks_db.models import DBTaskResult, get_date_max

        DBTaskResult.objects.filter(status="READY", queue_name="notices").exclude(run_after=get_date_max()) \
            .update(run_after=timezone.now() - dt.timedelta(seconds=1))
        self.run()

    def deferred(self) -> int:
        from django_tasks_db.models import DBTaskResult, get_date_max

        return DBTaskResult.objects.filter(status="READY", queue_name="notices").exclude(
            run_after=get_date_max()).count()


@pytest.fixture
def worker(settings: Any) -> Worker:
    """The tasks go through the database (as at an event), so a deferred one waits."""
    settings.TASKS = TASKS_IN_DATABASE
    return Worker()
