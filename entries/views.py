"""The organizer's "Registration" tab (``/t/SLUG/registration/``): when the public form is open and how the list
of who is coming names people; every player's private link (a new one revokes the old), the waiting list in
order, withdrawals, kostroma's applications accepted or rejected (the registration's own service), the registry's
"is this the same person?" for those who registered online; and the printable badges with the links' QR codes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import UserError
from tournaments.mixins import signed_in
from tournaments.models import ParticipantStatus, Player
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
        return render(request, "entries/organizer.html", {
            "tournament": tournament, "form": form or SettingsForm(instance=settings), "rows": rows,
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
        if action == "settings":
            settings = registering.settings_of(self.tournament)
            form = SettingsForm(request.POST, instance=settings)
            if not form.is_valid():
                return self.get(request, slug, form, status=400)
            saved: SelfRegistration = form.save(commit=False)
            saved.tournament = self.tournament
            saved.save()
            messages.success(request, _("The registration settings are saved."))
            return redirect(request.path)
        try:
            entry = self.entry(request)
            self.act(request, action, entry)
        except UserError as error:
            messages.error(request, str(error))
            return self.get(request, slug, status=400)
        return redirect(request.path)

    def entry(self, request: HttpRequest) -> Entry:
        value = request.POST.get("entry", "")
        found = Entry.objects.filter(tournament=self.tournament, pk=value if value.isdigit() else 0) \
            .select_related("participant__player").first()
        if found is None:
            raise registering.EntryError(None, _("Choose a player of the list."))
        return found

    def act(self, request: HttpRequest, action: str, entry: Entry) -> None:
        user = signed_in(request)
        name = entry.name
        if action == "link":
            registering.new_link(entry)
            messages.success(request, _("%(name)s has a new private link; the old one no longer opens.")
                             % {"name": name})
        elif action == "withdraw":
            promoted = registering.withdraw(entry, by=user)
            messages.success(request, _("%(name)s is withdrawn.") % {"name": name})
            for other in promoted:
                messages.info(request, _("%(name)s moves up from the waiting list.") % {"name": other.name})
        elif action in ("accept", "reject"):
            if entry.participant is None:
                raise registering.EntryError(None, _("Choose a player of the list."))
            if action == "accept":
                registration.accept(entry.participant, by=user)
                messages.success(request, _("%(name)s is accepted.") % {"name": name})
            else:
                registration.reject(entry.participant, by=user)
                messages.success(request, _("%(name)s is rejected.") % {"name": name})
        elif action == "same":
            value = request.POST.get("player", "")
            player = Player.objects.filter(pk=value if value.isdigit() else 0).first()
            choices = registering.candidates([entry]).get(entry.pk, [])
            if player is None or all(c.player.pk != player.pk for c in choices):
                raise registering.EntryError(None, _("Choose one of the registry's players proposed."))
            registering.same_person(entry, player, user)
            messages.success(request, _("%(name)s is now the registry's player %(player)s.")
                             % {"name": name, "player": player.display_name})
        else:
            raise registering.EntryError(None, _("Unknown action."))


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
