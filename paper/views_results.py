"""Results downloads and the printable results sheet; nothing while the standings are hidden,
except for the tournament's organizers (the sheet then says it is not for publication)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.views import View

from public.snapshot import Snapshot
from tournaments.models import Tournament

from .access import may_see_results
from .pdf import pdf_response, render_pdf
from .results import ResultTable, all_tables
from .spreadsheets import to_csv, to_xlsx

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class ResultsBase(View):
    http_method_names = ["get", "head"]
    tournament: Tournament

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        if not may_see_results(request.user, self.tournament):
            raise PermissionDenied(_("The standings of this tournament are hidden."))
        return super().dispatch(request, *args, **kwargs)

    def tables(self) -> tuple[ResultTable, list[ResultTable]]:
        return all_tables(Snapshot(self.tournament))

    def notice(self) -> str:
        """Only organizers get hidden standings; their copy says it is not for publication."""
        return _("The standings are hidden: not for publication.") if self.tournament.standings_hidden else ""

    def download(self, data: str | bytes, content_type: str, name: str) -> HttpResponse:
        if self.tournament.standings_hidden:
            stem, dot, extension = name.rpartition(".")
            name = f"{stem}-not-for-publication{dot}{extension}"  # ASCII: a header's plain filename
        response = HttpResponse(data, content_type=content_type)
        response["Content-Disposition"] = f'attachment; filename="{self.tournament.slug}-{name}"'
        response["Cache-Control"] = "private, no-cache"
        return response


class ResultsCsvView(ResultsBase):
    """``stage`` is a stage's id; none: the final results."""

    def get(self, request: HttpRequest, slug: str, stage: str | None = None) -> HttpResponse:
        final, stages = self.tables()
        if stage is None:
            table = final
        else:
            table = next((t for t in stages if t.key == stage), None)  # type: ignore[assignment]
            if table is None:
                raise Http404(stage)
        return self.download(to_csv(table, self.notice()), "text/csv; charset=utf-8", f"{table.key}.csv")


class ResultsXlsxView(ResultsBase):
    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        final, stages = self.tables()
        return self.download(to_xlsx([final, *stages], self.notice()), XLSX, "results.xlsx")


class ResultsPrintView(ResultsBase):
    """The winners, the final results and each stage's standings, print-ready; ``pdf`` downloads."""

    template_name = "paper/results.html"
    pdf = False

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        final, stages = self.tables()
        context = {"tournament": self.tournament, "final": final,
                   "stages": [t for t in stages if t.rows], "hidden": self.tournament.standings_hidden}
        if self.pdf:
            return pdf_response(render_pdf(request, self.template_name, context), f"{slug}-results.pdf")
        return render(request, self.template_name, context)
