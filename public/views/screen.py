"""The venue screen: a full-screen page for the hall's projector (no login; the organizer copies its link), its
slides rotating in the browser, polled like every live page; and the organizer's page for its announcements and
the round timer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.numbers import typed_number
from tournaments.permissions import OrganizerRequiredMixin

from .. import screen
from .base import PublicTournamentView


class ScreenView(PublicTournamentView):
    page_template = "public/screen_page.html"
    fragment_template = "public/screen.html"
    live = True

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        settings = screen.screen_of(self.tournament)
        return {"slides": screen.slides(self.snapshot, settings), "screen": settings}


class ScreenControlView(OrganizerRequiredMixin, View):
    """Announcements, seconds per slide and the timer (start with minutes and a title, pause, resume, stop)."""

    http_method_names = ["get", "post"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request)

    def page(self, request: HttpRequest, status: int = 200) -> HttpResponse:
        return render(request, "public/screen_control.html", {
            "tournament": self.tournament, "screen": screen.screen_of(self.tournament), "tab": "screen",
            "screen_url": request.build_absolute_uri(f"/p/{self.tournament.slug}/screen/"),
        }, status=status)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        action = request.POST.get("action", "")
        try:
            if action == "announcements":
                try:
                    seconds = int(request.POST.get("seconds_per_slide", ""))
                except ValueError:
                    raise screen.ScreenError(_("A slide stays from 5 to 120 seconds.")) from None
                screen.set_announcements(self.tournament, request.POST.get("announcements", ""), seconds)
                messages.success(request, _("The screen shows the announcements at its next update."))
            elif action == "start":
                try:
                    minutes = typed_number(request.POST.get("minutes", ""))
                except ValueError:
                    raise screen.ScreenError(_("Give the timer's minutes as a number.")) from None
                screen.start_timer(self.tournament, float(minutes), request.POST.get("label", ""))
                messages.success(request, _("The timer is running."))
            elif action == "pause":
                screen.pause_timer(self.tournament)
            elif action == "resume":
                screen.resume_timer(self.tournament)
            elif action == "stop":
                screen.stop_timer(self.tournament)
            else:
                return HttpResponse(status=400)
        except screen.ScreenError as error:
            messages.error(request, str(error))
            return self.page(request, status=400)
        return redirect("public:screen_control", slug=self.tournament.slug)
