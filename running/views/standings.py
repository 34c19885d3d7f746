"""The organizer's standings of a stage (one adapter, fixed queries) and closing the stage."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any, ClassVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from exchange.reading import to_model
from running.awards import resolve_awards
from running.services.figures import planned_rounds
from running.services.stages import close_stage, next_stage_of, reopen_stage
from scoring.standings import compute_standings
from tournaments.errors import SeatingError
from tournaments.labels import chain_columns, metric_label
from tournaments.models import Stage
from tournaments.permissions import OrganizerRequiredMixin


def number(value: Fraction | int | None) -> str:
    """Points as the organizer reads them: whole numbers plain, others with up to 2 decimals."""
    if value is None:
        return "—"
    if isinstance(value, int) or value.denominator == 1:
        return str(int(value))
    return f"{float(value):.2f}".rstrip("0")


class StandingsView(OrganizerRequiredMixin, View):
    template_name = "running/standings.html"

    def get(self, request: HttpRequest, slug: str, stage: str) -> HttpResponse:
        stage_row = get_object_or_404(Stage.objects.select_related("tournament"), tournament=self.tournament,
                                      ext_id=stage)
        model = to_model(self.tournament)
        standings = compute_standings(model, stage_row.ext_id)
        teams = {p.id: p.team for p in model.players}
        team_names = {t.id: t.name for t in model.teams or ()}
        advance = set(standings.advance)
        disqualified = set(self.tournament.participants.filter(disqualified_at__isnull=False)
                           .values_list("ext_id", flat=True))
        rows: list[dict[str, Any]] = [
            {"rank": row.rank, "name": row.name, "points": number(row.points), "games": row.tally.games,
             "wins": row.tally.wins, "eligible": row.eligible, "advances": row.player in advance,
             "disqualified": row.player in disqualified,
             "team": team_names.get(teams.get(row.player) or "", ""),
             "tiebreaks": [number(row.tiebreaks.get(metric)) for metric in chain_columns(standings.chain)]}
            for row in standings.rows
        ]
        next_stage = next_stage_of(stage_row)
        return render(request, self.template_name, {
            "tournament": self.tournament, "stage": stage_row, "rows": rows,
            "chain": [metric_label(metric) for metric in chain_columns(standings.chain)],
            "teams": [{"rank": t.rank, "name": t.name, "points": number(t.points)} for t in standings.teams or ()],
            "advance_count": len(standings.advance),
            "planned": planned_rounds(stage_row), "played": stage_row.rounds.count(),
            "next_stage": next_stage,
            # the last stage's page shows the awards as they stand (the organizer's full page: running:awards)
            "awards": resolve_awards(self.tournament, model) if next_stage is None else None,
        })

    def post(self, request: HttpRequest, slug: str, stage: str) -> HttpResponseBase:
        stage_row = get_object_or_404(Stage, tournament=self.tournament, ext_id=stage)
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        try:
            if handler is None:
                messages.error(request, _("Unknown action."))
            else:
                handler(self, request, stage_row)
        except SeatingError as error:
            messages.error(request, str(error))
        return redirect("running:standings", slug=slug, stage=stage)

    def close(self, request: HttpRequest, stage_row: Stage) -> None:
        closed = close_stage(stage_row, short_confirmed=request.POST.get("short") == "1")
        if closed.next_stage is not None:
            messages.success(request, _("The stage is closed; %(n)s players go on to %(next)s.")
                             % {"n": len(closed.advanced), "next": closed.next_stage})
        else:
            messages.success(request, _("The stage is closed."))

    def reopen(self, request: HttpRequest, stage_row: Stage) -> None:
        reopen_stage(stage_row)
        messages.success(request, _("The stage is open again; close it again to fix who goes on."))

    ACTIONS: ClassVar[dict[str, Callable[[StandingsView, HttpRequest, Stage], None]]] = {
        "close": close, "reopen": reopen,
    }
