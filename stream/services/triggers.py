"""What a save sends to the stream (docs/stream-overlay.md): after every committed change of a protocol (and when
the judge marks the speaker, or a round is published) the changed tables are queued for the stream queue's worker
(``stream.tasks``, tournaments/background.py), when some overlay page is watching. The saves are heard through
``mafia_tournament/reactions.py`` (``game_saved``, ``round_saved``, then ``queue_changed`` once a transaction
commits), like every other reaction to a save."""

from __future__ import annotations

import logging
from typing import Any

from games.models import Game
from games.services import stream as table_side
from tournaments.models import Round, Table
from tournaments.models.rounds import RoundState

from . import delay, live

log = logging.getLogger(__name__)


def queue_frames(task: Any, *args: Any) -> None:
    """Queues a stream task for the stream queue's worker; a failure (the database gone) is logged, never raised:
    the change that caused it is saved, and the frames follow on the next one."""
    try:
        task.enqueue(*args)
    except Exception:
        log.exception("queueing the stream task %s%s failed", getattr(task, "name", task), args)


def enqueue_settings_changed(tournament_id: int, hiding: bool) -> None:
    """Once the settings' change commits (``overlays.change_settings``)."""
    from ..tasks import overlay_settings_changed

    queue_frames(overlay_settings_changed, tournament_id, hiding)


Change = tuple[str, int]  # ("game", id) or ("round", id)


def queue_changed(changes: list[Change]) -> None:
    """After the commit (``mafia_tournament/reactions.py``): hands the tables changed to the stream queue's worker,
    when some overlay page is watching (one cache read; otherwise nothing: a day of a hundred tables with no stream
    queues nothing). A failure is logged by ``after_commit``, and the reactions after this one still run."""
    if delay.any_watched():
        from ..tasks import publish_changes

        queue_frames(publish_changes, sorted({pk for kind, pk in changes if kind == "game"}),
                     sorted({pk for kind, pk in changes if kind == "round"}))


def safely_publish_changed(games: set[int], rounds: set[int]) -> None:
    try:
        publish_changed(games, rounds)
    except Exception:  # after the commit: the change is saved, and the hooks after this one must still run
        log.exception("finding the streamed tables of games %s and rounds %s failed", games, rounds)


def publish_changed(games: set[int], rounds: set[int]) -> None:
    if games:
        found = (Table.objects.filter(game__in=games, round__stage__tournament__stream_overlay__isnull=False)
                 .order_by().values_list("round__stage__tournament_id", "number"))
        by_tournament: dict[int, set[int]] = {}
        for tid, number in found:
            by_tournament.setdefault(tid, set()).add(number)
        for tid, numbers in by_tournament.items():
            live.publish(tid, sorted(numbers))
    if rounds:
        for tid in set(Round.objects.filter(pk__in=rounds, stage__tournament__stream_overlay__isnull=False)
                       .order_by().values_list("stage__tournament_id", flat=True)):
            live.publish(tid)


def game_saved(sender: Any, instance: Game, raw: bool = False, **kwargs: Any) -> Change | None:
    return None if raw else ("game", instance.pk)


def round_saved(sender: Any, instance: Round, raw: bool = False, update_fields: Any = None,
                **kwargs: Any) -> Change | None:
    """A round published or withdrawn (a published round saved whole, or its state saved): the line-ups change."""
    state_saved = update_fields is not None and "state" in update_fields
    if not raw and (state_saved or (update_fields is None and instance.state == RoundState.PUBLISHED)):
        return ("round", instance.pk)
    return None


def speaker_marked(sender: Any, game: Game, **kwargs: Any) -> None:
    """The judge marked who speaks: that table's frame, at once (not part of the protocol, so no save says it)."""
    from ..tasks import publish_tables

    queue_frames(publish_tables, game.table.round.stage.tournament_id, [game.table.number])


def connect() -> None:
    """The speaker the judge marks is no save: it is heard here (the saves, in ``mafia_tournament/reactions.py``)."""
    table_side.speaker_marked.connect(speaker_marked, dispatch_uid="stream-speaker-marked")
