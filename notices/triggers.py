"""The events that tell players and judges (docs/notifications.md), read from the models' saves as the rating
reads them (ratings/triggers.py): the apps below know nothing of notifications. Each event queues its task once
its transaction commits (``on_commit``), so a change rolled back tells nobody and no request waits for a channel.

- a round published, or a published round's start time changed → ``round_published`` (the changed seats only);
- a published round made a draft → ``round_withdrawn``, ``WITHDRAWN_AFTER`` seconds later (a re-seat in between
  tells only the changed seats);
- a protest decided → ``protest_decided``; a submitted protocol sent back → ``sent_back`` (to its judge);
- the last stage closed, or a game of it confirmed → ``results_final`` (once, when the results are final)."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save, pre_save

from games.models import Game, GameState, Protest
from tournaments.models import Round, RoundState, Stage

log = logging.getLogger(__name__)


def queue(name: str, *args: Any) -> None:
    """After the commit: the task ``name`` of notices.tasks with ``args``; a failure to queue never undoes the
    change that was committed."""
    def run() -> None:
        from . import tasks

        try:
            job = getattr(tasks, name)
            if name == "round_withdrawn":
                when = tasks.later(tasks.WITHDRAWN_AFTER)
                if when is not None:
                    job = job.using(run_after=when)
            job.enqueue(*args)
        except Exception:
            log.exception("queueing the notification %s%s failed", name, args)

    transaction.on_commit(run)


def round_saving(sender: Any, instance: Round, **kwargs: Any) -> None:
    instance._notice_before = (  # type: ignore[attr-defined]
        Round.objects.filter(pk=instance.pk).values_list("state", "starts_at").first() if instance.pk else None)


def round_saved(sender: Any, instance: Round, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_notice_before", None)
    state, starts = (before or (RoundState.DRAFT, None))
    if instance.state == RoundState.PUBLISHED and (state != RoundState.PUBLISHED or starts != instance.starts_at):
        queue("round_published", instance.pk)
    elif instance.state != RoundState.PUBLISHED and state == RoundState.PUBLISHED:
        queue("round_withdrawn", instance.pk)


def protest_saving(sender: Any, instance: Protest, **kwargs: Any) -> None:
    instance._notice_before = (  # type: ignore[attr-defined]
        Protest.objects.filter(pk=instance.pk).values_list("decided_at", flat=True).first() if instance.pk else None)


def protest_saved(sender: Any, instance: Protest, created: bool, **kwargs: Any) -> None:
    """Decided on the web (``decided_at`` set now); a file's imported decisions tell nobody."""
    if instance.decided_at is not None and getattr(instance, "_notice_before", None) is None:
        queue("protest_decided", instance.pk)


def game_saving(sender: Any, instance: Game, update_fields: Any = None, **kwargs: Any) -> None:
    """Read the state before only when the state may change (a judge's taps save other fields)."""
    instance._notice_before = (  # type: ignore[attr-defined]
        Game.objects.filter(pk=instance.pk).values_list("state", "submitted_by_id").first()
        if instance.pk and (update_fields is None or "state" in update_fields) else None)


def game_saved(sender: Any, instance: Game, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    before = getattr(instance, "_notice_before", None)
    if before is None:
        return
    state, submitter = before
    if state == GameState.SUBMITTED and instance.state == GameState.DRAFT and instance.sent_back_comment:
        queue("sent_back", instance.pk, submitter)
    elif instance.state == GameState.CONFIRMED and state != GameState.CONFIRMED:
        stage = Stage.objects.filter(rounds__tables__game=instance).values_list("tournament_id", "order").first()
        if stage is not None and not Stage.objects.filter(tournament_id=stage[0], order__gt=stage[1]).exists():
            queue("results_final", stage[0])


def stage_saving(sender: Any, instance: Stage, **kwargs: Any) -> None:
    instance._notice_before = (  # type: ignore[attr-defined]
        Stage.objects.filter(pk=instance.pk).values_list("closed", flat=True).first() if instance.pk else None)


def stage_saved(sender: Any, instance: Stage, created: bool, **kwargs: Any) -> None:
    if instance.closed and getattr(instance, "_notice_before", None) is False:
        queue("results_final", instance.tournament_id)


def connect() -> None:
    pre_save.connect(round_saving, sender=Round, dispatch_uid="notices.round_saving")
    post_save.connect(round_saved, sender=Round, dispatch_uid="notices.round_saved")
    pre_save.connect(protest_saving, sender=Protest, dispatch_uid="notices.protest_saving")
    post_save.connect(protest_saved, sender=Protest, dispatch_uid="notices.protest_saved")
    pre_save.connect(game_saving, sender=Game, dispatch_uid="notices.game_saving")
    post_save.connect(game_saved, sender=Game, dispatch_uid="notices.game_saved")
    pre_save.connect(stage_saving, sender=Stage, dispatch_uid="notices.stage_saving")
    post_save.connect(stage_saved, sender=Stage, dispatch_uid="notices.stage_saved")
