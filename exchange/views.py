"""The tournament file in the browser: importing one as a new tournament, exporting one."""

from __future__ import annotations

import re
import secrets
from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from scoring.errors import InvalidTournament
from scoring.formats import PLATFORMS, FormatError
from tournaments.filenames import attachment
from tournaments.models import RulesetId, Tournament
from tournaments.permissions import CanCreateTournamentMixin, OrganizerRequiredMixin
from tournaments.problem_text import problem_text
from tournaments.services.registry import Verdict

from . import platforms
from .files import export_text, import_text, parse_text, read_upload
from .matching import FileRow, choose, chosen, file_rows, still_there

if TYPE_CHECKING:
    from base.users import AuthenticatedHttpRequest


class ImportTournamentView(LoginRequiredMixin, CanCreateTournamentMixin, View):
    """Upload a tournament file; when some of its players may be players of the registry already, the matches are
    shown and the import waits for the organizer's answers (the file kept meanwhile in the cache, an hour)."""

    template_name = "exchange/import.html"
    match_template = "exchange/import_match.html"

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, self.template_name, self.choices(request))

    def post(self, request: AuthenticatedHttpRequest) -> HttpResponseBase:
        if "token" in request.POST:
            return self.confirm(request)
        upload = request.FILES.get("file")
        if upload is None:
            return self.refused(request, [_("Choose a tournament file.")])
        source = request.POST.get("format") or platforms.OUR_FILE
        ruleset = request.POST.get("ruleset") or None
        if source != platforms.OUR_FILE and source not in PLATFORMS:
            return self.refused(request, [_("Choose one of the formats listed.")])
        if ruleset is not None and ruleset not in RulesetId.values:
            return self.refused(request, [_("Choose one of the regulations listed.")])
        try:
            text = read_upload(upload)  # past 20 MB (scoring.fileio.MAX_FILE_BYTES) refused unread
            if source != platforms.OUR_FILE:  # a platform's document becomes our file, then imports as one
                text, dropped = platforms.read_document(text, source, ruleset)
                self.tell_dropped(request, PLATFORMS[source].title, dropped)
            rows = file_rows(parse_text(text))
            if not any(row.match.candidates for row in rows):  # nobody to ask about: imported at once
                return self.imported(request, import_text(text, organizers=[request.user]))
        except UnicodeDecodeError:
            return self.refused(request, [_("The file is not UTF-8 text.")])
        except FormatError as error:  # the converter's words (scoring is English): introduced in the reader's
            return self.refused(request, [
                _("The document cannot be read as one of %(platform)s; the converter says (in English):")
                % {"platform": PLATFORMS[source].title}, *error.problems])
        except InvalidTournament as error:
            return self.refused(request, [problem_text(p) for p in error.problems])
        token = secrets.token_urlsafe(16)
        cache.set(kept_key(request.user.pk, token), text, KEEP_SECONDS)
        return self.matches(request, rows, token)

    def choices(self, request: HttpRequest) -> dict[str, object]:
        """The form's formats and regulations, with the choice posted kept."""
        return {"formats": platforms.platform_choices(), "rulesets": RulesetId.choices,
                "chosen_format": request.POST.get("format", platforms.OUR_FILE) if request.method == "POST" else
                platforms.OUR_FILE, "chosen_ruleset": request.POST.get("ruleset", "")}

    def tell_dropped(self, request: HttpRequest, platform: str, dropped: tuple[str, ...]) -> None:
        """What of the platform's document the tournament does not hold, said once the import is done."""
        if dropped:
            messages.info(request, _("%(platform)s: %(count)s facts of the document have no place in a tournament "
                                     "and were left out: %(list)s") % {
                "platform": platform, "count": len(dropped), "list": said_in_words(dropped)})

    def confirm(self, request: AuthenticatedHttpRequest) -> HttpResponseBase:
        token = request.POST.get("token", "")
        key = kept_key(request.user.pk, token) if TOKEN.fullmatch(token) else None
        text = cache.get(key) if key else None
        if not isinstance(text, str):
            return self.refused(request, [_("The file uploaded is no longer kept (an hour has passed); upload it "
                                            "again.")])
        try:
            rows = file_rows(parse_text(text))
            problems = choose(rows, request.POST)
            if problems:
                return self.matches(request, rows, token, problems, status=400)
            ids = chosen(rows)
            tournament = import_text(text, organizers=[request.user], players=lambda _model: still_there(ids))
        except InvalidTournament as error:
            return self.refused(request, [problem_text(p) for p in error.problems])
        cache.delete(kept_key(request.user.pk, token))
        return self.imported(request, tournament)

    def matches(self, request: HttpRequest, rows: list[FileRow], token: str, problems: list[str] | None = None,
                status: int = 200) -> HttpResponse:
        counts = {verdict.value: sum(1 for row in rows if row.match.verdict == verdict) for verdict in Verdict}
        return render(request, self.match_template, {
            "rows": rows, "token": token, "choice_problems": problems or [], "verdicts": counts, "ready": True,
        }, status=status)

    def refused(self, request: HttpRequest, problems: list[str]) -> HttpResponse:
        return render(request, self.template_name, {"problems": problems, **self.choices(request)}, status=400)

    def imported(self, request: HttpRequest, tournament: Tournament) -> HttpResponseBase:
        messages.success(request, _("The tournament is imported."))
        return redirect(tournament)


def said_in_words(lines: tuple[str, ...]) -> str:
    """A converter's lines for a message: those alike once, with how many more there are like them."""
    said, more = platforms.compact(lines, most=8)
    text = "; ".join(s.line if not s.others else _("%(line)s (and %(count)s more like it)") % {
        "line": s.line, "count": s.others} for s in said)
    return text + (_("; and %(count)s other kinds") % {"count": more} if more else "")


# The uploaded file waits for the organizer's answers this long, under a random token of theirs.
KEEP_SECONDS = 3600
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def kept_key(user_id: int, token: str) -> str:
    return f"exchange:import:{user_id}:{token}"


class ExportTournamentView(OrganizerRequiredMixin, View):
    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        response = HttpResponse(export_text(self.tournament), content_type="application/json; charset=utf-8")
        response["Content-Disposition"] = attachment(f"{self.tournament.slug}.json")
        return response


class ExportsView(OrganizerRequiredMixin, View):
    """The organizer's exports: our tournament file and one download per rating platform (docs/formats.md), each
    with what the platform's document cannot hold."""

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return render(request, "exchange/exports.html", {
            "tournament": self.tournament, "downloads": platforms.downloads(self.tournament)})


class PlatformExportView(OrganizerRequiredMixin, View):
    """One platform's document of the tournament, as a download."""

    def get(self, request: HttpRequest, slug: str, platform: str) -> HttpResponse:
        if platform not in PLATFORMS:
            raise Http404(_("No such format."))
        chosen = PLATFORMS[platform]
        exported = platforms.export(self.tournament, chosen)
        response = HttpResponse(exported.document, content_type=f"{chosen.media_type}; charset=utf-8")
        response["Content-Disposition"] = attachment(platforms.download_name(self.tournament, chosen))
        return response
