"""The tournament's judges and their tables (organizers' actions)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments.models import Round, Stage, Tournament

from ..models import Judge, JudgeAssignment


@transaction.atomic
def add_judge(tournament: Tournament, user: Any, *, chief: bool = False) -> Judge:
    """Adds ``user`` as a judge (or makes them the chief judge; the former chief stays a judge)."""
    if chief:
        Judge.objects.select_for_update().filter(tournament=tournament, chief=True).exclude(user=user).update(
            chief=False
        )
    judge, _created = Judge.objects.update_or_create(tournament=tournament, user=user, defaults={"chief": chief})
    return judge


def remove_judge(tournament: Tournament, judge_id: int) -> None:
    Judge.objects.filter(tournament=tournament, pk=judge_id).delete()


def assign(judge: Judge, stage: Stage, round: Round | None, table: int) -> JudgeAssignment:
    """``judge`` hosts ``table`` in ``round``, or in every round of ``stage`` when no round."""
    assignment, _created = JudgeAssignment.objects.get_or_create(judge=judge, stage=stage, round=round, table=table)
    return assignment


def unassign(tournament: Tournament, assignment_id: int) -> None:
    JudgeAssignment.objects.filter(judge__tournament=tournament, pk=assignment_id).delete()
