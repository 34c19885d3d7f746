"""The organizer's awards page: the ruleset's proposals with their computed candidates, free-form awards, a
recipient chosen by hand with a reason, and the diplomas' title and signature line. Each action is one small
handler calling a service (``tournaments.services.awards``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from exchange.reading import to_model
from running.awards import refusal_for, resolve_awards
from tournaments.errors import UserError
from tournaments.mixins import signed_in
from tournaments.models import Diplomas, ParticipantStatus
from tournaments.permissions import OrganizerRequiredMixin
from tournaments.services import awards as service
from tournaments.services.awards import AwardError


class AwardsView(OrganizerRequiredMixin, View):
    template_name = "running/awards.html"

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        model = to_model(self.tournament)
        participants = self.tournament.participants.filter(  # the players: no application rejected or waiting
            disqualified_at__isnull=True, status=ParticipantStatus.ACCEPTED).select_related("player")
        diplomas = Diplomas.objects.filter(tournament=self.tournament).first()
        return render(request, self.template_name, {
            "tournament": self.tournament, "active": "awards",
            "awards": resolve_awards(self.tournament, model, all_proposals=True),
            "participants": [(p.ext_id, p.number, p.player.full_name) for p in participants],
            "diplomas": diplomas,
        })

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        try:
            if handler is None:
                messages.error(request, _("Unknown action."))
            else:
                handler(self, request)
        except UserError as error:
            messages.error(request, str(error))
        return redirect("running:awards", slug=slug)

    def target(self, request: HttpRequest) -> dict[str, Any]:
        return {"kind": request.POST.get("kind", ""), "pk": request.POST.get("award")}

    def give(self, request: HttpRequest) -> None:
        service.set_given(self.tournament, signed_in(request), request.POST.get("kind", ""), True)
        messages.success(request, _("The award is given."))

    def withdraw(self, request: HttpRequest) -> None:
        service.set_given(self.tournament, signed_in(request), request.POST.get("kind", ""), False)
        messages.success(request, _("The award is no longer given."))

    def add(self, request: HttpRequest) -> None:
        award = service.add_award(self.tournament, signed_in(request), request.POST.get("title"))
        messages.success(request, _("Award “%(title)s” added; choose its recipient.") % {"title": award.title})

    def remove(self, request: HttpRequest) -> None:
        service.remove_award(self.tournament, signed_in(request), request.POST.get("award", ""))
        messages.success(request, _("The award is removed."))

    def choose(self, request: HttpRequest) -> None:
        refusal = refusal_for(to_model(self.tournament), request.POST.get("player", ""))
        if refusal is not None:
            raise AwardError(refusal)
        service.choose_recipient(self.tournament, signed_in(request), request.POST.get("player"),
                                 request.POST.get("reason"), **self.target(request))
        messages.success(request, _("The recipient is chosen."))

    def clear(self, request: HttpRequest) -> None:
        service.clear_choice(self.tournament, signed_in(request), **self.target(request))
        messages.success(request, _("The award names its computed candidate again."))

    def diplomas(self, request: HttpRequest) -> None:
        service.save_diplomas(self.tournament, signed_in(request), request.POST.get("title"),
                              request.POST.get("signer_name"), request.POST.get("signer_position"))
        messages.success(request, _("The diplomas' title and signature are saved."))

    ACTIONS: ClassVar[dict[str, Callable[[AwardsView, HttpRequest], None]]] = {
        "give": give, "withdraw": withdraw, "add": add, "remove": remove, "choose": choose, "clear": clear,
        "diplomas": diplomas,
    }
