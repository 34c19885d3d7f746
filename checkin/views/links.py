"""The pages opened through a session's links, with no account (docs/check-in.md): the volunteer's phone list and
the player's own check-in from the door's QR code. The token in the URL is the permission, for that session only,
while it is open."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django_ratelimit.core import get_usage

from base.auth import client_ip
from tournaments.mixins import TournamentMixin

from .. import services as checkin
from ..models import CheckIn, CheckInState, MarkSource
from .phone import PhoneBase

# A browser checks in one player a session; an address (a venue's Wi-Fi is one address for everyone) at most
# SELF_LIMIT taps every SELF_WINDOW seconds, or twice the check-in's expected players when that is more (a
# 300-player day behind one address is not stopped at 150: docs/check-in.md).
SELF_LIMIT, SELF_WINDOW = 150, 600


def door_and_address(group: str, request: HttpRequest) -> str:
    """The taps are counted per session's door link and per address (behind the proxies ``TRUSTED_PROXIES``
    names, as the login's throttle counts them)."""
    match = request.resolver_match
    return f"{match.kwargs.get('token', '') if match else ''}:{client_ip(request)}"


def over_self_limit(request: HttpRequest, check_in: CheckIn) -> bool:
    """Counts this tap (django-ratelimit, in the shared cache) and says whether the address is past the check-in's
    bound: the floor, and twice the expected players (counted only past the floor)."""
    usage = get_usage(request, group="checkin-self", key=door_and_address, rate=f"{SELF_LIMIT}/{SELF_WINDOW}s",
                      method="POST", increment=True)
    return usage is not None and usage["should_limit"] and usage["count"] > 2 * len(checkin.expected(check_in))


class VolunteerPhoneView(TournamentMixin, PhoneBase):
    """The session's volunteer link: ticks only, for that session, while it is open (404 otherwise)."""

    source = MarkSource.VOLUNTEER

    def load(self, request: HttpRequest, **kwargs: Any) -> CheckIn:
        return get_object_or_404(CheckIn.objects.select_related("tournament", "stage"), tournament=self.tournament,
                                 volunteer_token=kwargs["token"], state=CheckInState.OPEN)

    def tick_url(self, check_in: CheckIn) -> str:
        return reverse("running:checkin_volunteer", kwargs={"slug": check_in.tournament.slug,
                                                            "token": check_in.volunteer_token})

    def who(self, request: HttpRequest) -> Any:
        return request.user if request.user.is_authenticated else None


class SelfView(TournamentMixin, View):
    """A player at the door finds themselves and taps "I am here"; only while the session is open."""

    def load(self, token: str) -> CheckIn:
        return get_object_or_404(CheckIn.objects.select_related("tournament", "stage"), tournament=self.tournament,
                                 door_token=token, state=CheckInState.OPEN)

    def key(self, check_in: CheckIn) -> str:
        return f"checkin_self_{check_in.pk}"

    def get(self, request: HttpRequest, slug: str, token: str, status: int = 200) -> HttpResponse:
        check_in = self.load(token)
        mine = request.session.get(self.key(check_in))
        people = checkin.expected(check_in)
        return render(request, "checkin/self.html", {
            "tournament": self.tournament, "check_in": check_in, "people": people,
            "mine": next((p for p in people if p.pk == mine), None),
        }, status=status)

    def post(self, request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
        check_in = self.load(token)
        value = request.POST.get("participant", "")
        mine = request.session.get(self.key(check_in))
        if mine is not None and str(mine) != value:
            messages.error(request, _("This phone has already checked someone in. Ask the organizer for help."))
            return self.get(request, slug, token, status=403)
        if over_self_limit(request, check_in):
            raise PermissionDenied
        try:
            if not value.isdigit():
                raise checkin.CheckInError(_("Find yourself in the list."))
            checkin.tick(check_in, int(value), True, by=None, source=MarkSource.SELF)
        except checkin.CheckInError as error:
            messages.error(request, str(error))
            return self.get(request, slug, token, status=400)
        request.session[self.key(check_in)] = int(value)
        return redirect(request.path)
