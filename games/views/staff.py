"""The tournament's judges and their tables (organizers only), and the protocols a user may open."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.models import RoundState, Table
from tournaments.permissions import OrganizerRequiredMixin

from ..forms_staff import AssignmentForm, JudgeForm
from ..models import Game
from ..permissions import assigned_tables
from ..services import staff
from .base import StaffRequiredMixin


class StaffView(OrganizerRequiredMixin, View):
    template_name = "games/staff.html"

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return self.page(JudgeForm(tournament=self.tournament), AssignmentForm(tournament=self.tournament))

    def page(self, judge_form: JudgeForm, assignment_form: AssignmentForm) -> HttpResponse:
        judges = list(self.tournament.judges.select_related("user").prefetch_related("assignments__stage",
                                                                                      "assignments__round"))
        return render(self.request, self.template_name, {
            "tournament": self.tournament, "judges": judges,
            "judge_form": judge_form, "assignment_form": assignment_form,
        })

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        action = request.POST.get("action")
        if action == "judge":
            form = JudgeForm(request.POST, tournament=self.tournament)
            if not form.is_valid():
                return self.page(form, AssignmentForm(tournament=self.tournament))
            staff.add_judge(self.tournament, form.cleaned_data["user"], chief=form.cleaned_data["chief"])
        elif action == "assign":
            assignment = AssignmentForm(request.POST, tournament=self.tournament)
            if not assignment.is_valid():
                return self.page(JudgeForm(tournament=self.tournament), assignment)
            staff.assign(**assignment.cleaned_data)
        elif action == "remove_judge":
            staff.remove_judge(self.tournament, int(request.POST.get("judge", 0)))
        elif action == "unassign":
            staff.unassign(self.tournament, int(request.POST.get("assignment", 0)))
        messages.success(request, _("Saved."))
        return redirect("games:staff", slug=slug)


class ProtocolListView(StaffRequiredMixin, View):
    """The tables of the published rounds this user may open, with their protocols' states."""

    template_name = "games/protocols.html"

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        tables = Table.objects.filter(round__stage__tournament=self.tournament, round__state=RoundState.PUBLISHED)
        if not self.staff.sees_all:
            assert self.staff.judge is not None
            tables = tables.filter(assigned_tables(self.staff.judge))
        rows = list(tables.select_related("round__stage").order_by("round__stage__order", "round__number", "number"))
        games = {g.table_id: g for g in Game.objects.filter(table__in=[t.pk for t in rows])}
        context: dict[str, Any] = {
            "tournament": self.tournament, "staff": self.staff,
            "rows": [(table, games.get(table.pk)) for table in rows],
        }
        return render(request, self.template_name, context)
