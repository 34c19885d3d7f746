"""The organizer's "Registration" tab (``/t/SLUG/registration/``): when the public form is open and how the list
of who is coming names people; every player's private link (a new one revokes the old), the waiting list in
order, withdrawals, kostroma's applications accepted or rejected (the registration's own service), the registry's
"is this the same person?" for those who registered online; and the printable badges with the links' QR codes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import UserError
from tournaments.mixins import signed_in
from tournaments.models import Participant, ParticipantStatus, Player
from tournaments.permissions import OrganizerRequiredMixin
from tournaments.rules import uses_applications
from tournaments.services import registration

from .forms import SettingsForm
from .models import Entry, EntryState, SelfRegistration
from .services import registering


def link_of(request: HttpRequest, entry: Entry) -> str:
    return request.build_absolute_uri(reverse("entries_public:me", kwargs={"slug": entry.tournament.slug,
                                                                          "token": entry.token}))


class RegistrationView(OrganizerRequiredMixin, View):
    def get(self, request: HttpRequest, slug: str, form: SettingsForm | None = None,
            status: int = 200) -> HttpResponse:
        tournament = self.tournament
        registering.ensure_entries(tournament)
        entries = list(Entry.objects.filter(tournament=tournament).select_related("participant__player",
                                                                                   "promoted_after")
                       .order_by("participant__number", "waiting_since", "pk"))
        for entry in entries:
            entry.tournament = tournament
        settings = registering.settings_of(tournament)
        matches = registering.candidates(entries)
        rows = [{"entry": e, "link": link_of(request, e), "candidates": matches.get(e.pk, [])}
                for e in entries if e.state == EntryState.ENTERED]
        # the application period set with the tournament (kostroma) is what the public form proposes to open for,
        # until the organizer saves a window of its own
        period = settings._state.adding and tournament.applications_open is not None  # never saved
        proposed = {"opens": tournament.applications_open, "closes": tournament.applications_close} if period else {}
        return render(request, "entries/organizer.html", {
            "tournament": tournament, "form": form or SettingsForm(instance=settings, initial=proposed),
            "rows": rows, "period": period,
            "waiting": [{"entry": e, "link": link_of(request, e)} for e in
                        sorted((e for e in entries if e.state == EntryState.WAITING),
                               key=lambda e: (e.waiting_since, e.pk))],
            "withdrawn": [e for e in entries if e.state == EntryState.WITHDRAWN],
            "closed": registering.closed_problem(tournament), "applications": uses_applications(tournament),
            "full": registering.cap_reached(tournament), "public_url": request.build_absolute_uri(
                reverse("entries_public:register", kwargs={"slug": slug})),
            "started": registering.started(tournament), "applied": ParticipantStatus.APPLIED,
        }, status=status)

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        action = request.POST.get("action", "")
        if action == "settings":  # the one form of the page: refused, it is shown again with its errors
            return self.save_settings(request, slug)
        handler = self.ACTIONS.get(action)
        try:
            if handler is None:
                raise registering.EntryError(None, _("Unknown action."))
            handler(self, request, self.entry(request))
        except UserError as error:
            messages.error(request, str(error))
            return self.get(request, slug, status=400)
        return redirect(request.path)

    def save_settings(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        settings = registering.settings_of(self.tournament)
        form = SettingsForm(request.POST, instance=settings)
        if not form.is_valid():
            return self.get(request, slug, form, status=400)
        saved: SelfRegistration = form.save(commit=False)
        saved.tournament = self.tournament
        saved.save()
        messages.success(request, _("The registration settings are saved."))
        return redirect(request.path)

    def entry(self, request: HttpRequest) -> Entry:
        value = request.POST.get("entry", "")
        found = Entry.objects.filter(tournament=self.tournament, pk=value if value.isdigit() else 0) \
            .select_related("participant__player").first()
        if found is None:
            raise registering.EntryError(None, _("Choose a player of the list."))
        return found

    def new_link(self, request: HttpRequest, entry: Entry) -> None:
        registering.new_link(entry)
        messages.success(request, _("%(name)s has a new private link; the old one no longer opens.")
                         % {"name": entry.name})

    def withdraw(self, request: HttpRequest, entry: Entry) -> None:
        promoted = registering.withdraw(entry, by=signed_in(request))
        messages.success(request, _("%(name)s is withdrawn.") % {"name": entry.name})
        for other in promoted:
            messages.info(request, _("%(name)s moves up from the waiting list.") % {"name": other.name})

    def accept(self, request: HttpRequest, entry: Entry) -> None:
        registration.accept(self.applicant(entry), by=signed_in(request))
        messages.success(request, _("%(name)s is accepted.") % {"name": entry.name})

    def reject(self, request: HttpRequest, entry: Entry) -> None:
        registration.reject(self.applicant(entry), by=signed_in(request))
        messages.success(request, _("%(name)s is rejected.") % {"name": entry.name})

    @staticmethod
    def applicant(entry: Entry) -> Participant:
        if entry.participant is None:
            raise registering.EntryError(None, _("Choose a player of the list."))
        return entry.participant

    def same(self, request: HttpRequest, entry: Entry) -> None:
        value = request.POST.get("player", "")
        player = Player.objects.filter(pk=value if value.isdigit() else 0).first()
        choices = registering.candidates([entry]).get(entry.pk, [])
        if player is None or all(c.player.pk != player.pk for c in choices):
            raise registering.EntryError(None, _("Choose one of the registry's players proposed."))
        registering.same_person(entry, player, signed_in(request))
        messages.success(request, _("%(name)s is now the registry's player %(player)s.")
                         % {"name": entry.name, "player": player.display_name})

    ACTIONS: ClassVar[dict[str, Callable[[RegistrationView, HttpRequest, Entry], None]]] = {
        "link": new_link, "withdraw": withdraw, "accept": accept, "reject": reject, "same": same,
    }


class BadgesView(OrganizerRequiredMixin, View):
    """Printable badges: each player's name, number and the QR code of their private link (one page each, or
    the whole list)."""

    def get(self, request: HttpRequest, slug: str, pk: int | None = None) -> HttpResponse:
        registering.ensure_entries(self.tournament)
        entries = Entry.objects.filter(tournament=self.tournament, state=EntryState.ENTERED,
                                       participant__isnull=False).select_related("participant__player") \
            .order_by("participant__number", "pk")
        if pk is not None:
            entries = entries.filter(pk=get_object_or_404(entries, pk=pk).pk)
        badges: list[dict[str, Any]] = []
        for entry in entries:
            entry.tournament = self.tournament
            badges.append({"entry": entry, "link": link_of(request, entry)})
        return render(request, "entries/badges.html", {"tournament": self.tournament, "badges": badges})
