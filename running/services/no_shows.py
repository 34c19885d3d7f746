"""Marking a round's missing players absent from its check-in (docs/check-in.md), through the existing absences
(``seating.mark_absent``: the regulation's absence points apply, the draft is cleared), recorded with who and when
(``checkin.models.NoShow``) and reversible."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from checkin.models import CheckIn, NoShow
from checkin.services import CheckInError, roll
from tournaments.models import Absence, Participant, Round
from tournaments.services.stage_players import stage_players

from . import seating

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@transaction.atomic
def mark_missing_absent(round_: Round, check_in: CheckIn, user: User) -> list[Participant]:
    """Every player the session does not have present, not already absent, marked absent from ``round_`` (a draft)
    with the existing absence (``seating.mark_absent``: the regulation's absence points apply, the draft is
    cleared); the caller seats the draft again. Returns who was marked."""
    if check_in.tournament_id != round_.stage.tournament_id:
        raise CheckInError(_("This check-in is of another tournament."))
    already = set(Absence.objects.filter(round=round_).values_list("participant_id", flat=True))
    stage = {p.pk for p in stage_players(round_.stage)}
    missing = [p for p in roll(check_in).missing if p.pk in stage and p.pk not in already]
    if not missing:
        raise CheckInError(_("No one is missing."))
    now = timezone.now()
    for participant in missing:
        seating.mark_absent(round_, participant)
    NoShow.objects.bulk_create([NoShow(check_in=check_in, round=round_, participant=p, marked_at=now,
                                       marked_by=user) for p in missing])
    return missing


@transaction.atomic
def restore_no_shows(round_: Round, user: User) -> list[Participant]:
    """Undo ``mark_missing_absent``: the absences it made that are still there are removed (the draft is cleared
    to be seated again), and each record says who restored it when."""
    rows = list(NoShow.objects.select_for_update().filter(round=round_, restored_at__isnull=True)
                .select_related("participant__player"))
    if not rows:
        raise CheckInError(_("No absences were marked from the check-in."))
    away = set(Absence.objects.filter(round=round_).values_list("participant_id", flat=True))
    back = []
    for row in rows:
        if row.participant_id in away:
            seating.unmark_absent(round_, row.participant)
            back.append(row.participant)
    NoShow.objects.filter(pk__in=[r.pk for r in rows]).update(restored_at=timezone.now(), restored_by=user)
    return back
