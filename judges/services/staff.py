"""The tournament's judges and their tables (organizers' actions), and how protocols are confirmed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Participant, ParticipantStatus, Round, Stage, Tournament

from ..models import Judge, JudgeAssignment

if TYPE_CHECKING:
    from base.users import User


class StaffError(UserError):
    """A judge the rules refuse."""


def participant_problem(tournament: Tournament, user: User) -> str | None:
    """Why ``user`` cannot judge ``tournament``: they are its participant (a player entry linked to the account,
    an application not rejected). Kostroma 3.1: the commission's members cannot be participants; every ruleset
    [ours: no document allows a judge to play]."""
    entry = (Participant.objects.filter(tournament=tournament, player__user=user)
             .exclude(status=ParticipantStatus.REJECTED).select_related("player").first())
    if entry is None:
        return None
    return _("%(user)s is %(name)s, a participant of this tournament, and cannot also be its judge.") % {
        "user": user.get_username(), "name": entry.player.full_name}


@transaction.atomic
def add_judge(tournament: Tournament, user: User, *, chief: bool = False) -> Judge:
    """Adds ``user`` as a judge (or makes them the chief judge; the former chief stays a judge); a participant
    of the tournament is refused."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # registration locks it too
    problem = participant_problem(tournament, user)
    if problem:
        raise StaffError(problem)
    if chief:
        Judge.objects.select_for_update().filter(tournament=tournament, chief=True).exclude(user=user).update(
            chief=False
        )
    judge, _created = Judge.objects.update_or_create(tournament=tournament, user=user, defaults={"chief": chief})
    return judge


def remove_judge(tournament: Tournament, judge_id: int) -> bool:
    """Whether a judge of ``tournament`` was removed (none with that id: nothing changes)."""
    deleted, _rows = Judge.objects.filter(tournament=tournament, pk=judge_id).delete()
    return deleted > 0


def assign(judge: Judge, stage: Stage, round: Round | None, table: int) -> JudgeAssignment:
    """``judge`` hosts ``table`` in ``round``, or in every round of ``stage`` when no round."""
    if judge.tournament_id != stage.tournament_id or (round is not None and round.stage_id != stage.pk):
        raise ValueError("the judge, the stage and the round belong to different tournaments")
    assignment, _created = JudgeAssignment.objects.get_or_create(judge=judge, stage=stage, round=round, table=table)
    return assignment


def unassign(tournament: Tournament, assignment_id: int) -> bool:
    """Whether an assignment of one of ``tournament``'s judges was removed."""
    deleted, _rows = JudgeAssignment.objects.filter(judge__tournament=tournament, pk=assignment_id).delete()
    return deleted > 0


def set_four_eyes(tournament: Tournament, on: bool) -> bool:
    """Whether a protocol must be confirmed by someone other than its submitter; ``True`` if it changed.
    (Only staff pages read it: the public pages' version is left alone.)"""
    changed = Tournament.objects.filter(pk=tournament.pk).exclude(four_eyes=on).update(four_eyes=on) > 0
    tournament.four_eyes = on
    return changed
