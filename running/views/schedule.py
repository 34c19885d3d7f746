"""Set a round's scheduled start from its page (POST only; the form is on the round page)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views import View

from tournaments.forms.schedule import RoundStartForm
from tournaments.models import Round
from tournaments.permissions import OrganizerRequiredMixin
from tournaments.services.schedule import set_round_start


class RoundStartView(OrganizerRequiredMixin, View):
    http_method_names = ["post"]

    def post(self, request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponseBase:
        round_ = get_object_or_404(Round, stage__tournament=self.tournament, stage__ext_id=stage, number=number)
        form = RoundStartForm(request.POST)
        if form.is_valid():
            set_round_start(round_, form.cleaned_data["starts_at"], request.user)
            messages.success(request, _("The start time is saved."))
        else:
            messages.error(request, " ".join(str(e) for e in form.errors.get("starts_at", [])))
        return redirect("running:round", slug=slug, stage=stage, number=number)
