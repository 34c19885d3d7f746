"""Who may open, edit, confirm and reopen a game's protocol (checked on the server).

- Organizers of the tournament (and superusers) and its chief judge: every protocol; they confirm.
- A judge: only the protocols of the tables assigned to them (for that round, or the whole stage).
- Only the chief judge reopens a confirmed protocol and decides protests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from tournaments.models import Table, Tournament

from .models import Judge, JudgeAssignment


@dataclass(frozen=True)
class Staff:
    """What one user is in one tournament (computed once per request, two queries at most)."""

    organizer: bool = False
    chief: bool = False
    judge: Judge | None = None

    @property
    def sees_all(self) -> bool:
        return self.organizer or self.chief

    @property
    def can_confirm(self) -> bool:
        return self.organizer or self.chief

    @property
    def can_reopen(self) -> bool:
        return self.chief

    @property
    def is_staff(self) -> bool:
        return self.sees_all or self.judge is not None


def staff_of(user: Any, tournament: Tournament) -> Staff:
    if not getattr(user, "is_authenticated", False):
        return Staff()
    judge = Judge.objects.filter(tournament=tournament, user=user).first()
    return Staff(
        organizer=tournament.is_organizer(user),
        chief=judge is not None and judge.chief,
        judge=judge,
    )


def assigned(judge: Judge, table: Table) -> bool:
    """Whether ``judge`` hosts ``table`` (assigned for its round, or for its whole stage)."""
    return JudgeAssignment.objects.filter(
        Q(round=table.round_id) | Q(round__isnull=True, stage=table.round.stage_id),
        judge=judge,
        table=table.number,
    ).exists()


def can_open(staff: Staff, table: Table) -> bool:
    if staff.sees_all:
        return True
    return staff.judge is not None and assigned(staff.judge, table)


def assigned_tables(judge: Judge) -> Q:
    """A filter on ``Table`` rows: the tables this judge hosts."""
    condition = Q(pk__in=[])
    for a in judge.assignments.all():
        if a.round_id is not None:
            condition |= Q(round=a.round_id, number=a.table)
        else:
            condition |= Q(round__stage=a.stage_id, number=a.table)
    return condition
