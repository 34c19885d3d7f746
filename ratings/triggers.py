"""Keeping the rating current as results change: each save says what it touched (a key, no query), the keys are
collected per transaction and the rating is recomputed once it commits, from the earliest round they touch
(``compute.recompute``; the saves listened to are listed in ``mafia_tournament/reactions.py``).

What moves the rating: a protocol confirmed or reopened (saved with ``confirmed_at``), a confirmed game saved
whole (the file import), a confirmed game deleted, and a tournament made rated or not, given another level or
start date, its standings hidden or shown, or deleted; two players merged into one. Judges' drafts save without
``confirmed_at``: they cost nothing here.
"""

from __future__ import annotations

from typing import Any

from games.models import Game, GameState
from tournaments.models import Round, Tournament

from .services import compute

EVERYTHING = ""  # a ``since`` before every position


Key = tuple[str, str] | tuple[str, int]  # ("since", a position) or ("game", a game's id)


def recompute_from(keys: list[Key]) -> None:
    """After the commit: the earliest position the transaction's changes touched, then the recomputation from it
    (a failure is logged; the next recomputation, or the command, catches up)."""
    since = min((str(value) for kind, value in keys if kind == "since"), default=None)
    games = {int(value) for kind, value in keys if kind == "game"}
    places: set[str] = set()
    if games:
        rows = (Round.objects.filter(tables__game__in=games, stage__tournament__rated=True)
                .values_list("number", "stage__order", "stage__tournament_id", "stage__tournament__starts",
                             "stage__tournament__created").distinct())
        for number, order, tid, starts, created in rows:
            places.add(compute.position(compute.tournament_day(starts, created), tid, order, number))
    if since is None and len(places) == 1:  # games of one round (a confirmation): only they, if nothing is after
        compute.recompute_games(places.pop(), games)
    elif since is not None or places:
        compute.recompute(min(places | ({since} if since is not None else set())))


def game_saved(sender: Any, instance: Game, update_fields: frozenset[str] | None = None, **kwargs: Any) -> Key | None:
    if (update_fields is None and instance.state == GameState.CONFIRMED) or "confirmed_at" in (update_fields or ()):
        return ("game", instance.pk)
    return None


def game_deleted(sender: Any, instance: Game, **kwargs: Any) -> Key | None:
    if instance.state == GameState.CONFIRMED:
        return ("since", EVERYTHING)  # its round may be gone with it: recompute it all (rare: an admin's deletion)
    return None


RATING_FIELDS = ("rated", "level", "starts", "standings_hidden")


def tournament_saving(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    """Before the save: the fields the rating reads, as they were (compared once saved)."""
    if instance.pk is not None:
        instance._rating_before = (  # type: ignore[attr-defined]
            Tournament.objects.filter(pk=instance.pk).values_list(*RATING_FIELDS, "created").first())


def tournament_saved(sender: Any, instance: Tournament, created: bool, **kwargs: Any) -> Key | None:
    before = getattr(instance, "_rating_before", None)
    if created or before is None or before[:-1] == tuple(getattr(instance, name) for name in RATING_FIELDS):
        return None  # a new tournament has no games yet (an import's games are saved after it, and count)
    return ("since", min(compute.position(compute.tournament_day(before[2], before[-1]), instance.pk),
                         compute.tournament_position(instance)))


def tournament_deleted(sender: Any, instance: Tournament, **kwargs: Any) -> Key | None:
    return ("since", compute.tournament_position(instance))


def players_merged(sender: Any, **kwargs: Any) -> Key | None:
    return ("since", EVERYTHING)  # the merged player's games are now the kept one's: their history is one again
