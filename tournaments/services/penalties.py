"""Round penalties: points a player gains or loses in a round, with the reason (docs/rules/tournament.md)."""

from __future__ import annotations

from decimal import Decimal

from django.db import transaction
from django.db.models import QuerySet
from django.utils.translation import gettext as _

from ..errors import PenaltyError
from ..models import Participant, ParticipantStatus, Penalty, Round, Stage


def candidates(round_: Round) -> QuerySet[Participant]:
    """Who may be penalised in the round: the stage's players."""
    stage = round_.stage
    people = Participant.objects.select_related("player").order_by("number", "id")
    if stage.players_listed:
        return people.filter(pk__in=stage.entries.values("participant"))
    return people.filter(tournament_id=stage.tournament_id, status=ParticipantStatus.ACCEPTED)


def _locked(round_: Round) -> Round:
    round_ = Round.objects.select_for_update().select_related("stage").get(pk=round_.pk)
    if Stage.objects.filter(pk=round_.stage_id, closed=True).exists():
        raise PenaltyError(_("The stage is closed; its penalties cannot change."))
    return round_


@transaction.atomic
def add(round_: Round, participant: Participant, points: Decimal, reason: str) -> Penalty:
    round_ = _locked(round_)
    if not candidates(round_).filter(pk=participant.pk).exists():
        raise PenaltyError(_("%(name)s does not play in this stage.") % {"name": participant.player.full_name})
    if points == 0:
        raise PenaltyError(_("A penalty of zero points changes nothing."))
    return Penalty.objects.create(round=round_, participant=participant, points=points, reason=reason.strip())


@transaction.atomic
def remove(round_: Round, penalty_id: str | int) -> None:
    round_ = _locked(round_)
    try:
        deleted, _count = Penalty.objects.filter(round=round_, pk=int(penalty_id)).delete()
    except ValueError:
        deleted = 0
    if not deleted:
        raise PenaltyError(_("There is no such penalty in this round."))
