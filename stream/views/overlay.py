"""The transparent page OBS shows for one table number, and that page's state (docs/stream-overlay.md): no login,
the secret link is the key."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.decorators import method_decorator
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views import View
from django.views.decorators.cache import never_cache

from tournaments.labels import ROLES, SIDES, StageKind

from ..models import StreamOverlay
from ..services import delay, live, overlays


def overlay_or_404(slug: str, token: str, number: int) -> StreamOverlay:
    overlay = overlays.overlay_for_token(slug, token)
    if overlay is None or number < 1:
        raise Http404
    return overlay


def labels() -> dict[str, Any]:
    """The words the page says, in its language; ``%(n)s`` and the like are filled in by the page."""
    return {
        "day": _("Day %(n)s"), "night": _("Night %(n)s"), "round": _("round %(n)s"), "table": _("table %(n)s"),
        "out": {"voted": _("voted out on day %(n)s"), "killed": _("killed on night %(n)s"),
                "removed": _("removed on day %(n)s")},
        "speaking": _("speaking"), "nominated": _("On the vote"), "waiting": _("The game has not started yet."),
        "none": _("No published round has this table yet."),
        "won": {str(side): _("%(text)s won") % {"text": str(text)} for side, text in SIDES.items()},
        "roles": {str(role): str(text) for role, text in ROLES.items()},
        "events": {
            "nominated": _("seat %(n)s is nominated"), "votes": _("%(count)s votes for seat %(n)s"),
            "voted_out": _("seat %(n)s is voted out"), "killed": _("seat %(n)s is killed"),
            "removed": _("seat %(n)s is removed"), "don_check": _("the don checks seat %(n)s: %(found)s"),
            "sheriff_check": _("the sheriff checks seat %(n)s: %(found)s"),
            "heal": _("the doctor heals seat %(n)s"), "shot": _("a shot at seat %(n)s"),
        },
        "found": {"sheriff": _("the sheriff"), "not_sheriff": _("not the sheriff"),
                  "black": pgettext("the sheriff's check", "black"), "red": pgettext("the sheriff's check", "red")},
        "when": {"day": _("day %(n)s"), "night": _("night %(n)s")},
        "fouls": _("fouls"),
        "kinds": {str(value): capfirst(str(text)) for value, text in StageKind.choices},  # as Stage.__str__
    }


def language_of(request: HttpRequest) -> str:
    asked = request.GET.get("lang", "")
    return asked if asked in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


@method_decorator(never_cache, name="dispatch")
class OverlayView(View):
    """The page OBS shows (a browser source, 1920×1080, transparent): no login, the secret link is the key."""

    http_method_names = ["get"]

    def get(self, request: HttpRequest, slug: str, token: str, number: int) -> HttpResponse:
        overlay = overlay_or_404(slug, token, number)
        with translation.override(language_of(request)):
            return render(request, "stream/overlay.html", {
                "tournament": overlay.tournament, "number": number, "labels": labels(),
                "state_url": reverse("games:overlay_state", args=[slug, token, number]),
                "socket_url": settings.STREAM_SOCKET_URL, "lang": translation.get_language(),
            })


@method_decorator(never_cache, name="dispatch")
class OverlayStateView(View):
    """What the overlay shows now (the delay applied), how it follows changes, and a websocket ticket."""

    http_method_names = ["get"]

    def get(self, request: HttpRequest, slug: str, token: str, number: int) -> JsonResponse:
        overlay = overlay_or_404(slug, token, number)
        delay.watch(overlay, number)
        known, frame, at = delay.frame_as_of(overlay, number)
        mode = live.live_mode()
        return JsonResponse({"known": known, "frame": frame, "at": at, "mode": mode,
                             "ticket": live.ticket(overlay, number) if mode == "socket" else ""})
