"""The events that tell players and judges (docs/notifications.md), read from the models' saves as the rating
reads them (ratings/triggers.py): the apps below know nothing of notifications. Each event queues its task once
its transaction commits (``on_commit``), so a change rolled back tells nobody and no request waits for a channel.

- a round published, or a published round's start time changed → ``round_published`` (the changed seats only);
- a published round made a draft → ``round_withdrawn``, ``WITHDRAWN_AFTER`` seconds later (a re-seat in between
  tells only the changed seats);
- a protest decided → ``protest_decided``; a submitted protocol sent back → ``sent_back`` (to its judge);
- a stage closed → ``results_final``; a game confirmed → ``game_confirmed`` (``results_final`` when it is of the
  last stage): once, when the results are final.

No handler queries the database: what changed is read from the saved fields (``update_fields``), so a judge's tap
costs nothing more; the tasks, in the worker, look at the rest and tell only what changed (a task queued twice
tells nobody twice). Rows created whole (a file's import: its rounds published, its games confirmed) tell nobody:
they are history, not news."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models.signals import post_save

from games.models import Game, GameState, Protest, ProtestDecision
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


def round_saved(sender: Any, instance: Round, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    """Published (or a published round's start moved, or saved whole): the task tells only what changed.
    Made a draft: the withdrawal's check, later. No query here: a round's save is read from what it saved."""
    fields = set(update_fields or ())
    if instance.state == RoundState.PUBLISHED:
        if (update_fields is None and not created) or fields & {"state", "starts_at"}:
            queue("round_published", instance.pk)
    elif "state" in fields:
        queue("round_withdrawn", instance.pk)


def protest_saved(sender: Any, instance: Protest, created: bool, **kwargs: Any) -> None:
    """Decided on the web (``decided_at`` set; a file's imported decisions have none and tell nobody); the task
    tells each person of a decision once."""
    if instance.decided_at is not None and instance.decision in (ProtestDecision.UPHELD, ProtestDecision.REJECTED):
        queue("protest_decided", instance.pk)


def game_saved(sender: Any, instance: Game, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    """Sent back (saved a draft with the chief judge's comment), or confirmed (the task looks whether the results
    are final). No query here: a judge's taps save the game too."""
    fields = set(update_fields or ())
    if instance.state == GameState.DRAFT and "sent_back_comment" in fields and instance.sent_back_comment:
        queue("sent_back", instance.pk, None)
    elif instance.state == GameState.CONFIRMED and "confirmed_at" in fields:
        queue("game_confirmed", instance.pk)


def stage_saved(sender: Any, instance: Stage, created: bool, update_fields: Any = None, **kwargs: Any) -> None:
    if instance.closed and (update_fields is None or "closed" in update_fields) and not created:
        queue("results_final", instance.tournament_id)


def connect() -> None:
    post_save.connect(round_saved, sender=Round, dispatch_uid="notices.round_saved")
    post_save.connect(protest_saved, sender=Protest, dispatch_uid="notices.protest_saved")
    post_save.connect(game_saved, sender=Game, dispatch_uid="notices.game_saved")
    post_save.connect(stage_saved, sender=Stage, dispatch_uid="notices.stage_saved")
