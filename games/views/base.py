"""The base of every protocol page: the tournament, the user's staff role, the table, checked."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring.errors import Problem
from tournaments.models import Table, Tournament

from ..permissions import Staff, can_open, staff_of
from ..problem_text import problem_text


class StaffRequiredMixin(LoginRequiredMixin):
    """Loads ``self.tournament`` and ``self.staff``; anonymous → login, no role here → 403."""

    tournament: Tournament
    staff: Staff
    request: HttpRequest

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        self.staff = staff_of(request.user, self.tournament)
        if not self.staff.is_staff:
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class TableAccessMixin(StaffRequiredMixin):
    """Also loads ``self.table``; a judge gets further only for a table assigned to them."""

    table: Table

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        self.staff = staff_of(request.user, self.tournament)
        self.table = get_object_or_404(
            Table.objects.select_related("round__stage"), pk=kwargs["table"], round__stage__tournament=self.tournament
        )
        if not can_open(self.staff, self.table):
            raise PermissionDenied
        return super(StaffRequiredMixin, self).dispatch(request, *args, **kwargs)


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
