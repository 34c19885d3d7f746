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

from running.awards import resolve_awards
from running.final import final_over_in, named_winners
from running.services.figures import planned_rounds
from running.services.lots import cancel_draw, draw_lots, stage_ties
from running.services.stages import close_stage, next_stage_of, reopen_stage
from scoring.model import StageKind
from scoring.teams import cut_line_after
from tournaments.errors import UserError
from tournaments.labels import chain_columns, local_number, metric_label, shows_average, standing_note
from tournaments.mixins import signed_in
from tournaments.models import LotDraw, Stage
from tournaments.permissions import OrganizerRequiredMixin
from tournaments.rules import ruleset_for

from .lots import draw_history, tie_context


def number(value: Fraction | int | None) -> str:
    """Points and tie-break values as the organizer reads them, in the reader's number format; "—" for none."""
    return local_number(value, blank="—")


class StandingsView(OrganizerRequiredMixin, View):
    template_name = "running/standings.html"

    def get(self, request: HttpRequest, slug: str, stage: str) -> HttpResponse:
        stage_row = get_object_or_404(Stage.objects.select_related("tournament"), tournament=self.tournament,
                                      ext_id=stage)
        found = stage_ties(stage_row)
        standings = found.standings
        model = found.model
        teams = {p.id: p.team for p in model.players}
        team_names = {t.id: t.name for t in model.teams or ()}
        any_result = any(row.tally.games for row in standings.rows)  # before it, the cut would be by number
        advance = set(standings.advance) if any_result else set()
        ruleset = ruleset_for(self.tournament)
        limit = ruleset.params.ineligible_after_absences
        next_stage = next_stage_of(stage_row)
        # the winners as the public page names them (running.final): of a final, once it is over
        over = standings.kind is StageKind.FINAL and final_over_in(model, stage_row, ruleset)
        winners = named_winners(standings, over) or ()
        # The engine lists the disqualified last, without a rank (docs/rules/tournament.md).
        team_line = cut_line_after(standings.teams)
        columns = chain_columns(standings.chain, standings.rank_by)
        rows: list[dict[str, Any]] = [
            {"rank": row.rank, "name": row.name, "points": number(row.points), "games": row.tally.games,
             "wins": row.tally.wins, "eligible": row.eligible, "advances": row.player in advance,
             "disqualified": row.disqualified is not None, "note": standing_note(row, limit, standings.min_games),
             "average": number(row.tally.average), "by_lot": row.player in found.decided,
             "winner": row.player in winners,
             "team": team_names.get(teams.get(row.player) or "", ""),
             "tiebreaks": [number(row.tiebreaks.get(metric)) for metric in columns]}
            for row in standings.rows
        ]
        names = {row.player: row.name for row in standings.rows}
        return render(request, self.template_name, {
            "tournament": self.tournament, "stage": stage_row, "rows": rows,
            "team_column": bool(model.teams),  # kostroma and zvezdy have none: an empty column on every row
            "chain": [metric_label(metric) for metric in columns],
            "average": metric_label("points_average") if shows_average(standings.rank_by) else None,
            "teams": [{"rank": t.rank, "name": t.name, "points": number(t.points),
                       "advances": t.advances and any_result, "contending": t.contending,
                       "line": index + 1 == team_line}
                      for index, t in enumerate(standings.teams or ())],
            "team_cut": standings.team_cut,
            "teams_out": any(not t.contending for t in standings.teams or ()),
            "team_advance_count": len(standings.team_advance),
            "champion_teams": ([team_names.get(tid, tid) for tid in standings.champion_teams]
                               if standings.champion_teams is not None else None),
            "advance_count": len(standings.advance), "any_result": any_result,
            "planned": planned_rounds(stage_row), "played": stage_row.rounds.count(),
            "next_stage": next_stage, "final_over": over,
            "winners": [names.get(pid, pid) for pid in winners],
            # a final with results, not over yet: the winners are named once it is
            "winners_pending": not over and standings.kind is StageKind.FINAL and standings.winners is not None,
            # the last stage's page shows the awards as they stand (the organizer's full page: running:awards)
            "awards": resolve_awards(self.tournament, model) if next_stage is None else None,
            "ties": [tie_context(tie, standings) for tie in found.ties],
            "draws": draw_history(LotDraw.objects.filter(stage=stage_row), standings),
        })

    def post(self, request: HttpRequest, slug: str, stage: str) -> HttpResponseBase:
        stage_row = get_object_or_404(Stage, tournament=self.tournament, ext_id=stage)
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        try:
            if handler is None:
                messages.error(request, _("Unknown action."))
            else:
                handler(self, request, stage_row)
        except UserError as error:
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

    def draw(self, request: HttpRequest, stage_row: Stage) -> None:
        drawn = draw_lots(stage_row, request.POST.getlist("players"), signed_in(request))
        messages.success(request, _("Lots drawn. The order: %(order)s.") % {"order": self._names(drawn)})

    def record_draw(self, request: HttpRequest, stage_row: Stage) -> None:
        order = [pid for pid in request.POST.getlist("order") if pid]
        drawn = draw_lots(stage_row, request.POST.getlist("players"), signed_in(request), order=order,
                          note=request.POST.get("note", ""))
        messages.success(request, _("The draw is recorded. The order: %(order)s.") % {"order": self._names(drawn)})

    def cancel_draw(self, request: HttpRequest, stage_row: Stage) -> None:
        try:
            draw_id = int(request.POST.get("draw", ""))
        except ValueError:
            draw_id = 0
        cancel_draw(stage_row, draw_id, signed_in(request))
        messages.success(request, _("The draw is cancelled: its players are tied again."))

    def _names(self, draw: LotDraw) -> str:
        names = {p.ext_id: p.player.full_name for p in self.tournament.participants.select_related("player")
                 .filter(ext_id__in=draw.players)}
        return ", ".join(names.get(pid, pid) for pid in draw.players)

    ACTIONS: ClassVar[dict[str, Callable[[StandingsView, HttpRequest, Stage], None]]] = {
        "close": close, "reopen": reopen, "draw": draw, "record_draw": record_draw, "cancel_draw": cancel_draw,
    }
