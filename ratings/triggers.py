"""Keeping the rating current as results change: the changes are collected per transaction and the rating is
recomputed once it commits, from the earliest round they touch (``compute.recompute``).

What moves the rating: a protocol confirmed or reopened (saved with ``confirmed_at``), a confirmed game saved
whole (the file import), a confirmed game deleted, and a tournament made rated or not, given another level or
start date, its standings hidden or shown, or deleted; two players merged into one. Judges' drafts save without
``confirmed_at``: they cost nothing here.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save

from games.models import Game, GameState
from tournaments.models import Round, Tournament
from tournaments.signals import players_merged as merged

from .services import compute

log = logging.getLogger(__name__)
EVERYTHING = ""  # a ``since`` before every position


class Pending(threading.local):
    def __init__(self) -> None:
        self.since: str | None = None
        self.games: set[int] = set()


pending = Pending()


def schedule(since: str | None = None, game: int | None = None) -> None:
    if since is not None:
        pending.since = since if pending.since is None else min(pending.since, since)
    if game is not None:
        pending.games.add(game)
    transaction.on_commit(run)


def run() -> None:
    """After the commit: the earliest position touched, then the recomputation from it. A transaction rolled back
    leaves its marks for the next commit: recomputing more than needed is harmless, never wrong."""
    since, games = pending.since, pending.games
    pending.since, pending.games = None, set()
    if games:
        rows = (Round.objects.filter(tables__game__in=games, stage__tournament__rated=True)
                .values_list("number", "stage__order", "stage__tournament_id", "stage__tournament__starts",
                             "stage__tournament__created").distinct())
        for number, order, tid, starts, created in rows:
            place = compute.position(compute.tournament_day(starts, created), tid, order, number)
            since = place if since is None else min(since, place)
    if since is None:
        return
    try:
        compute.recompute(since)
    except Exception:  # the change itself is committed; the next recomputation (or the command) catches up
        log.exception("recomputing the rating from %s failed", since or "the start")


def game_saved(sender: Any, instance: Game, update_fields: frozenset[str] | None = None, **kwargs: Any) -> None:
    if (update_fields is None and instance.state == GameState.CONFIRMED) or "confirmed_at" in (update_fields or ()):
        schedule(game=instance.pk)


def game_deleted(sender: Any, instance: Game, **kwargs: Any) -> None:
    if instance.state == GameState.CONFIRMED:
        schedule(EVERYTHING)  # its round may be gone with it: recompute it all (rare: an admin's deletion)


RATING_FIELDS = ("rated", "level", "starts", "standings_hidden")


def tournament_saving(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    if instance.pk is not None:
        instance._rating_before = (  # type: ignore[attr-defined]
            Tournament.objects.filter(pk=instance.pk).values_list(*RATING_FIELDS, "created").first())


def tournament_saved(sender: Any, instance: Tournament, created: bool, **kwargs: Any) -> None:
    before = getattr(instance, "_rating_before", None)
    if created or before is None or before[:-1] == tuple(getattr(instance, name) for name in RATING_FIELDS):
        return  # a new tournament has no games yet (an import's games are saved after it, and schedule)
    schedule(min(compute.position(compute.tournament_day(before[2], before[-1]), instance.pk),
                 compute.tournament_position(instance)))


def tournament_deleted(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    schedule(compute.tournament_position(instance))


def players_merged(sender: Any, **kwargs: Any) -> None:
    schedule(EVERYTHING)  # the merged player's games are now the kept one's: their history is one again


def connect() -> None:
    merged.connect(players_merged, dispatch_uid="ratings.players_merged")
    post_save.connect(game_saved, sender=Game, dispatch_uid="ratings.game_saved")
    post_delete.connect(game_deleted, sender=Game, dispatch_uid="ratings.game_deleted")
    pre_save.connect(tournament_saving, sender=Tournament, dispatch_uid="ratings.tournament_saving")
    post_save.connect(tournament_saved, sender=Tournament, dispatch_uid="ratings.tournament_saved")
    post_delete.connect(tournament_deleted, sender=Tournament, dispatch_uid="ratings.tournament_deleted")
