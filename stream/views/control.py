"""The organizer's "Stream" tab: turning the overlay on, its links (one a table number), the roles shown or not,
the delay, a new link (docs/stream-overlay.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import View

from tournaments.permissions import OrganizerRequiredMixin

from ..models import MAX_DELAY_SECONDS, StreamOverlay
from ..services import live, overlays
from ..services.frames import table_numbers


class StreamControlView(OrganizerRequiredMixin, View):
    """Each action answers with the tab again (a redirect), or with its page and the error (400)."""

    http_method_names = ["get", "post"]

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        return self.page(request)

    def page(self, request: HttpRequest, status: int = 200) -> HttpResponse:
        overlay = overlays.overlay_of(self.tournament)
        numbers = table_numbers(self.tournament.pk) or [1]
        language = translation.get_language() or settings.LANGUAGE_CODE
        links = [(n, request.build_absolute_uri(
            reverse("games:overlay", args=[self.tournament.slug, overlay.token, n]) + f"?lang={language}"))
            for n in numbers] if overlay is not None else []
        return render(request, "stream/control.html", {
            "tournament": self.tournament, "overlay": overlay, "links": links, "most": MAX_DELAY_SECONDS,
            "live": live.live_mode(),
        }, status=status)

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        action = request.POST.get("action", "")
        if action == "open":
            overlays.open_overlay(self.tournament)
            messages.success(request, _("The overlay is on: give its link to whoever runs the stream."))
            return self.back()
        overlay = overlays.overlay_of(self.tournament)
        if overlay is None:  # off (or turned off meanwhile in another tab): nothing to change
            return self.back()
        handler = self.ACTIONS.get(action)
        if handler is None:
            return HttpResponse(status=400)
        try:
            handler(self, request, overlay)
        except overlays.StreamError as error:
            messages.error(request, str(error))
            return self.page(request, status=400)
        return self.back()

    def back(self) -> HttpResponse:
        return redirect("games:stream", slug=self.tournament.slug)

    def change_settings(self, request: HttpRequest, overlay: StreamOverlay) -> None:
        overlays.change_settings(overlay, request.POST.get("show_roles") == "on", request.POST.get("delay_seconds", ""))
        messages.success(request, _("Saved."))

    def turn_off(self, request: HttpRequest, overlay: StreamOverlay) -> None:
        overlays.turn_off(overlay)
        messages.success(request, _("The overlay is off: its links no longer open."))

    def new_link(self, request: HttpRequest, overlay: StreamOverlay) -> None:
        overlays.new_link(overlay)
        messages.success(request, _("New links made: the old ones no longer open."))

    # "open" comes first in ``post``: the others act on the overlay there is
    ACTIONS: ClassVar[dict[str, Callable[[StreamControlView, HttpRequest, StreamOverlay], None]]] = {
        "settings": change_settings, "off": turn_off, "new_link": new_link,
    }
