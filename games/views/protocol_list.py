"""The protocols a user may open: every table of the published rounds for the organizers and the chief judge, a
judge's own tables for a judge."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views import View

from tournaments.models import Table

from ..models import Game
from ..permissions import assigned_tables
from .base import StaffRequiredMixin


class ProtocolListView(StaffRequiredMixin, View):
    """The tables of the published rounds this user may open, with their protocols' states."""

    template_name = "games/protocols.html"

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        tables = Table.objects.published().filter(round__stage__tournament=self.tournament)
        if not self.staff.may("see_all"):
            assert self.staff.judge is not None
            tables = tables.filter(assigned_tables(self.staff.judge))
        rows = list(tables.select_related("round__stage").order_by("round__stage__order", "round__number", "number"))
        games = {g.table_id: g for g in Game.objects.filter(table__in=[t.pk for t in rows])}
        context: dict[str, Any] = {
            "tournament": self.tournament, "staff": self.staff,
            "rows": [(table, games.get(table.pk)) for table in rows],
        }
        return render(request, self.template_name, context)
