"""Disqualifying a participant: an organizer, with a reason. The player is left out of the seating
of later rounds (planning) and marked in the standings; games already played stay. A disqualification
given by mistake is reversed the same way (an organizer, a reason); both stay in the participant's
history with who and when."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ..errors import SeatingError
from ..models import Participant

if TYPE_CHECKING:
    from base.users import User


class DisqualificationError(SeatingError):
    """A disqualification (or its reversal) the state or the user forbids."""


def locked_for(participant: Participant, user: User | None, refusal: str) -> Participant:
    locked = Participant.objects.select_for_update().select_related("tournament").get(pk=participant.pk)
    if user is None or not getattr(user, "is_authenticated", False) or not locked.tournament.is_organizer(user):
        raise DisqualificationError(refusal)
    return locked


def required_reason(reason: str | None, refusal: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise DisqualificationError(refusal)
    return reason


@transaction.atomic
def disqualify(participant: Participant, user: User, reason: str) -> Participant:
    locked = locked_for(participant, user, _("Only the tournament's organizers may disqualify a player."))
    reason = required_reason(reason, _("Give the reason for the disqualification."))
    if locked.disqualified_at is not None:
        raise DisqualificationError(_("This player is already disqualified."))
    locked.disqualified_at = timezone.now()
    locked.disqualified_by = user
    locked.disqualification_reason = reason
    return saved_with_reason(locked, user, reason)


@transaction.atomic
def reinstate(participant: Participant, user: User, reason: str) -> Participant:
    """Reverses a disqualification: the player is seated again from the next seating on."""
    locked = locked_for(participant, user, _("Only the tournament's organizers may reinstate a player."))
    reason = required_reason(reason, _("Give the reason for reinstating the player."))
    if locked.disqualified_at is None:
        raise DisqualificationError(_("This player is not disqualified."))
    locked.disqualified_at = None
    locked.disqualified_by = None
    locked.disqualification_reason = ""
    return saved_with_reason(locked, user, reason)


def saved_with_reason(participant: Participant, user: User, reason: str) -> Participant:
    """Saves the disqualification fields as a version of the participant's history by ``user`` with ``reason``
    (the versions with a reason are the record: ``disqualification_record``)."""
    participant._change_reason = reason  # type: ignore[attr-defined]
    participant._history_user = user  # type: ignore[attr-defined]
    participant.save(update_fields=["disqualified_at", "disqualified_by", "disqualification_reason"])
    return participant


@dataclass(frozen=True)
class DisqualificationEvent:
    disqualified: bool  # False: reinstated
    at: datetime
    by: User | None
    reason: str


def disqualification_record(participant: Participant) -> list[DisqualificationEvent]:
    """Every disqualification and reinstatement of the participant, oldest first (one query): the versions
    these services saved, the only ones with a reason."""
    versions = (participant.history.exclude(history_change_reason__isnull=True).exclude(history_change_reason="")
                .select_related("history_user").order_by("history_date", "history_id"))
    events = [DisqualificationEvent(disqualified=v.disqualified_at is not None, at=v.history_date, by=v.history_user,
                                    reason=v.history_change_reason) for v in versions]
    if participant.disqualified_at is not None and not (events and events[-1].disqualified):
        # Disqualified by an imported file (rows created in bulk keep no history): the fields say it.
        events.append(DisqualificationEvent(disqualified=True, at=participant.disqualified_at,
                                            by=participant.disqualified_by, reason=participant.disqualification_reason))
    return events
