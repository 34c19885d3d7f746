"""Disqualifying a participant: an organizer, with a reason, once. The player is left out of the
seating of later rounds (planning) and marked in the standings; games already played stay."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Participant
from .errors import SeatingError


class DisqualificationError(SeatingError):
    """A disqualification the state or the user forbids."""


@transaction.atomic
def disqualify(participant: Participant, user: Any, reason: str) -> Participant:
    locked = Participant.objects.select_for_update().select_related("tournament").get(pk=participant.pk)
    if user is None or not getattr(user, "is_authenticated", False) or not locked.tournament.is_organizer(user):
        raise DisqualificationError(_("Only the tournament's organizers may disqualify a player."))
    reason = (reason or "").strip()
    if not reason:
        raise DisqualificationError(_("Give the reason for the disqualification."))
    if locked.disqualified_at is not None:
        raise DisqualificationError(_("This player is already disqualified."))
    locked.disqualified_at = timezone.now()
    locked.disqualified_by = user
    locked.disqualification_reason = reason
    locked.save(update_fields=["disqualified_at", "disqualified_by", "disqualification_reason"])
    return locked
