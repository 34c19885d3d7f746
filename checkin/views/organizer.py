"""The organizer's check-in pages (docs/check-in.md): the sessions (opening, closing, reopening one or giving it new
links), the organizer's phone list, and the door's QR code to print or project."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.mixins import signed_in
from tournaments.models import Stage
from tournaments.permissions import OrganizerRequiredMixin

from .. import services as checkin
from ..models import CheckIn
from .phone import PhoneBase, phone_url


class CheckInsView(OrganizerRequiredMixin, View):
    """The sessions of the tournament; each action (``ACTIONS``) answers with this page again, or its error (400)."""

    def get(self, request: HttpRequest, slug: str, status: int = 200) -> HttpResponse:
        sessions = list(CheckIn.objects.filter(tournament=self.tournament).select_related("stage", "opened_by"))
        return render(request, "checkin/sessions.html", {
            "tournament": self.tournament, "sessions": sessions,
            "stages": list(self.tournament.stages.order_by("order", "id")),
        }, status=status)

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        try:
            if handler is None:
                raise checkin.CheckInError(_("Unknown action."))
            response = handler(self, request)
        except checkin.CheckInError as error:
            messages.error(request, str(error))
            return self.get(request, slug, status=400)
        return response or redirect("running:checkins", slug=slug)

    def open_session(self, request: HttpRequest) -> HttpResponseBase:
        """Opened (or the one already open for the same day or round): straight to its phone list."""
        made = checkin.open_check_in(self.tournament, signed_in(request), **self.target(request))
        return redirect(phone_url(made))

    def close(self, request: HttpRequest) -> None:
        checkin.close_check_in(self.session(request), signed_in(request))
        messages.success(request, _("The check-in is closed."))

    def reopen(self, request: HttpRequest) -> None:
        checkin.reopen_check_in(self.session(request))
        messages.success(request, _("The check-in is open again."))

    def new_links(self, request: HttpRequest) -> None:
        checkin.new_links(self.session(request))
        messages.success(request, _("New links are made; the old ones no longer open."))

    ACTIONS: ClassVar[dict[str, Callable[[CheckInsView, HttpRequest], HttpResponseBase | None]]] = {
        "open": open_session, "close": close, "reopen": reopen, "links": new_links,
    }

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


class OrganizerPhoneView(OrganizerRequiredMixin, PhoneBase):
    def load(self, request: HttpRequest, **kwargs: Any) -> CheckIn:
        return get_object_or_404(CheckIn.objects.select_related("tournament", "stage"), tournament=self.tournament,
                                 pk=kwargs["pk"])

    def tick_url(self, check_in: CheckIn) -> str:
        return phone_url(check_in)


class DoorView(OrganizerRequiredMixin, View):
    """The QR code to print or project at the door, with the address under it."""

    def get(self, request: HttpRequest, slug: str, pk: int) -> HttpResponse:
        check_in = get_object_or_404(CheckIn.objects.select_related("stage"), tournament=self.tournament, pk=pk)
        url = request.build_absolute_uri(reverse("running:checkin_self", kwargs={
            "slug": slug, "token": check_in.door_token}))
        volunteer = request.build_absolute_uri(reverse("running:checkin_volunteer", kwargs={
            "slug": slug, "token": check_in.volunteer_token}))
        return render(request, "checkin/door.html", {"tournament": self.tournament, "check_in": check_in,
                                                     "url": url, "volunteer_url": volunteer})
