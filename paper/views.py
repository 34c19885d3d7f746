"""Printable pages and downloads: seating sheets, blank protocol forms, the application form, results (thin
views)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views import View

from judges.services.links import links_by_table
from tournaments.filenames import safe_filename
from tournaments.mixins import TournamentMixin
from tournaments.models import Round
from tournaments.rules import ruleset_for

from .access import may_print
from .documents import BeingPrepared, pdf_document
from .pdf import pdf_response
from .protocol_forms import forms_context
from .seating import RoundSheets, round_sheets
from .views_results import being_prepared


class PrintAccessMixin(LoginRequiredMixin, TournamentMixin):
    """Loads ``self.tournament`` and ``self.round``; organizers and the chief judge only."""

    round: Round

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        if not may_print(request.user, self.tournament):
            raise PermissionDenied
        self.round = get_object_or_404(Round.objects.select_related("stage"), stage__tournament=self.tournament,
                                       stage__ext_id=kwargs["stage"], number=kwargs["number"])

    def file_stem(self, kind: str) -> str:
        return safe_filename(self.tournament.slug, self.round.stage.ext_id, f"r{self.round.number}", kind)

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return super().dispatch(request, *args, **kwargs)
        except BeingPrepared as preparing:
            return being_prepared(request, preparing.retry_after, results=False)

    def as_pdf(self, request: HttpRequest, template: str, context: dict[str, Any], kind: str) -> HttpResponse:
        """The page's PDF, made by the documents' worker (``documents.pdf_document``)."""
        html = render_to_string(template, {**context, "pdf": True}, request=request)
        return pdf_response(pdf_document(html, kind), self.file_stem(kind) + ".pdf")


class SeatingPrintView(PrintAccessMixin, View):
    """One sheet per table and the alphabetical list; ``pdf=True`` downloads them as a PDF."""

    template_name = "paper/seating.html"
    pdf = False

    def get(self, request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponse:
        sheets = round_sheets(self.round)
        if self.tournament.is_organizer(request.user):
            sheets = with_links(request, sheets)
        context = {
            "tournament": self.tournament, "sheets": sheets,
            "draft": not self.round.is_published,
            "pdf_url": reverse("paper:seating_pdf", kwargs={"slug": slug, "stage": stage, "number": number}),
        }
        if self.pdf:
            return self.as_pdf(request, self.template_name, context, "seating")
        return render(request, self.template_name, context)


def with_links(request: HttpRequest, sheets: RoundSheets) -> RoundSheets:
    """Each table's sheet with its judge's private link, for the organizer's print (the chief judge's print has
    none: a link signs in as its judge, so it goes on the sheet the organizer hands to that judge)."""
    slug = sheets.round.stage.tournament.slug
    tokens = links_by_table(sheets.round)
    tables = tuple(
        replace(t, link=request.build_absolute_uri(reverse("games:private_link",
                                                           kwargs={"slug": slug, "token": tokens[t.table]})))
        if t.table in tokens else t
        for t in sheets.tables)
    return replace(sheets, tables=tables)


class ProtocolFormsView(PrintAccessMixin, View):
    """A blank protocol per table of the round, for the regulation; ``pdf=True`` downloads them."""

    template_name = "paper/protocol_forms.html"
    pdf = False

    def get(self, request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponse:
        context = {
            "tournament": self.tournament, "draft": not self.round.is_published,
            "ruleset_name": self.tournament.get_ruleset_display(), **forms_context(self.round),
            "pdf_url": reverse("paper:forms_pdf", kwargs={"slug": slug, "stage": stage, "number": number}),
        }
        if self.pdf:
            return self.as_pdf(request, self.template_name, context, "protocols")
        return render(request, self.template_name, context)


class ApplicationFormView(LoginRequiredMixin, TournamentMixin, View):
    """The blank application form of a regulation that takes applications (kostroma annex 1.1), to print for the
    players who apply on paper; ``pdf=True`` downloads it. Organizers and the chief judge, as the other blank
    forms; 404 under a regulation without applications (docs/rules/kostroma.md, "Applications")."""

    template_name = "paper/application_form.html"
    pdf = False

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        if not may_print(request.user, self.tournament):
            raise PermissionDenied
        if not ruleset_for(self.tournament).takes_applications:
            raise Http404("no applications under this regulation")

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            return super().dispatch(request, *args, **kwargs)
        except BeingPrepared as preparing:
            return being_prepared(request, preparing.retry_after, results=False)

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        ruleset = ruleset_for(self.tournament)
        context = {"tournament": self.tournament, "ruleset": ruleset,
                   "pdf_url": reverse("paper:application_form_pdf", kwargs={"slug": slug})}
        if self.pdf:
            html = render_to_string(self.template_name, {**context, "pdf": True}, request=request)
            return pdf_response(pdf_document(html, "application-form"),
                                safe_filename(self.tournament.slug, "application-form") + ".pdf")
        return render(request, self.template_name, context)
