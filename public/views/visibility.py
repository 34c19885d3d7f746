"""The organizer's button that publishes the standings (or hides them again); permission checked here."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views import View

from tournaments.mixins import signed_in
from tournaments.permissions import OrganizerRequiredMixin

from ..services import VisibilityError, set_standings_hidden


class StandingsVisibilityView(OrganizerRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        hidden = request.POST.get("hidden") == "1"
        try:
            set_standings_hidden(self.tournament, hidden, signed_in(request))
        except VisibilityError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The standings are hidden.") if hidden else _("The standings are published."))
        return redirect("tournaments:detail", slug=self.tournament.slug)
