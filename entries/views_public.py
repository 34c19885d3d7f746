"""The players' public pages (``/p/SLUG/…``, fixed addresses: docs/players-channel.md): the registration form, who is
coming, a player's private page and the calendars. None of them is shared between readers (the answers keep no
copy of them): the form carries its reader's CSRF token, the private page its holder's data."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django_ratelimit.core import get_usage

from base.auth import client_ip
from base.error_summary import form_errors
from checkin import services as checkin
from checkin.models import CheckIn, MarkSource
from public.snapshot import Snapshot
from tournaments.mixins import TournamentMixin
from tournaments.models import ParticipantStatus
from tournaments.rules import ruleset_for, uses_applications

from .forms import HONEYPOT, RegistrationForm
from .models import ComingNames, Entry, EntryState
from .services import calendar, me, registering

# An address sends at most REGISTER_LIMIT registrations to one tournament every REGISTER_WINDOW seconds (counted by
# django-ratelimit, as the check-in's door counts its taps): a club registering its members from one Wi-Fi fits, a
# script does not.
REGISTER_LIMIT, REGISTER_WINDOW = 20, 3600


def private(response: HttpResponseBase) -> HttpResponseBase:
    """Nobody keeps a copy of a private answer (nginx, a browser's back button on a shared phone), and the
    token in the address is not sent to another site as a referrer."""
    add_never_cache_headers(response)
    response["Cache-Control"] += ", private"
    response["Referrer-Policy"] = "same-origin"  # "no-referrer" makes a browser send "Origin: null" (CSRF refuses)
    return response


def language_of(request: HttpRequest) -> str:
    return "en" if (get_language() or "ru").startswith("en") else "ru"


class RegisterView(TournamentMixin, View):
    template = "entries/register.html"

    def page(self, request: HttpRequest, form: RegistrationForm, status: int = 200,
             problem: str | None = None) -> HttpResponse:
        tournament = self.tournament
        closed = registering.closed_problem(tournament)
        return render(request, self.template, {
            "tournament": tournament, "form": form, "closed": closed, "problem": problem,
            "closes": registering.closes_at(tournament),
            "cap": tournament.participant_cap, "full": registering.cap_reached(tournament),
            "waiting": len(registering.waiting(tournament)), "applications": uses_applications(tournament),
            "ruleset": ruleset_for(tournament), "honeypot": HONEYPOT, "tab": "register",
            "errors": form_errors(form, general=False) if form.is_bound else [],  # every mistake at the top, linked
        }, status=status)

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return self.page(request, RegistrationForm(tournament=self.tournament))

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        form = RegistrationForm(request.POST, tournament=self.tournament)
        bot = bool(request.POST.get(HONEYPOT))
        if not bot and not form.is_valid():  # a mistake to correct is not counted; a registration or a bot is
            return self.page(request, form, 400)
        address = f"{self.tournament.slug}:{self.tournament.pk}:{client_ip(request)}"
        usage = get_usage(request, group="register", key=lambda _group, _request: address,
                          rate=f"{REGISTER_LIMIT}/{REGISTER_WINDOW}s", method="POST", increment=True)
        if usage is not None and usage["should_limit"]:
            return self.page(request, form, 429, _("Too many registrations from this address: try again in an "
                                                   "hour, or ask the organizer."))
        if bot:
            return self.page(request, RegistrationForm(tournament=self.tournament), 400,
                             _("The form was not accepted. Reload the page and fill it in again."))
        contact = registering.Contact(form.cleaned_data.get("email") or "", form.cleaned_data.get("telegram") or "",
                                      language_of(request))
        try:
            done = registering.register_self(self.tournament, form.details(), contact)
        except registering.EntryError as error:
            if error.field and error.field in form.fields:
                form.add_error(error.field, error.message)
                return self.page(request, form, 400)
            return self.page(request, form, 400, error.message)
        messages.success(request, said(done.entry, done.made_guest))
        return redirect(reverse("entries_public:me", kwargs={"slug": slug, "token": done.entry.token}))


def said(entry: Entry, made_guest: bool = False) -> str:
    """What the player is told after registering."""
    if entry.state == EntryState.WAITING:
        return _("The tournament is full: you are on the waiting list, number %(n)s. When someone withdraws, the "
                 "first on the list takes the place; this page will say so.") % {"n": registering.position(entry)}
    assert entry.participant is not None
    if entry.participant.status == ParticipantStatus.APPLIED:
        return _("Your application is received; the organizer accepts or rejects it. This page will say which.")
    if made_guest:
        return _("You are registered as a guest: the regulation's places are taken, a guest plays but is not "
                 "ranked.")
    return _("You are registered. Keep this page's address: it is your private link.")


def coming_name(first: str, surname: str, nickname: str, how: str) -> str:
    full = " ".join(part for part in (surname, first) if part)
    if how == ComingNames.FULL:
        return f"{full} «{nickname}»" if nickname else full
    if how == ComingNames.NICKNAME:
        return nickname or first or surname
    short = " ".join(part for part in (first, f"{surname[:1]}." if surname else "") if part)
    return f"{short} «{nickname}»" if nickname else short


class ComingView(TournamentMixin, View):
    """Who is coming: the accepted participants, the applications waiting for the organizer and the waiting list,
    named as the organizer chose (or only counted)."""

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        tournament = self.tournament
        how = registering.settings_of(tournament).coming_names
        people = list(tournament.participants.filter(status__in=[ParticipantStatus.ACCEPTED,
                                                                 ParticipantStatus.APPLIED])
                      .select_related("player").order_by("player__surname", "player__first_name", "pk"))
        waiting = registering.waiting(tournament)

        def names(rows: list[tuple[str, str, str]]) -> list[str]:
            return [] if how == ComingNames.COUNT else [coming_name(*row, how) for row in rows]

        accepted = [(p.player.first_name, p.player.surname, p.player.nickname) for p in people
                    if p.status == ParticipantStatus.ACCEPTED]
        applied = [(p.player.first_name, p.player.surname, p.player.nickname) for p in people
                   if p.status == ParticipantStatus.APPLIED]
        queue = [(e.detail("first_name"), e.detail("surname"), e.detail("nickname")) for e in waiting]
        return render(request, "entries/coming.html", {
            "tournament": tournament, "accepted": names(accepted), "applied": names(applied),
            "waiting": names(queue), "counts": (len(accepted), len(applied), len(queue)),
            "count_only": how == ComingNames.COUNT, "cap": tournament.participant_cap, "tab": "coming",
            "open": registering.closed_problem(tournament) is None,
        })


class CalendarView(TournamentMixin, View):
    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        body = calendar.calendar_of(self.tournament)
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{slug}.ics"'
        return response


class PrivateView(TournamentMixin, View):
    """What the token opens: one entry of this tournament, or 404 (a revoked token, another tournament's)."""

    entry: Entry

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        found = (Entry.objects.filter(tournament=self.tournament, token=kwargs["token"])
                 .select_related("participant__player", "tournament").first())
        if found is None:
            raise Http404("no such link")
        self.entry = found

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        return private(super().dispatch(request, *args, **kwargs))


class MeView(PrivateView):
    def get(self, request: HttpRequest, slug: str, token: str, status: int = 200) -> HttpResponse:
        entry, tournament = self.entry, self.tournament
        participant = entry.participant
        context: dict[str, Any] = {
            "tournament": tournament, "entry": entry, "participant": participant,
            "position": registering.position(entry), "withdraw_problem": registering.withdraw_problem(entry),
            "link": request.build_absolute_uri(), "hidden": tournament.standings_hidden,
            "applications": uses_applications(tournament), "telegram_on": bool(settings.TELEGRAM_BOT_TOKEN),
        }
        if participant is not None and participant.status == ParticipantStatus.ACCEPTED:
            snapshot = Snapshot(tournament)
            now, then = me.now_and_next(tournament, participant, snapshot)
            context.update({
                "now": now, "next": then, "check_ins": me.open_check_ins(participant),
                "protests": me.protests_of(participant), "games": me.games_html(tournament, participant, snapshot),
            })
        return render(request, "entries/me.html", context, status=status)

    def post(self, request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        try:
            if handler is None:
                raise registering.EntryError(None, _("Unknown action."))
            handler(self, request)
        except (registering.EntryError, checkin.CheckInError) as error:
            messages.error(request, str(error))
            return self.get(request, slug, token, status=400)
        return redirect(request.path)

    def withdraw(self, request: HttpRequest) -> None:
        if request.POST.get("sure") != "yes":
            raise registering.EntryError(None, _("Tick the box to confirm the withdrawal."))
        registering.withdraw(self.entry)
        messages.success(request, _("Your registration is withdrawn; the place goes to the next one waiting."))

    def here(self, request: HttpRequest) -> None:
        participant = self.entry.participant
        session = CheckIn.objects.filter(tournament=self.tournament, pk=request.POST.get("check_in", "")
                                         if request.POST.get("check_in", "").isdigit() else 0).first()
        if participant is None or session is None:
            raise checkin.CheckInError(_("The check-in is closed."))
        checkin.tick(session, participant.pk, True, by=None, source=MarkSource.SELF)
        messages.success(request, _("You are checked in."))

    ACTIONS: ClassVar[dict[str, Callable[[MeView, HttpRequest], None]]] = {"here": here, "withdraw": withdraw}


class MyCalendarView(PrivateView):
    def get(self, request: HttpRequest, slug: str, token: str) -> HttpResponse:
        participant = self.entry.participant
        if participant is None:
            raise Http404("not a participant")
        link = request.build_absolute_uri(reverse("entries_public:me", kwargs={"slug": slug, "token": token}))
        body = calendar.calendar_of(self.tournament, participant, link)
        response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
        response["Content-Disposition"] = f'inline; filename="{slug}-me.ics"'
        return response
