"""Results downloads and the printable results sheet; nothing while the standings are hidden,
except for the tournament's organizers (the sheet then says it is not for publication).

Each answer is built once per results version by the documents' worker and served from the shared cache
(``documents``, ``builds``): anyone may ask for them, and a PDF of a large tournament takes seconds to build."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_vary_headers
from django.utils.translation import gettext as _
from django.views import View

from public.conditional import for_the_proxy, shared, shared_cache_control
from tournaments.filenames import attachment
from tournaments.mixins import TournamentMixin

from .access import may_see_results
from .documents import BeingPrepared, Document, built_document

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

    def document(self, name: str) -> Document:
        """Document ``name`` (``paper.builds``) of this results version, built by the worker
        (``documents.built_document``)."""
        return built_document(self.tournament, name)

    def answer(self, request: HttpRequest, document: Document, content_type: str,
               name: str | None = None) -> HttpResponseBase:
        """The document, or 304 when the browser has this version (its ETag); ``name``: as a download."""
        etag = f'"results-{self.tournament.pk}-{document.version}-{int(self.tournament.standings_hidden)}"'
        not_modified = get_conditional_response(request, etag=etag)
        if not_modified is not None:
            return for_the_proxy(request, not_modified)
        response = self.download(document.data, content_type, name) if name else \
            HttpResponse(document.data, content_type=content_type)
        response["ETag"] = etag
        patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return for_the_proxy(request, response)  # an anonymous reader's copy is everyone's: the proxy keeps it

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
        document = self.document("csv" if stage is None else f"csv:{stage}")
        # the whole tournament's results: results.csv, as results.xlsx ("final.csv" read as the final stage's)
        return self.answer(request, document, "text/csv; charset=utf-8", f"{stage or 'results'}.csv")


class TeamsCsvView(ResultsBase):
    """A stage's team table (``stage`` is its id); 404 where the tournament has no teams."""

    def get(self, request: HttpRequest, slug: str, stage: str) -> HttpResponseBase:
        if not self.tournament.stages.filter(ext_id=stage).exists() or not self.tournament.teams.exists():
            raise Http404(stage)
        document = self.document(f"csv-teams:{stage}")
        return self.answer(request, document, "text/csv; charset=utf-8", f"{stage}-teams.csv")


class ResultsXlsxView(ResultsBase):
    def get(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        return self.answer(request, self.document("xlsx"), XLSX, "results.xlsx")


class ResultsPrintView(ResultsBase):
    """The winners, the final results and each stage's standings, print-ready; ``pdf`` downloads."""

    pdf = False

    def get(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        if self.pdf:
            return self.answer(request, self.document("pdf"), "application/pdf", "results.pdf")
        return self.answer(request, self.document("print"), "text/html; charset=utf-8")


def being_prepared(request: HttpRequest, seconds: int, results: bool = True) -> HttpResponse:
    """202 Accepted while the worker builds the first copy of a document (``results``: of the results): a page that
    reloads itself. Not a 503: nothing is unavailable, the work asked for is under way (a flood of such answers is
    not an error, and no monitor counts it as one). An anonymous visitor's page is the same for everyone (no CSRF
    token, no query string: ``shared``), so the proxy in front answers a flood of them (``for_the_proxy``)."""
    anonymous = shared(request)
    body = render_to_string("paper/being_prepared.html", {
        "seconds": seconds, "results": results, "shared": anonymous, "here": request.path}, request=request)
    response = HttpResponse(body, status=202)
    response["Retry-After"] = str(seconds)
    response._has_been_logged = True  # type: ignore[attr-defined]  # an expected state: no error line per request
    if anonymous:
        response["Cache-Control"] = shared_cache_control(min(seconds, settings.PROXY_CACHE_SECONDS))
    else:
        response["Cache-Control"] = "no-store"
    return response


class DiplomasView(ResultsBase):
    """Diplomas and certificates, print-ready (``pdf``: the PDF); ``?lang=ru`` or ``en`` prints them in that
    language, whatever the page's (docs/rules/awards.md)."""

    pdf = False

    def get(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        language = request.GET.get("lang")
        if language not in (None, "ru", "en"):
            raise Http404(language)
        with translation.override(language or translation.get_language()):
            if self.pdf:
                return self.answer(request, self.document("diplomas-pdf"), "application/pdf", "diplomas.pdf")
            return self.answer(request, self.document("diplomas"), "text/html; charset=utf-8")
