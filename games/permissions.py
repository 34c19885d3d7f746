"""Who may open, edit, confirm and reopen a game's protocol, and print (checked on the server).

- Organizers of the tournament (and superusers) and its chief judge: every protocol; they confirm
  and print the seating sheets and blank forms.
- A judge: only the protocols of the tables assigned to them (for that round, or the whole stage).
- Only the chief judge reopens a confirmed protocol and decides protests.

``staff_of`` builds a user's ``Staff`` once per request; ``Staff.may(action)`` is the one answer to
who may act (the staff pages, the paper and the API all ask it). Whether a user organises the
tournament is ``Tournament.is_organizer`` (the lower layer); the judges' roles are here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from django.db.models import Exists, Q
from django.shortcuts import get_object_or_404

from judges.models import Judge, JudgeAssignment
from tournaments.models import Table, Tournament

Action = Literal["enter", "see_all", "open", "confirm", "reopen", "decide", "print"]

if TYPE_CHECKING:
    from base.users import AnyUser


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

    def may(self, action: Action, table: Table | None = None) -> bool:
        """Whether this user may ``action``: ``enter`` the staff pages, ``see_all`` protocols,
        ``open`` ``table``'s protocol, ``confirm`` one, ``reopen`` a confirmed one, ``decide`` protests
        (and accept a late one), ``print`` the seating sheets and blank forms."""
        if action == "open":
            if table is None:
                raise TypeError("Staff.may('open') needs the table")
            return self.sees_all or (self.judge is not None and assigned(self.judge, table))
        return RULES[action](self)


RULES: dict[str, Callable[[Staff], bool]] = {
    "enter": lambda staff: staff.is_staff,
    "see_all": lambda staff: staff.sees_all,
    "confirm": lambda staff: staff.can_confirm,
    "reopen": lambda staff: staff.can_reopen,
    "decide": lambda staff: staff.chief,
    "print": lambda staff: staff.sees_all,
}


def staff_of(user: AnyUser | None, tournament: Tournament) -> Staff:
    """The roles ``user`` has in ``tournament`` (none for anyone not signed in; the API's anonymous is None)."""
    if user is None or not user.is_authenticated:
        return Staff()
    # A judge (every request of a tournament day's judges) is read with whether they organise it, in one query.
    judge = (Judge.objects.filter(tournament=tournament, user=user)
             .annotate(organizes=Exists(tournament.organizers.filter(pk=user.pk))).first())
    if judge is None:
        return Staff(organizer=tournament.is_organizer(user))
    return Staff(organizer=user.is_superuser or judge.organizes, chief=judge.chief, judge=judge)


def assigned(judge: Judge, table: Table) -> bool:
    """Whether ``judge`` hosts ``table`` (assigned for its round, or for its whole stage)."""
    return JudgeAssignment.objects.filter(
        Q(round=table.round_id) | Q(round__isnull=True, stage=table.round.stage_id),
        judge=judge,
        table=table.number,
    ).exists()


def can_open(staff: Staff, table: Table) -> bool:
    return staff.may("open", table)


def table_to_open(tournament: Tournament, pk: Any) -> Table:
    """The table ``pk`` of ``tournament`` (with its round and stage), or ``Http404``."""
    return get_object_or_404(Table.objects.select_related("round__stage"), pk=pk, round__stage__tournament=tournament)


def assigned_tables(judge: Judge) -> Q:
    """A filter on ``Table`` rows: the tables this judge hosts."""
    condition = Q(pk__in=[])
    for a in judge.assignments.all():
        if a.round_id is not None:
            condition |= Q(round=a.round_id, number=a.table)
        else:
            condition |= Q(round__stage=a.stage_id, number=a.table)
    return condition
