"""The seating queue (tournaments/background.py): a seating job's engine runs here, in a worker, while the
organizer's page follows its progress (``services.jobs``)."""

from __future__ import annotations

from django_tasks import task

from tournaments.background import SEATING

from .services import jobs


@task(queue_name=SEATING)
def run_seating(job_pk: int, language: str | None) -> None:
    jobs.run(job_pk, language)
