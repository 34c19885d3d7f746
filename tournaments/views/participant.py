"""Correcting a participant (details, team, guest) and removing one, on the organizer's pages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from ..forms.people import RegisterForm
from ..mixins import signed_in
from ..models import Participant
from ..permissions import OrganizerRequiredMixin
from ..services import registration
from ..services.disqualification import DisqualificationError, disqualification_record, disqualify, reinstate
from ..services.people import remove_participant, update_participant


class ParticipantEditView(OrganizerRequiredMixin, View):
    template_name = "tournaments/participant_edit.html"

    def load(self, pk: int) -> Participant:
        return get_object_or_404(Participant.objects.select_related("player", "team"), pk=pk,
                                 tournament=self.tournament)

    def page(self, request: HttpRequest, participant: Participant, form: RegisterForm,
             status: int = 200) -> HttpResponse:
        return render(request, self.template_name, {
            "tournament": self.tournament, "participant": participant, "form": form,
            "disqualifications": disqualification_record(participant)}, status=status)

    def get(self, request: HttpRequest, slug: str, pk: int) -> HttpResponse:
        participant = self.load(pk)
        form = RegisterForm(instance=participant.player, tournament=self.tournament,
                            initial={"team": participant.team_id, "guest": participant.guest})
        return self.page(request, participant, form)

    def post(self, request: HttpRequest, slug: str, pk: int) -> HttpResponseBase:
        participant = self.load(pk)
        form = RegisterForm(request.POST, instance=Participant.objects.get(pk=participant.pk).player,
                            tournament=self.tournament)
        if not form.is_valid():
            return self.page(request, participant, form, status=400)
        data = {k: v for k, v in form.cleaned_data.items() if k not in ("team", "guest")}
        try:
            update_participant(participant, data, team=form.cleaned_data.get("team"),
                               guest=form.cleaned_data.get("guest", False))
        except registration.RegistrationError as error:
            form.add_error(error.field, error.message)
            return self.page(request, participant, form, status=400)
        messages.success(request, _("%(name)s is updated.") % {"name": participant.player.full_name})
        return redirect("tournaments:participants", slug=self.tournament.slug)


class ParticipantRemoveView(OrganizerRequiredMixin, View):
    def post(self, request: HttpRequest, slug: str, pk: int) -> HttpResponseBase:
        participant = get_object_or_404(Participant.objects.select_related("player"), pk=pk,
                                        tournament=self.tournament)
        try:
            remove_participant(participant)
        except registration.RegistrationError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("%(name)s is removed from the tournament.")
                             % {"name": participant.player.full_name})
        return redirect("tournaments:participants", slug=self.tournament.slug)


class DisqualificationActionView(OrganizerRequiredMixin, View):
    """POST only: a change of the participant's disqualification, with the reason given."""

    def act(self, participant: Participant, user: User, reason: str) -> Participant:
        raise NotImplementedError

    def done(self, participant: Participant) -> str:
        raise NotImplementedError

    def post(self, request: HttpRequest, slug: str, pk: int) -> HttpResponseBase:
        participant = get_object_or_404(Participant.objects.select_related("player"), pk=pk,
                                        tournament=self.tournament)
        try:
            self.act(participant, signed_in(request), request.POST.get("reason", ""))
        except DisqualificationError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, self.done(participant))
        return redirect("tournaments:participant_edit", slug=self.tournament.slug, pk=participant.pk)


class ParticipantDisqualifyView(DisqualificationActionView):
    act = staticmethod(disqualify)

    def done(self, participant: Participant) -> str:
        return _("%(name)s is disqualified.") % {"name": participant.player.full_name}


class ParticipantReinstateView(DisqualificationActionView):
    act = staticmethod(reinstate)

    def done(self, participant: Participant) -> str:
        return _("%(name)s is reinstated and will be seated from the next seating on.") % {
            "name": participant.player.full_name}
