"""The base of every protocol page: the tournament, the user's staff role, the table, checked."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import Problem
from tournaments.mixins import TournamentMixin
from tournaments.models import Table
from tournaments.problem_text import problem_text

from ..permissions import Staff, staff_of, table_to_open


class StaffRequiredMixin(LoginRequiredMixin, TournamentMixin):
    """Loads ``self.tournament`` and ``self.staff``; anonymous → login, no role here → 403."""

    staff: Staff

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        self.staff = staff_of(request.user, self.tournament)
        if not self.staff.may("enter"):
            raise PermissionDenied


class TableAccessMixin(StaffRequiredMixin):
    """Also loads ``self.table`` (404 when the tournament has no such table); a judge gets further
    only for a table assigned to them."""

    table: Table

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        self.staff = staff_of(request.user, self.tournament)
        self.table = table_to_open(self.tournament, kwargs["table"])
        if not self.staff.may("open", self.table):
            raise PermissionDenied


def split_problems(problems: list[Problem]) -> tuple[dict[int, list[str]], list[str]]:
    """Problems by seat (each message names its seat) and the others."""
    by_seat: dict[int, list[str]] = {}
    general: list[str] = []
    for problem in problems:
        seat = problem.location.seat
        if seat is not None:
            text = problem_text(problem, with_location=False)
            by_seat.setdefault(seat, []).append(_("Seat %(n)s: %(problem)s") % {"n": seat, "problem": text})
        else:
            general.append(problem_text(problem, with_location=False))
    return by_seat, general


def grouped_problems(problems: list[Problem]) -> list[str]:
    """What is missing or wrong, one line per kind of problem: the seats with the same problem named together
    ("Seats 1, 2, 5: …"), so twelve seats without an SP are one line, not twelve."""
    seats_of: dict[str, list[int]] = {}
    general: list[str] = []
    for problem in problems:
        text = problem_text(problem, with_location=False)
        if problem.location.seat is None:
            general.append(text)
        else:
            seats_of.setdefault(text, []).append(problem.location.seat)
    lines = list(dict.fromkeys(general))
    for text, seats in seats_of.items():
        numbers = ", ".join(str(n) for n in sorted(set(seats)))
        lines.append(ngettext("Seat %(seats)s: %(problem)s", "Seats %(seats)s: %(problem)s", len(set(seats)))
                     % {"seats": numbers, "problem": text})
    return lines
