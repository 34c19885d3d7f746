"""Participants: the list, adding one or a checked CSV list, applications, teams."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views import View

from ..forms.people import CsvForm, RegisterForm, TeamForm, same_person, shown
from ..forms.setup import SettingsForm, kept_after_conflict, saved_meanwhile, settings_seen
from ..forms.teams import TeamMembersForm
from ..mixins import signed_in
from ..models import Participant, ParticipantStatus, Team, Tournament
from ..permissions import OrganizerRequiredMixin
from ..rules import ruleset_for, team_size_limit, uses_applications
from ..services import registration
from ..services.people import add_player, add_players
from ..services.registry import NEW_PLAYER, Match, Typed, match_one
from ..services.teams import assign_team


class ParticipantTable(tables.Table):  # type: ignore[misc]  # django_tables2 ships no types
    # A waiting application's box belongs to the bulk decision form below the table (``form=`` attribute).
    select = tables.TemplateColumn(template_name="tournaments/_participant_select.html", orderable=False,
                                   verbose_name="")
    number = tables.Column(verbose_name=gettext_lazy("number"))
    name = tables.Column(accessor="player__surname", verbose_name=gettext_lazy("player"),
                         order_by=("player__surname", "player__first_name"))
    nickname = tables.Column(accessor="player__nickname", verbose_name=gettext_lazy("nickname"))
    city = tables.Column(accessor="player__city", verbose_name=gettext_lazy("city"))
    club = tables.Column(accessor="player__club", verbose_name=gettext_lazy("club"))
    birth_date = tables.DateColumn(accessor="player__birth_date", verbose_name=gettext_lazy("birth date"))
    phone = tables.Column(accessor="player__phone", verbose_name=gettext_lazy("phone"))
    team = tables.Column(verbose_name=gettext_lazy("team"))
    guest = tables.BooleanColumn(verbose_name=gettext_lazy("guest"), yesno="✔,")  # blank, not ✘, for a player
    status = tables.Column(verbose_name=gettext_lazy("status"))
    actions = tables.TemplateColumn(template_name="tournaments/_participant_actions.html", orderable=False,
                                    verbose_name="")

    class Meta:
        attrs = {"class": "table table-sm table-hover align-middle"}
        order_by = "number"

    def render_name(self, record: Participant) -> str:
        return record.player.full_name

    def render_status(self, record: Participant) -> Any:
        css = {"applied": "warning", "accepted": "success", "rejected": "secondary"}[record.status]
        badge = format_html('<span class="badge text-bg-{}">{}</span>', css, record.get_status_display())
        if record.disqualified_at is None:
            return badge
        # Disqualified stays "accepted" (the games played keep counting): the list says so beside it.
        return format_html('{} <span class="badge text-bg-danger participant-disqualified" title="{}">{}</span>',
                           badge, record.disqualification_reason, _("disqualified"))


class ParticipantsView(OrganizerRequiredMixin, View):
    """The participants and the form to add one (a new entry of the player registry)."""

    template_name = "tournaments/participants.html"

    @staticmethod
    def same_context(match: Match, data: QueryDict) -> dict[str, Any]:
        """The "Is this the same person?" block: the candidates, what is selected, and a warning when the
        single exact match is already a participant of this tournament."""
        proposed = match.proposed
        selected = data.get("same_person", "") if data.get("shown") == shown(match) else ""
        if not selected and proposed and not proposed.registered_here:
            selected = str(proposed.player.pk)
        return {"match": match, "shown": shown(match), "selected": selected, "new": NEW_PLAYER,
                "registered": proposed.player if proposed and proposed.registered_here else None}

    def page(self, request: HttpRequest, form: RegisterForm, status: int = 200,
             settings_form: SettingsForm | None = None, same: dict[str, Any] | None = None) -> HttpResponse:
        queryset = self.tournament.participants.select_related("player", "team", "tournament")
        applications = uses_applications(self.tournament)
        table = ParticipantTable(queryset, request=request, exclude=() if applications else ("select",))
        tables.RequestConfig(request, paginate={"per_page": 100}).configure(table)
        ruleset = ruleset_for(self.tournament)
        context = {
            "tournament": self.tournament, "table": table, "form": form,
            "applications": applications, "ruleset": ruleset,
            "waiting": applications and queryset.filter(status=ParticipantStatus.APPLIED).exists(),
            "teams": self.tournament.teams.all(),
            "settings_form": settings_form or SettingsForm(instance=self.tournament),
            "accepted": registration.accepted_count(self.tournament),
            "period_problem": registration.period_problem(self.tournament, timezone.now()) if applications else None,
            "same": same,
        }
        return render(request, self.template_name, context, status=status)

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return self.page(request, RegisterForm(tournament=self.tournament))

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        form = RegisterForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.page(request, form, status=400)
        data = {k: v for k, v in form.cleaned_data.items() if k not in ("team", "guest")}
        # Players of the registry who may be this person: the organizer says which one, or "a new player"; a
        # single exact match is proposed, never taken without being shown.
        match = match_one(Typed.of(data), self.tournament)
        answered, existing = same_person(match, request.POST)
        if not answered:
            return self.page(request, form, same=self.same_context(match, request.POST))
        try:
            outcome = add_player(self.tournament, data, team=form.cleaned_data.get("team"),
                                 guest=form.cleaned_data.get("guest", False), existing=existing)
        except registration.RegistrationError as error:
            form.add_error(error.field, error.message)
            return self.page(request, form, status=400,
                             same=self.same_context(match, request.POST) if match.candidates else None)
        name = outcome.participant.player.full_name
        if outcome.made_guest:
            messages.warning(request, _("%(name)s is registered as a guest: the cap is reached.") % {"name": name})
        elif outcome.participant.status == ParticipantStatus.APPLIED:
            messages.success(request, _("The application of %(name)s is recorded.") % {"name": name})
        else:
            messages.success(request, _("%(name)s is registered.") % {"name": name})
        return redirect("tournaments:participants", slug=self.tournament.slug)


class SettingsView(ParticipantsView):
    """POST: the tournament's protests, participant cap and application period."""

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return redirect("tournaments:participants", slug=slug)

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        current = Tournament.objects.get(pk=self.tournament.pk)
        seen = request.POST.get("seen")
        if seen is not None and seen != settings_seen(current):  # saved meanwhile: another organizer or another tab
            kept = kept_after_conflict(SettingsForm, request.POST, current)
            differ = saved_meanwhile(kept, current)
            messages.error(request, _("The settings were saved meanwhile (by another organizer or in another tab). "
                                      "Nothing of yours was saved: what you typed is kept below; save again to "
                                      "write it over them.") + (" " + _("Saved meanwhile: %(list)s.") % {
                                          "list": "; ".join(differ)} if differ else ""))
            return self.page(request, RegisterForm(tournament=self.tournament), status=409, settings_form=kept)
        form = SettingsForm(request.POST, instance=current)
        if not form.is_valid():
            return self.page(request, RegisterForm(tournament=self.tournament), status=400, settings_form=form)
        saved = form.save()
        messages.success(request, _("Saved."))
        elsewhere = registration.living_elsewhere(saved) if "city" in form.changed_data else []
        if elsewhere:  # kostroma admits residents only: those accepted under the old city are said, not dropped
            messages.warning(request, ngettext(
                "%(n)s accepted player lives in another city than %(city)s: %(names)s.",
                "%(n)s accepted players live in another city than %(city)s: %(names)s.", len(elsewhere))
                % {"n": len(elsewhere), "city": saved.city, "names": ", ".join(elsewhere)})
        return redirect("tournaments:participants", slug=slug)


