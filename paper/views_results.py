"""Results downloads and the printable results sheet; nothing while the standings are hidden,
except for the tournament's organizers (the sheet then says it is not for publication).

Each answer is built once per results version and served from the shared cache (``documents``): anyone
may ask for them, and a PDF of a large tournament takes seconds to build."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from django.views import View

from public.snapshot import Snapshot
from tournaments.filenames import attachment
from tournaments.mixins import TournamentMixin

from .access import may_see_results
from .diplomas import diplomas_of, settings_of
from .documents import BeingPrepared, Document, built_document
from .pdf import render_pdf
from .results import ResultTable, all_tables
from .spreadsheets import to_csv, to_xlsx

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class ResultsBase(TournamentMixin, View):
    http_method_names = ["get", "head"]
    tournament_related = ("results_version",)

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        if not may_see_results(request.user, self.tournament):
            raise PermissionDenied(_("The organizer has not published the standings yet: the results are shown "
                                     "here once they are."))

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return super().dispatch(request, *args, **kwargs)
        except BeingPrepared as preparing:
            return being_prepared(request, preparing.retry_after)

    def document(self, name: str, build: Callable[[], bytes]) -> Document:
        """``build()``'s bytes for this results version, built once (``documents.built_document``)."""
        return built_document(self.tournament, name, build)

    def answer(self, request: HttpRequest, document: Document, content_type: str,
               name: str | None = None) -> HttpResponseBase:
        """The document, or 304 when the browser has this version (its ETag); ``name``: as a download."""
        etag = f'"results-{self.tournament.pk}-{document.version}-{int(self.tournament.standings_hidden)}"'
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return not_modified
        response = self.download(document.data, content_type, name) if name else \
            HttpResponse(document.data, content_type=content_type)
        response["ETag"] = etag
        response["Cache-Control"] = "private, no-cache"
        response["Vary"] = "Cookie, Accept-Language"
        return response

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
        response["Content-Disposition"] = attachment(self.tournament.slug, name)
        response["Cache-Control"] = "private, no-cache"
        return response


class ResultsCsvView(ResultsBase):
    """``stage`` is a stage's id; none: the final results."""

    def get(self, request: HttpRequest, slug: str, stage: str | None = None) -> HttpResponseBase:
        if stage is not None and not self.tournament.stages.filter(ext_id=stage).exists():
            raise Http404(stage)

        def build() -> bytes:
            final, stages = self.tables()
            table = final if stage is None else next(t for t in stages if t.key == stage)
            return to_csv(table, self.notice()).encode()

        document = self.document("csv" if stage is None else f"csv:{stage}", build)
        return self.answer(request, document, "text/csv; charset=utf-8", f"{stage or 'final'}.csv")


class TeamsCsvView(ResultsBase):
    """A stage's team table (``stage`` is its id); 404 where the tournament has no teams."""

    def get(self, request: HttpRequest, slug: str, stage: str) -> HttpResponseBase:
        if not self.tournament.stages.filter(ext_id=stage).exists() or not self.tournament.teams.exists():
            raise Http404(stage)

        def build() -> bytes:
            _final, stages = self.tables()
            teams = next(t for t in stages if t.key == stage).teams
            assert teams is not None  # the tournament has teams
            return to_csv(teams, self.notice()).encode()

        document = self.document(f"csv-teams:{stage}", build)
        return self.answer(request, document, "text/csv; charset=utf-8", f"{stage}-teams.csv")


class ResultsXlsxView(ResultsBase):
    def get(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        def build() -> bytes:
            final, stages = self.tables()
            return to_xlsx([final, *stages], self.notice())

        return self.answer(request, self.document("xlsx", build), XLSX, "results.xlsx")


class ResultsPrintView(ResultsBase):
    """The winners, the final results and each stage's standings, print-ready; ``pdf`` downloads."""

    template_name = "paper/results.html"
    pdf = False

    def get(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        def context() -> dict[str, Any]:
            final, stages = self.tables()
            return {"tournament": self.tournament, "final": final,
                    "stages": [t for t in stages if t.rows], "hidden": self.tournament.standings_hidden}

        if self.pdf:
            document = self.document("pdf", lambda: render_pdf(None, self.template_name, context()))
            return self.answer(request, document, "application/pdf", "results.pdf")
        document = self.document("print", lambda: render_to_string(self.template_name, context()).encode())
        return self.answer(request, document, "text/html; charset=utf-8")


def being_prepared(request: HttpRequest, seconds: int) -> HttpResponse:
    """503 while the first copy of a document is built by another request: a page that reloads itself."""
    response = render(request, "paper/being_prepared.html", {"seconds": seconds}, status=503)
    response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    response._has_been_logged = True  # type: ignore[attr-defined]  # an expected state: no error line per request
    return response


class DiplomasView(ResultsBase):
    """Diplomas and certificates, print-ready (``pdf``: the PDF); ``?lang=ru`` or ``en`` prints them in that
    language, whatever the page's (docs/rules/awards.md)."""

    template_name = "paper/diplomas.html"
    pdf = False

    def get(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        language = request.GET.get("lang")
        if language not in (None, "ru", "en"):
            raise Http404(language)
        with translation.override(language or translation.get_language()):
            return self.answer_diplomas(request)

    def answer_diplomas(self, request: HttpRequest) -> HttpResponseBase:
        def context() -> dict[str, Any]:
            snapshot = Snapshot(self.tournament)
            return {"tournament": self.tournament, "diplomas": diplomas_of(snapshot),
                    "settings": settings_of(snapshot), "final": snapshot.final_over,
                    "hidden": self.tournament.standings_hidden, "lang": translation.get_language()}

        if self.pdf:
            document = self.document("diplomas-pdf", lambda: render_pdf(None, self.template_name, context()))
            return self.answer(request, document, "application/pdf", "diplomas.pdf")
        document = self.document("diplomas", lambda: render_to_string(self.template_name, context()).encode())
        return self.answer(request, document, "text/html; charset=utf-8")
