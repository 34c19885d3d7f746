"""A round's scheduled start time, shown in the public program (a guarded change)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db import transaction

from ..models import Round

if TYPE_CHECKING:
    from base.users import AnyUser


@transaction.atomic
def set_round_start(round_: Round, starts_at: dt.datetime | None, user: AnyUser) -> Round:
    """Set (or clear, with None) when a round starts; only the tournament's organizers may."""
    locked = Round.objects.select_for_update().select_related("stage__tournament").get(pk=round_.pk)
    if not locked.stage.tournament.is_organizer(user):
        raise PermissionDenied
    locked.starts_at = starts_at
    locked.save(update_fields=["starts_at"])  # the saved signal bumps the public results version
    return locked
