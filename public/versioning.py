"""The per-tournament results version, bumped after every committed change of public data.

Every model of the ``tournaments``, ``games`` and ``venue_screen`` apps is watched (saves and deletes,
including models added later: they are found by their foreign key to a tournament, stage, round, table or
game). Changes are collected per transaction and applied once it commits (``base.after_commit``,
listed in ``mafia_tournament/reactions.py``), so a protocol saved seat by seat costs a few queries at the end, and
nothing waits on the version row meanwhile.
Bulk operations (``bulk_create``, ``update``) send no signals: code using them on public data
calls ``bump(tournament_id)`` itself.

A change the public cannot see bumps nothing (``affects_public``): history rows, draft protocols
(opened, saved as the game goes) and a protocol's confirmation or reopening, which change only its
state (saved with those fields alone). On a tournament day a hundred judges save drafts while
thousands watch; each needless bump would have every public page built again
(bench/tournament_day.py measures it).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.apps import apps
from django.db import IntegrityError, transaction
from django.db.models import F, Model
from django.utils import timezone

WATCHED_APPS = ("tournaments", "games", "venue_screen")
# (attribute on the changed row, kind); the first attribute a row has decides.
KEYS = (("tournament_id", "tournament"), ("stage_id", "stage"), ("round_id", "round"),
        ("table_id", "table"), ("game_id", "game"))
# How each kind leads to a tournament id.
PATHS = {
    "stage": ("tournaments.Stage", "tournament_id"),
    "round": ("tournaments.Round", "stage__tournament_id"),
    "table": ("tournaments.Table", "round__stage__tournament_id"),
    "game": ("games.Game", "table__round__stage__tournament_id"),
}


def bump(*tournament_ids: int) -> None:
    """Advance the version of these tournaments now (creating the row the first time)."""
    from .models import ResultsVersion

    ids = set(tournament_ids)
    if not ids:
        return
    now = timezone.now()
    done = set(
        ResultsVersion.objects.filter(tournament_id__in=ids).values_list("tournament_id", flat=True)
    )
    ResultsVersion.objects.filter(tournament_id__in=done).update(version=F("version") + 1, updated=now)
    missing = ids - done
    if missing:
        missing = set(apps.get_model("tournaments.Tournament").objects.filter(pk__in=missing)
                      .values_list("pk", flat=True))
    for tid in missing:
        try:
            with transaction.atomic():
                ResultsVersion.objects.create(tournament_id=tid, version=2)
        except IntegrityError:  # created meanwhile by another process, or the tournament is gone
            ResultsVersion.objects.filter(tournament_id=tid).update(version=F("version") + 1, updated=now)


def key_of(instance: Model) -> tuple[str, int] | None:
    if instance._meta.label == "tournaments.Tournament":
        return ("tournament", instance.pk)
    if instance._meta.label == "tournaments.Player":
        return ("player", instance.pk)
    for attribute, kind in KEYS:
        value = getattr(instance, attribute, None)
        if value is not None:
            return (kind, value)
    return None


def resolve(keys: set[tuple[str, int]]) -> set[int]:
    """The tournaments these changed rows belong to: one query per kind of row."""
    by_kind: dict[str, set[int]] = defaultdict(set)
    for kind, value in keys:
        by_kind[kind].add(value)
    ids = set(by_kind.pop("tournament", set()))
    if players := by_kind.pop("player", None):
        participant = apps.get_model("tournaments.Participant")
        ids |= set(participant.objects.filter(player_id__in=players).values_list("tournament_id", flat=True))
    for kind, values in by_kind.items():
        label, path = PATHS[kind]
        ids |= set(apps.get_model(label).objects.filter(pk__in=values).values_list(path, flat=True))
    return ids


# A protocol saved with only these fields keeps its public facts: it was confirmed or reopened.
PROTOCOL_STATE_FIELDS = frozenset({"state", "version", "changed_at", "changed_by", "confirmed_at", "confirmed_by",
                                   "reopen_reason"})


def affects_public(instance: Model, update_fields: Any = None) -> bool:
    """Whether saving (``update_fields`` as ``save`` got them) or deleting this row can change what
    players and spectators see."""
    from simple_history.models import HistoricalChanges

    if isinstance(instance, HistoricalChanges):  # the row it copies is saved beside it
        return False
    label = instance._meta.label
    if label == "games.Game":  # drafts count for nothing and are shown nowhere public (exchange.reading)
        if update_fields and "sent_back_comment" in update_fields:
            return True  # a submitted protocol sent back to its judge (a draft again) has left the standings
        state_only = bool(update_fields) and set(update_fields) <= PROTOCOL_STATE_FIELDS
        return getattr(instance, "state", "") != "draft" and not state_only
    if label == "games.GameSeat" and instance._meta.get_field("game").is_cached(instance):  # type: ignore[union-attr]
        return bool(instance.game.state != "draft")  # type: ignore[attr-defined]
    return True


def changed_key(sender: type[Model], instance: Model, raw: bool = False, update_fields: Any = None,
                **kwargs: Any) -> tuple[str, int] | None:
    """What a saved or deleted row of the watched apps keeps for the commit: the row it leads to a tournament
    by, or nothing when the public cannot see the change (no query here)."""
    if raw or not affects_public(instance, update_fields):
        return None
    return key_of(instance)


def bump_changed(keys: list[tuple[str, int]]) -> None:
    """After the commit: one bump for the tournaments of the rows one transaction changed."""
    bump(*resolve(set(keys)))


def watched_models() -> list[type[Model]]:
    return [model for app in WATCHED_APPS for model in apps.get_app_config(app).get_models()]
