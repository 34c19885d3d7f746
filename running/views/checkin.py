"""Check-in at the venue (docs/check-in.md): the organizer's sessions page, the phone list (the organizer's, or a
volunteer's through the session's private link), the door's QR page and the player's own check-in from it.

The volunteer's and the door's pages need no account: the token in the URL is the permission, for that session
only, while it is open. A tick answers JSON to the page's script (``static/js/checkin.js``) and a redirect to a
browser without it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from base.auth import client_ip
from running.models import CheckIn, CheckInState, MarkSource
from running.services import checkin
from tournaments.mixins import TournamentMixin, signed_in
from tournaments.models import Stage
from tournaments.permissions import OrganizerRequiredMixin

# A browser checks in one player a session; an address (a venue's Wi-Fi is one address for everyone) at most
# SELF_LIMIT taps every SELF_WINDOW seconds, or twice the check-in's expected players when that is more (a
# 300-player day behind one address is not stopped at 150: docs/check-in.md).
SELF_LIMIT, SELF_WINDOW = 150, 600


def over_self_limit(check_in: CheckIn, taps: int) -> bool:
    """Whether an address's ``taps`` in the window are past the check-in's bound (counted only past the floor)."""
    return taps > SELF_LIMIT and taps > 2 * len(checkin.expected(check_in))


def phone_url(check_in: CheckIn) -> str:
    return reverse("running:checkin_phone", kwargs={"slug": check_in.tournament.slug, "pk": check_in.pk})


class CheckInsView(OrganizerRequiredMixin, View):
    """The sessions of the tournament, and opening, closing, reopening one or giving it new links."""

    def get(self, request: HttpRequest, slug: str, status: int = 200) -> HttpResponse:
        sessions = list(CheckIn.objects.filter(tournament=self.tournament).select_related("stage", "opened_by"))
        return render(request, "running/checkins.html", {
            "tournament": self.tournament, "sessions": sessions,
            "stages": list(self.tournament.stages.order_by("order", "id")),
        }, status=status)

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        action = request.POST.get("action", "")
        try:
            if action == "open":
                made = checkin.open_check_in(self.tournament, signed_in(request), **self.target(request))
                return redirect(phone_url(made))
            session = self.session(request)
            if action == "close":
                checkin.close_check_in(session, signed_in(request))
                messages.success(request, _("The check-in is closed."))
            elif action == "reopen":
                checkin.reopen_check_in(session)
                messages.success(request, _("The check-in is open again."))
            elif action == "links":
                checkin.new_links(session)
                messages.success(request, _("New links are made; the old ones no longer open."))
            else:
                raise checkin.CheckInError(_("Unknown action."))
        except checkin.CheckInError as error:
            messages.error(request, str(error))
            return self.get(request, slug, status=400)
        return redirect("running:checkins", slug=slug)

    def target(self, request: HttpRequest) -> dict[str, Any]:
        """The day (no stage), or a stage and a round number."""
        stage_id, number = request.POST.get("stage", ""), request.POST.get("round", "")
        if not stage_id:
            return {}
        stage = Stage.objects.filter(tournament=self.tournament, ext_id=stage_id).first()
        if stage is None or not number.isdigit() or int(number) < 1:
            raise checkin.CheckInError(_("Choose the day or a round of a stage."))
        return {"stage": stage, "round_number": int(number)}

    def session(self, request: HttpRequest) -> CheckIn:
        value = request.POST.get("session", "")
        found = CheckIn.objects.filter(tournament=self.tournament, pk=int(value)).first() if value.isdigit() else None
        if found is None:
            raise checkin.CheckInError(_("Choose a check-in of this tournament."))
        return found


class PhoneBase(View):
    """The phone list and its ticks; subclasses say which session and who ticks."""

    source = MarkSource.ORGANIZER

    def load(self, request: HttpRequest, **kwargs: Any) -> CheckIn:
        raise NotImplementedError

    def tick_url(self, check_in: CheckIn) -> str:
        raise NotImplementedError

    def who(self, request: HttpRequest) -> Any:
        return signed_in(request)

    def get(self, request: HttpRequest, **kwargs: Any) -> HttpResponse:
        check_in = self.load(request, **kwargs)
        return render(request, "running/checkin_phone.html", {
            "tournament": check_in.tournament, "check_in": check_in, "roll": checkin.roll(check_in),
            "tick_url": self.tick_url(check_in), "volunteer": self.source == MarkSource.VOLUNTEER,
        })

    def post(self, request: HttpRequest, **kwargs: Any) -> HttpResponseBase:
        check_in = self.load(request, **kwargs)
        value, present = request.POST.get("participant", ""), request.POST.get("present") == "1"
        try:
            if not value.isdigit():
                raise checkin.CheckInError(_("This player is not on the check-in list."))
            checkin.tick(check_in, int(value), present, by=self.who(request), source=self.source)
        except checkin.CheckInError as error:
            if request.headers.get("Accept") == "application/json":
                return JsonResponse({"detail": str(error)}, status=409)
            messages.error(request, str(error))
            return redirect(self.tick_url(check_in))
        if request.headers.get("Accept") == "application/json":
            return JsonResponse({"participant": int(value), "present": present})
        return redirect(self.tick_url(check_in))


class OrganizerPhoneView(OrganizerRequiredMixin, PhoneBase):
    def load(self, request: HttpRequest, **kwargs: Any) -> CheckIn:
        return get_object_or_404(CheckIn.objects.select_related("tournament", "stage"), tournament=self.tournament,
                                 pk=kwargs["pk"])

    def tick_url(self, check_in: CheckIn) -> str:
        return phone_url(check_in)


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


class DoorView(OrganizerRequiredMixin, View):
    """The QR code to print or project at the door, with the address under it."""

    def get(self, request: HttpRequest, slug: str, pk: int) -> HttpResponse:
        check_in = get_object_or_404(CheckIn.objects.select_related("stage"), tournament=self.tournament, pk=pk)
        url = request.build_absolute_uri(reverse("running:checkin_self", kwargs={
            "slug": slug, "token": check_in.door_token}))
        volunteer = request.build_absolute_uri(reverse("running:checkin_volunteer", kwargs={
            "slug": slug, "token": check_in.volunteer_token}))
        return render(request, "running/checkin_door.html", {"tournament": self.tournament, "check_in": check_in,
                                                             "url": url, "volunteer_url": volunteer})


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
        return render(request, "running/checkin_self.html", {
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
        counter = f"checkin-self:{check_in.door_token}:{client_ip(request)}"
        cache.add(counter, 0, SELF_WINDOW)
        if over_self_limit(check_in, cache.incr(counter)):
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


