"""Background work: the task queue's queues, its workers when the app runs them itself, and its health.

The costly and the slow work of the site runs in background workers, never in a request (docs/background.md):
results documents (``paper.tasks``), seating jobs (``running.tasks``) and the stream overlay's frames
(``stream.tasks``). The queue is Django's task framework (``django_tasks``) with its database backend
(``django_tasks_db``): the same on SQLite and PostgreSQL, a task is a row, a worker is
``python manage.py db_worker --queue-name QUEUES``. Each kind of work has its own queue, so a worker kept for
the overlay's frames never waits behind an 18-second PDF, and the documents' worker count is the bound on the
builds at once (``paper.documents`` also bounds them itself, ``DOCUMENT_BUILDS_AT_ONCE``).

``make run`` and the browser tests run the same workers in threads of the one process (``start_in_process``):
one command, and the development cache (in memory, per process) is shared by the web and the workers.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
import sys
import threading
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy

log = logging.getLogger(__name__)

STREAM = "stream"  # the overlay's frames: many, small, wanted within a fraction of a second
SEATING = "seating"  # seating jobs: seconds to minutes of the engine, one stage at a time
DOCUMENTS = "documents"  # results documents: up to tens of seconds each, the costliest
NOTICES = "notices"  # notifications to players and judges (notices/): e-mail and Telegram, a round's in seconds
QUEUES = (STREAM, SEATING, DOCUMENTS, NOTICES)
# How often an idle worker looks for a task (seconds): the overlay's frames wait for it.
POLL_SECONDS = {STREAM: 0.1, SEATING: 0.5, DOCUMENTS: 0.5, NOTICES: 0.5}
# Health: a task waiting longer than this means no worker takes its queue (or they cannot keep up).
LATE_AFTER = dt.timedelta(seconds=60)
# A task running longer than this lost its worker (a document's build stops after 100 s; the longest seating of the
# benches takes a few minutes): the row says "running" for ever, the work is asked for again by its next request.
STALLED_AFTER = dt.timedelta(minutes=15)
KEEP_FINISHED = dt.timedelta(days=1)  # finished tasks' rows are kept this long (the health's last hour)


def queued_in_database() -> bool:
    """Whether tasks go through the database (workers take them), not run at once (the tests' default)."""
    backend = settings.TASKS["default"]["BACKEND"]
    return bool(backend == "django_tasks_db.DatabaseBackend")


# --- workers in this process -----------------------------------------------------------------------------------

@dataclass
class InProcessWorkers:
    """The workers ``start_in_process`` started, one thread a queue; ``stop`` ends them after their task."""

    workers: list[Any]
    threads: list[threading.Thread]

    def stop(self, timeout: float = 10) -> None:
        for worker in self.workers:
            worker.running = False
        for thread in self.threads:
            thread.join(timeout)


def start_in_process(queues: tuple[str, ...] = QUEUES) -> InProcessWorkers:
    """``db_worker``'s own worker, one a queue, each in a thread of this process (``make run``, browser tests)."""
    from django_tasks_db.management.commands.db_worker import Worker

    workers, threads = [], []
    for queue in queues:
        worker = Worker(queue_names=[queue], interval=POLL_SECONDS[queue], batch=False, backend_name="default",
                        startup_delay=False, max_tasks=None, worker_id=f"{os.getpid()}-{queue}",
                        excluded_queue_names=[])
        thread = threading.Thread(target=run_worker, args=(worker,), daemon=True, name=f"tasks-{queue}")
        thread.start()
        workers.append(worker)
        threads.append(thread)
    return InProcessWorkers(workers, threads)


def run_worker(worker: Any) -> None:
    from django.db import connection

    try:
        worker.run()
    except Exception:
        log.exception("the in-process worker of %s stopped", worker.queue_names)
    finally:
        connection.close()


def start_for_runserver() -> None:
    """Called by the apps' ``ready``: with ``TASKS_IN_PROCESS`` (``make run``) the development server's serving
    process runs the workers (not the autoreloader's watching parent)."""
    if not getattr(settings, "TASKS_IN_PROCESS", False) or not queued_in_database():
        return
    # RUN_MAIN: the autoreloader's serving child; ``runserver --noreload`` serves in this very process
    no_reloader = sys.argv[1:2] == ["runserver"] and "--noreload" in sys.argv
    if os.environ.get("RUN_MAIN") == "true" or os.environ.get("TASKS_IN_PROCESS_NOW") == "1" or no_reloader:
        start_in_process()


# --- health ----------------------------------------------------------------------------------------------------

QUEUE_LABELS = {
    STREAM: gettext_lazy("Stream overlay frames"),
    SEATING: gettext_lazy("Seating"),
    DOCUMENTS: gettext_lazy("Documents (results, diplomas, PDFs)"),
    NOTICES: gettext_lazy("Notifications (e-mail, Telegram)"),
}


@dataclass(frozen=True)
class QueueHealth:
    name: str
    waiting: int
    oldest_wait: dt.timedelta | None  # how long the oldest task ready to run has waited
    running: int
    failed_last_hour: int
    last_finished: dt.datetime | None
    stalled: int = 0  # running for longer than STALLED_AFTER: their worker stopped mid-task

    @property
    def late(self) -> bool:
        return self.oldest_wait is not None and self.oldest_wait > LATE_AFTER

    @property
    def label(self) -> str:
        return str(QUEUE_LABELS[self.name])

    @property
    def waited_seconds(self) -> int | None:
        return None if self.oldest_wait is None else int(self.oldest_wait.total_seconds())


def health(now: dt.datetime | None = None) -> list[QueueHealth]:
    """Each queue's state from the task rows (nothing with the tests' immediate backend: tasks run at once)."""
    if not queued_in_database():
        return []
    from django.db.models import Case, Count, F, Max, Min, Q, When
    from django_tasks_db.models import DBTaskResult, get_date_max

    now = now or timezone.now()
    hour_ago = now - dt.timedelta(hours=1)
    ready = Q(status="READY") & (Q(run_after=get_date_max()) | Q(run_after__lte=now))  # not deferred, or due
    rows = (DBTaskResult.objects.filter(queue_name__in=QUEUES).values("queue_name").order_by()
            .annotate(waiting=Count("id", filter=ready),
                      # a deferred task (a notification's later check) waits from when it is due
                      oldest=Min(Case(When(run_after=get_date_max(), then=F("enqueued_at")), default=F("run_after")),
                                 filter=ready),
                      running=Count("id", filter=Q(status="RUNNING")),
                      stalled=Count("id", filter=Q(status="RUNNING", started_at__lt=now - STALLED_AFTER)),
                      failed=Count("id", filter=Q(status="FAILED", finished_at__gte=hour_ago)),
                      last=Max("finished_at")))
    found: dict[str, dict[str, Any]] = {row["queue_name"]: dict(row) for row in rows}
    result = []
    for name in QUEUES:
        row: dict[str, Any] = found.get(name, {})
        oldest = row.get("oldest")
        result.append(QueueHealth(name, row.get("waiting", 0), now - oldest if oldest else None,
                                  row.get("running", 0), row.get("failed", 0), row.get("last"), row.get("stalled", 0)))
    return result


def prune(now: dt.datetime | None = None) -> int:
    """Deletes the rows of tasks finished more than ``KEEP_FINISHED`` ago, and of tasks stalled that long; how
    many."""
    if not queued_in_database():
        return 0
    from django.db.models import Q
    from django_tasks_db.models import DBTaskResult

    cutoff = (now or timezone.now()) - KEEP_FINISHED
    deleted, _kinds = DBTaskResult.objects.filter(
        Q(status__in=("SUCCESSFUL", "FAILED"), finished_at__lt=cutoff)
        | Q(status="RUNNING", started_at__lt=cutoff)).delete()
    return deleted


def forget_successful_stream_task(sender: Any, task_result: Any, **kwargs: Any) -> None:
    """The overlay's frames make a task a change of a streamed table: their rows go once done (a failure stays
    for the health); now and then the old rows of the other queues go too (``prune``)."""
    if not queued_in_database():
        return
    from django.core.cache import cache
    from django_tasks_db.models import DBTaskResult

    if getattr(task_result.task, "queue_name", None) == STREAM and task_result.status == "SUCCESSFUL":
        DBTaskResult.objects.filter(pk=task_result.id).delete()
    if cache.add("background-pruned", 1, 3600):
        prune()


def connect() -> None:
    from django_tasks.signals import task_finished

    task_finished.connect(forget_successful_stream_task, dispatch_uid="background-forget-stream")
