"""Changing a tournament's parameters after it was created: checked against a change made meanwhile, recorded
(``ParamChange``), and re-scoring every game at once (every standings table is computed from the protocols and
the parameters in force; the save moves the public results version on)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from ..models import ParamChange, Table, Tournament

if TYPE_CHECKING:
    from base.users import User


def canonical(params: Mapping[str, object] | None) -> str:
    """The overrides as one text: what the parameters page compares to find a change made meanwhile."""
    return json.dumps(params or {}, sort_keys=True, ensure_ascii=False)


class ChangedMeanwhile(Exception):
    """Someone saved other parameters since the page was opened; nothing was saved."""


def games_with_results(tournament: Tournament) -> int:
    """Games whose points the parameters decide: every protocol past its draft with a winner."""
    return (Table.objects.filter(round__stage__tournament=tournament, game__isnull=False)
            .exclude(game__state="draft").exclude(game__winner="").count())


@transaction.atomic
def change_params(tournament: Tournament, overrides: dict[str, Any], changes: Sequence[tuple[str, object, object]],
                  by: User, seen: str, reason: str = "") -> ParamChange:
    """Save ``overrides`` as the tournament's parameters if they are still those the organizer saw (``seen``,
    ``forms.params.canonical`` of them), and record the change."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if canonical(locked.params) != seen:
        raise ChangedMeanwhile
    record = ParamChange.objects.create(
        tournament=locked, before=locked.params, after=overrides or None,
        changes=[[name, old, new] for name, old, new in changes], games_with_results=games_with_results(locked),
        reason=reason, changed_at=timezone.now(), changed_by=by, changed_by_name=by.get_full_name() or by.username,
    )
    locked.params = overrides or None
    locked.save(update_fields=["params"])  # the saved signal moves the public results version on
    tournament.params = locked.params
    return record
