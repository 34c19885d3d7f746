"""The ``notices`` queue (tournaments/background.py): each event's messages are composed and handed to their
channels here, by a worker, never in a web request (docs/notifications.md)."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import default_task_backend, task

from tournaments.background import NOTICES

from .models import Message
from .services import compose, delivery

# A round made a draft again is said to be withdrawn only if it is still a draft this many seconds later: an
# organizer who unpublishes to swap two players and publishes again sends only the two changed seats.
WITHDRAWN_AFTER = int(getattr(settings, "NOTICES_WITHDRAWN_AFTER", 120))


def later(seconds: float) -> dt.datetime | None:
    """When a task queued now should run, where the backend can wait (the database's); None: at once."""
    return timezone.now() + dt.timedelta(seconds=seconds) if default_task_backend.supports_defer else None


def send(rows: list[Message]) -> int:
    """Saves the composed rows and hands them to their channels; the failures worth it are tried again later."""
    if not rows:
        return 0
    with transaction.atomic():
        saved = Message.objects.bulk_create(rows)
    ids = [row.pk for row in saved if not row.given_up]
    again = delivery.deliver(ids)
    retry_later(again)
    return len(ids)


def retry_later(ids: list[int]) -> None:
    if not ids:
        return
    attempts = max(Message.objects.filter(pk__in=ids).values_list("attempts", flat=True))
    wait = delivery.RETRY_AFTER[min(attempts, len(delivery.RETRY_AFTER)) - 1]
    when = later(wait)
    if when is not None:
        retry.using(run_after=when).enqueue(ids)
    # without a waiting backend (the tests' immediate one) the failed rows stay marked; "Try again" on the
    # organizer's page queues them


@task(queue_name=NOTICES)
def retry(ids: list[int]) -> int:
    again = delivery.deliver(ids)
    retry_later(again)
    return len(ids) - len(again)


@task(queue_name=NOTICES)
def round_published(round_id: int) -> int:
    return send(compose.round_published(round_id))


@task(queue_name=NOTICES)
def round_withdrawn(round_id: int) -> int:
    return send(compose.round_withdrawn(round_id))


@task(queue_name=NOTICES)
def protest_decided(protest_id: int) -> int:
    return send(compose.protest_decided(protest_id))


@task(queue_name=NOTICES)
def sent_back(game_id: int, submitter: int | None) -> int:
    return send(compose.sent_back(game_id, submitter))


@task(queue_name=NOTICES)
def game_confirmed(game_id: int) -> int:
    """A game confirmed: of the tournament's last stage, the results may now be final."""
    from tournaments.models import Stage

    stage = Stage.objects.filter(rounds__tables__game=game_id).values_list("tournament_id", "order").first()
    if stage is None or Stage.objects.filter(tournament_id=stage[0], order__gt=stage[1]).exists():
        return 0
    return send(compose.results_final(stage[0]))


@task(queue_name=NOTICES)
def results_final(tournament_id: int) -> int:
    return send(compose.results_final(tournament_id))


@task(queue_name=NOTICES)
def broadcast(broadcast_id: int) -> int:
    return send(compose.broadcast(broadcast_id))
