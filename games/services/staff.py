"""The tournament's judges and their tables (organizers' actions), and how protocols are confirmed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from tournaments.models import Round, Stage, Tournament

from ..models import Judge, JudgeAssignment

if TYPE_CHECKING:
    from mafia_tournament.users import User


@transaction.atomic
def add_judge(tournament: Tournament, user: User, *, chief: bool = False) -> Judge:
    """Adds ``user`` as a judge (or makes them the chief judge; the former chief stays a judge)."""
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
