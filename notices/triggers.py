"""The events that tell players and judges (docs/notifications.md), read from the models' saves as the rating
reads them (ratings/triggers.py): the apps below know nothing of notifications. Each save names its event (or
none), and the events queue their tasks once the transaction commits (``mafia_tournament/reactions.py``), so a
change rolled back tells nobody and no request waits for a channel.

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

from games.models import Game, GameState, Protest, ProtestDecision
from tournaments.models import Round, RoundState, Stage

log = logging.getLogger(__name__)


Event = tuple[str, tuple[Any, ...]]  # a task of notices.tasks and its arguments


def queue_events(events: list[Event]) -> None:
    """After the commit: each event's task, once per transaction; a failure to queue one is logged and never
    stops the others (nor undoes the change, which is committed)."""
    from . import tasks

    for name, args in events:
        try:
            job = getattr(tasks, name)
            if name == "round_withdrawn":
                when = tasks.later(tasks.WITHDRAWN_AFTER)
                if when is not None:
                    job = job.using(run_after=when)
            job.enqueue(*args)
        except Exception:
            log.exception("queueing the notification %s%s failed", name, args)


def round_saved(sender: Any, instance: Round, created: bool, update_fields: Any = None, **kwargs: Any) -> Event | None:
    """Published (or a published round's start moved, or saved whole): the task tells only what changed.
    Made a draft: the withdrawal's check, later. No query here: a round's save is read from what it saved."""
    fields = set(update_fields or ())
    if instance.state == RoundState.PUBLISHED:
        if (update_fields is None and not created) or fields & {"state", "starts_at"}:
            return ("round_published", (instance.pk,))
    elif "state" in fields:
        return ("round_withdrawn", (instance.pk,))
    return None


def protest_saved(sender: Any, instance: Protest, created: bool, **kwargs: Any) -> Event | None:
    """Decided on the web (``decided_at`` set; a file's imported decisions have none and tell nobody); the task
    tells each person of a decision once."""
    if instance.decided_at is not None and instance.decision in (ProtestDecision.UPHELD, ProtestDecision.REJECTED):
        return ("protest_decided", (instance.pk,))
    return None


def game_saved(sender: Any, instance: Game, created: bool, update_fields: Any = None, **kwargs: Any) -> Event | None:
    """Sent back (saved a draft with the chief judge's comment), or confirmed (the task looks whether the results
    are final). No query here: a judge's taps save the game too."""
    fields = set(update_fields or ())
    if instance.state == GameState.DRAFT and "sent_back_comment" in fields and instance.sent_back_comment:
        return ("sent_back", (instance.pk, None))
    if instance.state == GameState.CONFIRMED and "confirmed_at" in fields:
        return ("game_confirmed", (instance.pk,))
    return None


def stage_saved(sender: Any, instance: Stage, created: bool, update_fields: Any = None, **kwargs: Any) -> Event | None:
    if instance.closed and (update_fields is None or "closed" in update_fields) and not created:
        return ("results_final", (instance.tournament_id,))
    return None
