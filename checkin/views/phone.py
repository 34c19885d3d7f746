"""The phone list and its ticks, shared by the organizer's page and the volunteer's link (docs/check-in.md). A tick
answers JSON to the page's script (``checkin/static/js/checkin.js``) and a redirect to a browser without it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.mixins import signed_in

from .. import services as checkin
from ..models import CheckIn, MarkSource


def phone_url(check_in: CheckIn) -> str:
    return reverse("running:checkin_phone", kwargs={"slug": check_in.tournament.slug, "pk": check_in.pk})


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
        return render(request, "checkin/phone.html", {
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
