"""Seating as a background job: the organizer's page polls the job's progress (htmx).

``start`` checks the state and records a job under a lock; ``launch`` hands it to the seating queue's
worker (``running.tasks.run_seating``; tournaments/background.py); ``run`` computes the plan
outside any transaction, writing the engine's progress to the job row, then stores it with
``planning.save_block``, which re-checks the state. The progress callback is also the job's
heartbeat (at least every ``HEARTBEAT``) and its cancellation point: its update only matches a
``running`` row, so once the organizer has cancelled the job (``cancel``) the engine is stopped by
``Cancelled`` and nothing is stored. A job whose row has not moved for ``STALE_AFTER`` (a server
restarted mid-way) no longer blocks new ones, and ``expire`` marks it failed with a message.
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from running.services import planning
from tournaments.errors import SeatingError
from tournaments.models import JobState, Round, SeatingJob, Stage
from tournaments.models.jobs import ACTIVE_STATES

if TYPE_CHECKING:
    from django.contrib.auth.models import User

log = logging.getLogger(__name__)
STALE_AFTER = dt.timedelta(minutes=5)
# The app's own outcomes are stored in English and said in the reader's language when shown (``message_text``): the
# organizer who cancels and the one who reads the page later may read different languages.
CANCELLED = gettext_noop("Cancelled by the organizer; nothing was stored.")
STALE = gettext_noop("This seating stopped without finishing: it has not reported for %(minutes)s minutes "
                     "(the server was probably restarted). Nothing was stored; seat again.")
UNEXPECTED = gettext_noop("The seating failed unexpectedly; try again or choose another method.")
STEP = 0.02  # progress is written when it moved by this much
HEARTBEAT = 1.0  # seconds: progress is written (and cancellation seen) at least this often


class Cancelled(Exception):
    """Raised in the engine's progress callback once the job was cancelled: the engine stops."""


def active_job(stage: Stage) -> SeatingJob | None:
    fresh = timezone.now() - STALE_AFTER
    return (SeatingJob.objects.filter(stage=stage, state__in=ACTIVE_STATES,
                                      updated__gte=fresh).order_by("-created").first())


def is_stale(job: SeatingJob) -> bool:
    return job.state in ACTIVE_STATES and job.updated < timezone.now() - STALE_AFTER


def untaken_seconds(job: SeatingJob) -> int | None:
    """How long a job has waited for a worker, once that is longer than a worker ever takes to start one
    (``background.LATE_AFTER``): the site's workers are stopped, and the organizer would watch 0 % for ever."""
    from tournaments.background import LATE_AFTER

    waited = timezone.now() - job.created
    return int(waited.total_seconds()) if job.state == JobState.PENDING and waited > LATE_AFTER else None


@transaction.atomic
def cancel(job: SeatingJob) -> SeatingJob:
    """``pending``/``running`` → ``cancelled``; refused once the job finished (its seating stays)."""
    job = SeatingJob.objects.select_for_update().get(pk=job.pk)
    if job.state not in ACTIVE_STATES:
        raise SeatingError(_("This seating has finished already (%(state)s); nothing to cancel.")
                           % {"state": job.get_state_display()})
    job.state, job.message = JobState.CANCELLED, CANCELLED
    job.save(update_fields=["state", "message", "updated"])
    return job


@transaction.atomic
def expire(job: SeatingJob) -> SeatingJob:
    """A stale job → ``failed`` with a message saying so (nothing was stored); others unchanged."""
    job = SeatingJob.objects.select_for_update().get(pk=job.pk)
    if is_stale(job):
        minutes = int(STALE_AFTER.total_seconds() // 60)
        job.state = JobState.FAILED
        job.message = STALE % {"minutes": minutes}
        job.save(update_fields=["state", "message", "updated"])
    return job


@transaction.atomic
def start(stage: Stage, user: User, *, method: str | None = None, rounds: int = 1, tables: int | None = None,
          round_: Round | None = None, seed: int | None = None) -> SeatingJob:
    """Record a job seating the stage's next ``rounds`` rounds, or the draft ``round_`` again."""
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if active_job(stage) is not None:
        raise SeatingError(_("A seating of this stage is being computed; wait for it to finish."))
    if round_ is not None:
        round_ = Round.objects.select_for_update().get(pk=round_.pk, stage=stage)
        planning.require_draft(round_)
        method = method or round_.seating or planning.default_method(stage, round_.number)
    else:
        planning.check_can_seat_next(stage)
        method = method or planning.default_method(stage, planning.next_number(stage))
    if rounds > 1 and method != "balanced":
        raise SeatingError(_("Only the balanced method plans several rounds at once."))
    return SeatingJob.objects.create(
        stage=stage, round=round_, method=method, rounds=rounds, tables=tables,
        seed=planning.new_seed() if seed is None else seed, created_by=user if user.is_authenticated else None)


def launch(job: SeatingJob) -> None:
    """Hands the job (recorded by ``start``, committed) to the seating queue's worker; its messages are in the
    organizer's language."""
    from running.tasks import run_seating

    run_seating.enqueue(job.pk, translation.get_language())


def run(job_pk: int, language: str | None = None) -> None:
    with translation.override(language):
        _run(job_pk)


def _run(job_pk: int) -> None:
    job = SeatingJob.objects.select_related("stage__tournament", "round").get(pk=job_pk)
    if not SeatingJob.objects.filter(pk=job.pk, state=JobState.PENDING).update(
            state=JobState.RUNNING, updated=timezone.now()):
        return  # cancelled before it started
    written = [0.0, time.monotonic()]

    def progress(fraction: float) -> None:
        now = time.monotonic()
        if fraction - written[0] >= STEP or (fraction >= 1.0 > written[0]) or now - written[1] >= HEARTBEAT:
            written[0], written[1] = max(fraction, written[0]), now
            if not SeatingJob.objects.filter(pk=job.pk, state=JobState.RUNNING).update(
                    progress=min(max(fraction, 0.0), 1.0), updated=timezone.now()):
                raise Cancelled

    number = job.round.number if job.round else planning.next_number(job.stage)
    request = planning.Request(job.stage, number, job.method, job.rounds, job.tables, job.seed, regenerate=job.round)
    try:
        block = planning.compute(request, progress)
        with transaction.atomic():
            if SeatingJob.objects.select_for_update().get(pk=job.pk).state != JobState.RUNNING:
                return  # cancelled after the engine's last report: nothing is stored
            first = planning.save_block(request, block)
            finish(job, JobState.DONE, "", first.number)
    except Cancelled:
        log.info("seating job %s cancelled", job.pk)
    except SeatingError as error:
        finish(job, JobState.FAILED, str(error))
    except Exception:
        log.exception("seating job %s failed", job.pk)
        finish(job, JobState.FAILED, UNEXPECTED)


def message_text(job: SeatingJob) -> str:
    """The job's message in the reader's language: the app's own outcomes translated now, another message (a
    seating method's refusal, already in the words of the request that started the job) as stored."""
    if job.message in (CANCELLED, UNEXPECTED):
        return _(job.message)
    minutes = int(STALE_AFTER.total_seconds() // 60)
    if job.message == STALE % {"minutes": minutes}:
        return _(STALE) % {"minutes": minutes}
    return job.message


def finish(job: SeatingJob, state: str, message: str, number: int | None = None) -> None:
    """Record the outcome, unless the organizer cancelled the job meanwhile."""
    SeatingJob.objects.filter(pk=job.pk, state__in=ACTIVE_STATES).update(
        state=state, message=message, first_number=number, progress=1.0, updated=timezone.now())