class BulkDecisionView(OrganizerRequiredMixin, View):
    """POST: accept or reject the chosen applications, all or none."""

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        decision = request.POST.get("decision", "")
        try:
            ids = [int(value) for value in request.POST.getlist("ids")]
        except ValueError:
            ids = []
        try:
            outcomes = registration.decide_many(self.tournament, ids, decision, by=signed_in(request))
        except registration.RegistrationError as error:
            messages.error(request, error.message)
            return redirect("tournaments:participants", slug=slug)
        n = len(outcomes)
        if decision == "accept":
            messages.success(request, ngettext("%(n)s application is accepted.", "%(n)s applications are accepted.",
                                               n) % {"n": n})
            guests = sum(1 for o in outcomes if o.made_guest)
            if guests:
                messages.warning(request, _("%(n)s of them are guests: the cap is reached.") % {"n": guests})
        else:
            messages.success(request, ngettext("%(n)s application is rejected.", "%(n)s applications are rejected.",
                                               n) % {"n": n})
        return redirect("tournaments:participants", slug=slug)


class DecideApplicationView(OrganizerRequiredMixin, View):
    def post(self, request: HttpRequest, slug: str, pk: int, decision: str) -> HttpResponseBase:
        if decision not in ("accept", "reject", "reconsider"):
            raise Http404
        participant = get_object_or_404(Participant, pk=pk, tournament=self.tournament)
        try:
            if decision == "accept":
                outcome = registration.accept(participant, signed_in(request))
                if outcome.made_guest:
                    messages.warning(request, _("Accepted as a guest: the cap is reached."))
                else:
                    messages.success(request, _("The application is accepted."))
            elif decision == "reject":
                registration.reject(participant, signed_in(request))
                messages.success(request, _("The application is rejected."))
            else:
                registration.reconsider(participant, signed_in(request))
                messages.success(request, _("The application waits for your decision again."))
        except registration.RegistrationError as error:
            messages.error(request, error.message)
        return redirect("tournaments:participants", slug=self.tournament.slug)


