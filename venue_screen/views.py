"""The organizer's page of the hall screen: the projector's link, the announcements with the seconds per slide,
and the round timer (start with minutes and a title, pause, resume, stop). Each action is parsed by its handler
and done by its service; a refused one shows the page again with its reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import UserError
from tournaments.numbers import typed_number
from tournaments.permissions import OrganizerRequiredMixin

from . import services


class ScreenControlView(OrganizerRequiredMixin, View):
    http_method_names = ["get", "post"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request)

    def page(self, request: HttpRequest, status: int = 200) -> HttpResponse:
        return render(request, "venue_screen/control.html", {
            "tournament": self.tournament, "screen": services.screen_of(self.tournament), "tab": "screen",
            "screen_url": request.build_absolute_uri(reverse("public:screen", args=[self.tournament.slug])),
        }, status=status)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        if handler is None:
            return HttpResponse(status=400)
        try:
            handler(self, request)
        except UserError as error:
            messages.error(request, str(error))
            return self.page(request, status=400)
        return redirect("venue_screen:control", slug=self.tournament.slug)

    def announcements(self, request: HttpRequest) -> None:
        try:
            seconds = int(request.POST.get("seconds_per_slide", ""))
        except ValueError:
            raise services.ScreenError(_("A slide stays from 5 to 120 seconds.")) from None
        services.set_announcements(self.tournament, request.POST.get("announcements", ""), seconds)
        messages.success(request, _("The screen shows the announcements at its next update."))

    def start(self, request: HttpRequest) -> None:
        try:
            minutes = typed_number(request.POST.get("minutes", ""))
        except ValueError:
            raise services.ScreenError(_("Give the timer's minutes as a number.")) from None
        services.start_timer(self.tournament, float(minutes), request.POST.get("label", ""))
        messages.success(request, _("The timer is running."))

    def pause(self, request: HttpRequest) -> None:
        services.pause_timer(self.tournament)

    def resume(self, request: HttpRequest) -> None:
        services.resume_timer(self.tournament)

    def stop(self, request: HttpRequest) -> None:
        services.stop_timer(self.tournament)

    ACTIONS: ClassVar[dict[str, Callable[[ScreenControlView, HttpRequest], None]]] = {
        "announcements": announcements, "start": start, "pause": pause, "resume": resume, "stop": stop,
    }
