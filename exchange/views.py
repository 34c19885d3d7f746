"""The tournament file in the browser: importing one as a new tournament, exporting one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from scoring.errors import InvalidTournament
from tournaments.filenames import attachment
from tournaments.permissions import CanCreateTournamentMixin, OrganizerRequiredMixin
from tournaments.problem_text import problem_text

from .files import export_text, import_text, read_upload

if TYPE_CHECKING:
    from mafia_tournament.users import AuthenticatedHttpRequest


class ImportTournamentView(LoginRequiredMixin, CanCreateTournamentMixin, View):
    template_name = "exchange/import.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, self.template_name, {})

    def post(self, request: AuthenticatedHttpRequest) -> HttpResponseBase:
        upload = request.FILES.get("file")
        problems: list[str] = []
        if upload is None:
            problems = [_("Choose a tournament file.")]
        else:
            try:
                text = read_upload(upload)  # past 20 MB (scoring.fileio.MAX_FILE_BYTES) refused unread
                tournament = import_text(text, organizers=[request.user])
            except UnicodeDecodeError:
                problems = [_("The file is not UTF-8 text.")]
            except InvalidTournament as error:
                problems = [problem_text(p) for p in error.problems]
            else:
                messages.success(request, _("The tournament is imported."))
                return redirect(tournament)
        return render(request, self.template_name, {"problems": problems}, status=400)


class ExportTournamentView(OrganizerRequiredMixin, View):
    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        response = HttpResponse(export_text(self.tournament), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = attachment(f"{self.tournament.slug}.json")
        return response