class ImportPlayersView(OrganizerRequiredMixin, View):
    """Paste or upload a CSV list: a preview marks each bad row; nothing is imported until all are right."""

    template_name = "tournaments/import_players.html"

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return render(request, self.template_name,
                      {"tournament": self.tournament, "form": CsvForm(tournament=self.tournament)})

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        form = CsvForm(request.POST, request.FILES, tournament=self.tournament)
        context: dict[str, Any] = {"tournament": self.tournament, "form": form}
        if not form.is_valid() or form.bad_rows:
            context["rows"] = form.rows
            return render(request, self.template_name, context, status=400 if form.rows or form.errors else 200)
        context.update(rows=form.rows, ready=True, text=form.cleaned_data["text"], verdicts=form.verdicts)
        if request.POST.get("confirm") != "1":
            return render(request, self.template_name, context)
        choice_problems = form.choose(request.POST)
        if choice_problems:
            context.update(choice_problems=choice_problems)
            return render(request, self.template_name, context, status=400)
        rows = [({k: v for k, v in row.form.cleaned_data.items()}, row.team or row.new_team or None)
                for row in form.rows if row.form]
        try:
            outcomes = add_players(self.tournament, rows, [row.player for row in form.rows if row.form])
        except registration.RegistrationError as error:
            context.update(rows=form.rows, problem=error.message)
            return render(request, self.template_name, context, status=400)
        guests = sum(1 for o in outcomes if o.made_guest)
        messages.success(request, _("%(n)s players imported.") % {"n": len(outcomes)})
        if guests:
            messages.warning(request, _("%(n)s of them are guests: the cap is reached.") % {"n": guests})
        return redirect("tournaments:participants", slug=self.tournament.slug)


class TeamsView(OrganizerRequiredMixin, View):
    """The teams with their members; add a team; put ticked participants in a team (or out of one)."""

    template_name = "tournaments/teams.html"

    def page(self, request: HttpRequest, form: TeamForm | None = None, members: TeamMembersForm | None = None,
             status: int = 200) -> HttpResponse:
        teams = self.tournament.teams.prefetch_related("members__player")
        return render(request, self.template_name, {
            "tournament": self.tournament, "form": form or TeamForm(tournament=self.tournament), "teams": teams,
            "members_form": members or TeamMembersForm(tournament=self.tournament),
            "team_size": team_size_limit(self.tournament),
        }, status=status)

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return self.page(request)

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        if request.POST.get("action") == "members":
            return self.assign(request)
        form = TeamForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.page(request, form, status=400)
        Team.objects.create(tournament=self.tournament, **form.cleaned_data)
        messages.success(request, _("The team is added."))
        return redirect(reverse("tournaments:teams", kwargs={"slug": self.tournament.slug}))

    def assign(self, request: HttpRequest) -> HttpResponseBase:
        form = TeamMembersForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.page(request, members=form, status=400)
        team = form.cleaned_data["team"]
        try:
            changed = assign_team(self.tournament, team, list(form.cleaned_data["participants"]))
        except registration.RegistrationError as error:
            form.add_error(error.field, error.message)
            return self.page(request, members=form, status=400)
        if team is None:
            messages.success(request, ngettext("%(n)s participant is out of their team.",
                                               "%(n)s participants are out of their teams.", changed) % {"n": changed})
        else:
            messages.success(request, ngettext("%(n)s participant joined %(team)s.",
                                               "%(n)s participants joined %(team)s.", changed)
                             % {"n": changed, "team": team.name})
        return redirect(reverse("tournaments:teams", kwargs={"slug": self.tournament.slug}))
