"""A stage's rounds: seat the next ones (a background job with progress), see tables and seats
with the seating figures, swap, seat again, publish; absences and penalties."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from checkin import services as checkin
from running.forms import GroupsForm, PenaltyForm, PlanForm, groups_text
from running.services import figures, groups, jobs, planning, seating
from running.services.no_shows import mark_missing_absent, restore_no_shows
from running.services.stages import next_stage_of
from tournaments.errors import SeatingError
from tournaments.mixins import signed_in
from tournaments.models import JobState, Participant, Round, SeatingJob, Stage
from tournaments.permissions import OrganizerRequiredMixin
from tournaments.rules import ruleset_for
from tournaments.services import penalties


def job_url(job: SeatingJob) -> str:
    return reverse("running:job", kwargs={"slug": job.stage.tournament.slug, "stage": job.stage.ext_id,
                                               "pk": job.pk})


class StageView(OrganizerRequiredMixin, View):
    template_name = "running/stage.html"

    def stage(self, ext_id: str) -> Stage:
        return get_object_or_404(Stage.objects.select_related("tournament"), tournament=self.tournament,
                                 ext_id=ext_id)

    def form(self, stage: Stage, players: int, data: Any = None) -> PlanForm:
        number = planning.next_number(stage)
        return PlanForm(data, players=players, table_size=ruleset_for(self.tournament).params.table_size,
                        initial={"method": planning.default_method(stage, number), "rounds": 1})

    def page(self, request: HttpRequest, stage: Stage, form: PlanForm | None = None, status: int = 200,
             groups_form: GroupsForm | None = None) -> HttpResponse:
        rounds = list(stage.rounds.order_by("number"))
        players = len([p for p in seating.stage_players(stage) if p.disqualified_at is None])
        following = next_stage_of(stage)
        group_views = groups.group_views(stage) if following is not None else []
        job = jobs.active_job(stage)
        return render(request, self.template_name, {
            "tournament": self.tournament, "stage": stage, "rounds": rounds, "players": players,
            "form": form or self.form(stage, players), "job": job,
            "untaken": jobs.untaken_seconds(job) if job is not None else None,
            "bye_problem": figures.bye_problem(stage, players) if not rounds else None,
            "planned": figures.planned_rounds(stage),
            "next_stage": following, "groups": group_views,
            "programme_words": groups.programme_words(stage, group_views),
            "groups_locked": any(group.state == groups.SEATED for group in group_views),
            "groups_form": groups_form or GroupsForm(initial={
                "groups": groups_text([group.tables for group in group_views])}),
        }, status=status)

    def get(self, request: HttpRequest, slug: str, stage: str) -> HttpResponse:
        return self.page(request, self.stage(stage))

    def post(self, request: HttpRequest, slug: str, stage: str) -> HttpResponseBase:
        stage_row = self.stage(stage)
        action = request.POST.get("action")
        if action in ("groups", "close_group"):
            return self.group_action(request, stage_row, action)
        form = self.form(stage_row, len([p for p in seating.stage_players(stage_row) if p.disqualified_at is None]),
                         request.POST)
        if not form.is_valid():
            return self.page(request, stage_row, form, status=400)
        try:
            job = jobs.start(stage_row, signed_in(request), method=form.cleaned_data["method"],
                             rounds=form.cleaned_data["rounds"], tables=form.cleaned_data.get("tables"))
        except SeatingError as error:
            messages.error(request, str(error))
            return self.page(request, stage_row, form, status=400)
        jobs.launch(job)
        return redirect(job_url(job))


    def group_action(self, request: HttpRequest, stage: Stage, action: str) -> HttpResponseBase:
        """Set the groups of tables, or close one group and seat its table of the next stage."""
        form = GroupsForm(request.POST) if action == "groups" else None
        try:
            if form is not None:
                if not form.is_valid():
                    return self.page(request, stage, status=400, groups_form=form)
                groups.set_groups(stage, form.cleaned_data["groups"])
                messages.success(request, _("The groups of tables are saved."))
            else:
                feeds = request.POST.get("group", "")
                if not feeds.isdigit():
                    raise groups.GroupError(_("Choose a group."))
                closed = groups.close_group(stage, int(feeds), signed_in(request))
                messages.success(request, _("Group %(n)s is closed: table %(n)s of %(next)s is seated with its "
                                            "%(count)s players.") % {"n": closed.group.feeds, "next": closed.next_stage,
                                                                     "count": len(closed.players)})
        except SeatingError as error:
            messages.error(request, str(error))
            return self.page(request, stage, status=400, groups_form=form)
        return redirect("running:stage", slug=self.tournament.slug, stage=stage.ext_id)


class JobView(OrganizerRequiredMixin, View):
    """The job's progress; htmx polls it and is sent to the round once the seating is stored."""

    def load(self, stage: str, pk: int) -> SeatingJob:
        return get_object_or_404(SeatingJob.objects.select_related("stage__tournament", "round"), pk=pk,
                                 stage__tournament=self.tournament, stage__ext_id=stage)

    def post(self, request: HttpRequest, slug: str, stage: str, pk: int) -> HttpResponseBase:
        """Cancel the job (the only action on it)."""
        job = self.load(stage, pk)
        try:
            jobs.cancel(job)
        except SeatingError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("The seating is cancelled; nothing was stored."))
        return redirect(job_url(job))

    def get(self, request: HttpRequest, slug: str, stage: str, pk: int) -> HttpResponseBase:
        job = self.load(stage, pk)
        if jobs.is_stale(job):
            job = jobs.expire(job)
        if job.state == JobState.DONE and job.first_number:
            target = reverse("running:round", kwargs={"slug": slug, "stage": stage, "number": job.first_number})
            if getattr(request, "htmx", False):
                response = HttpResponse(status=204)
                response["HX-Redirect"] = target
                return response
            return redirect(target)
        template = "running/job.html#job" if getattr(request, "htmx", False) else "running/job.html"
        return render(request, template, {"tournament": self.tournament, "stage": job.stage, "job": job,
                                          "untaken": jobs.untaken_seconds(job),
                                          "message": jobs.message_text(job), "url": job_url(job)})


class RoundView(OrganizerRequiredMixin, View):
    """The round's tables and seats, byes, absences, penalties and seating figures; and the actions on it."""

    template_name = "running/round.html"

    def load(self, stage: str, number: int) -> Round:
        return get_object_or_404(
            Round.objects.select_related("stage__tournament"),
            stage__tournament=self.tournament, stage__ext_id=stage, number=number,
        )

    def players(self, round_: Round) -> list[Participant]:
        away = {a.participant_id for a in round_.absences.all()}
        return [p for p in seating.stage_players(round_.stage) if p.pk not in away and p.disqualified_at is None]

    def page(self, request: HttpRequest, round_: Round, *, penalty: PenaltyForm | None = None,
             plan: PlanForm | None = None, status: int = 200) -> HttpResponse:
        seats = round_.seats.select_related("participant__player", "table__game").order_by("table__number", "number")
        tables: dict[int, list[Any]] = defaultdict(list)
        for seat in seats:
            tables[seat.table.number].append(seat)
        players = self.players(round_)
        table_size = ruleset_for(self.tournament).params.table_size
        job = jobs.active_job(round_.stage)
        check_in = checkin.for_round(round_)
        return render(request, self.template_name, {
            "tournament": self.tournament, "stage": round_.stage, "round": round_,
            "tables": sorted(tables.items()), "seats": seats,
            "byes": round_.byes.select_related("participant__player"),
            "absences": round_.absences.select_related("participant__player"),
            "penalties": round_.penalties.select_related("participant__player").order_by("id"),
            "players": players, "figures": figures.round_figures(round_), "job": job,
            "untaken": jobs.untaken_seconds(job) if job is not None else None,
            "numbers_drawn": self.tournament.standings_hidden and seating.seated_by_standings(round_),
            "check_in": check_in, "roll": checkin.roll(check_in) if check_in else None,
            "no_shows": checkin.active_no_shows(round_),
            "swap_fields": [("first", _("First seat")), ("second", _("Second seat"))],
            "penalty_form": penalty or PenaltyForm(players=penalties.candidates(round_)),
            "plan_form": plan or PlanForm(players=len(players), table_size=table_size, block=False,
                                          initial={"method": round_.seating or planning.default_method(
                                              round_.stage, round_.number), "tables": round_.tables_chosen}),
        }, status=status)

    def get(self, request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponse:
        return self.page(request, self.load(stage, number))

    def post(self, request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponseBase:
        """One action, named by the ``action`` field (``ACTIONS``); a refused or unknown one is the page with
        its message (400); done, the round's page again unless the action answers otherwise."""
        round_ = self.load(stage, number)
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        try:
            if handler is None:
                raise SeatingError(_("Unknown action."))
            response = handler(self, request, round_)
        except SeatingError as error:
            messages.error(request, str(error))
            return self.page(request, round_, status=400)
        return response or redirect("running:round", slug=slug, stage=stage, number=round_.number)

    def absent(self, request: HttpRequest, round_: Round) -> HttpResponseBase:
        return self.absence(request, round_, away=True)

    def present(self, request: HttpRequest, round_: Round) -> HttpResponseBase:
        return self.absence(request, round_, away=False)

    def absence(self, request: HttpRequest, round_: Round, *, away: bool) -> HttpResponseBase:
        """Marks a player absent (or back) and seats the draft again, both or neither: a seating that cannot
        start (one is being computed) leaves the absence and the tables as they were."""
        participant = self.participant(request)
        with transaction.atomic():
            if away:
                seating.mark_absent(round_, participant)
                done = _("%(name)s is marked absent; the round is seated again.")
            else:
                seating.unmark_absent(round_, participant)
                done = _("%(name)s is back; the round is seated again.")
            tables = planning.remembered_tables(round_, len(self.players(round_)))
            job = jobs.start(round_.stage, signed_in(request), round_=round_, tables=tables)
        messages.success(request, done % {"name": participant.player.full_name})
        jobs.launch(job)
        return redirect(job_url(job))

    def no_shows(self, request: HttpRequest, round_: Round) -> HttpResponseBase:
        """The check-in's missing players marked absent (or, ``restore``, back), and the draft seated again, both
        or neither, as for one absence."""
        with transaction.atomic():
            if request.POST.get("restore"):
                restore_no_shows(round_, signed_in(request))
                done = _("The absences marked from the check-in are undone; the round is seated again.")
            else:
                check_in = checkin.for_round(round_)
                if check_in is None:
                    raise SeatingError(_("No check-in speaks for this round."))
                away = mark_missing_absent(round_, check_in, signed_in(request))
                done = ngettext("%(count)s missing player is marked absent; the round is seated again.",
                                "%(count)s missing players are marked absent; the round is seated again.",
                                len(away)) % {"count": len(away)}
            tables = planning.remembered_tables(round_, len(self.players(round_)))
            job = jobs.start(round_.stage, signed_in(request), round_=round_, tables=tables)
        messages.success(request, done)
        jobs.launch(job)
        return redirect(job_url(job))

    def start(self, request: HttpRequest, round_: Round, method: str | None, tables: int | None) -> HttpResponseBase:
        job = jobs.start(round_.stage, signed_in(request), round_=round_, method=method, tables=tables)
        jobs.launch(job)
        return redirect(job_url(job))

    def regenerate(self, request: HttpRequest, round_: Round) -> HttpResponseBase:
        players = len(self.players(round_))
        form = PlanForm(request.POST, players=players, block=False,
                        table_size=ruleset_for(self.tournament).params.table_size)
        if not form.is_valid():
            return self.page(request, round_, plan=form, status=400)
        planning.require_draft(round_)
        return self.start(request, round_, form.cleaned_data["method"], form.cleaned_data.get("tables"))

    def penalty(self, request: HttpRequest, round_: Round) -> HttpResponseBase | None:
        form = PenaltyForm(request.POST, players=penalties.candidates(round_))
        if request.POST.get("remove"):
            penalties.remove(round_, request.POST["remove"])
            messages.success(request, _("The penalty is removed."))
        elif not form.is_valid():
            return self.page(request, round_, penalty=form, status=400)
        else:
            data = form.cleaned_data
            penalties.add(round_, data["participant"], data["points"], data["reason"])
            messages.success(request, _("The penalty is recorded."))
        return None

    def publish(self, request: HttpRequest, round_: Round) -> None:
        seating.publish_round(round_, signed_in(request))
        messages.success(request, _("The seating is published."))

    def unpublish(self, request: HttpRequest, round_: Round) -> None:
        seating.unpublish_round(round_)
        messages.success(request, _("The round is a draft again."))

    def swap(self, request: HttpRequest, round_: Round) -> None:
        first, second = request.POST.get("first", ""), request.POST.get("second", "")
        if first.startswith("b") != second.startswith("b"):  # a seat and a bye
            seat, bye = (second, first) if first.startswith("b") else (first, second)
            seating.swap_seat_and_bye(round_, self.pk(seat), self.pk(bye[1:]))
            messages.success(request, _("The seated player goes on the bye and the player on the bye takes "
                                        "the seat."))
        else:
            seating.swap_seats(round_, self.pk(first), self.pk(second))
            messages.success(request, _("The two players are swapped."))

    ACTIONS: ClassVar[dict[str, Callable[[RoundView, HttpRequest, Round], HttpResponseBase | None]]] = {
        "penalty": penalty, "regenerate": regenerate, "absent": absent, "present": present,
        "publish": publish, "unpublish": unpublish, "swap": swap,
        "no_shows": no_shows,
    }

    def pk(self, value: str) -> int:
        try:
            return int(value)
        except ValueError:
            raise SeatingError(_("Choose two different seats of this round.")) from None

    def participant(self, request: HttpRequest) -> Participant:
        try:
            return Participant.objects.select_related("player").get(
                pk=int(request.POST.get("participant", "")), tournament=self.tournament
            )
        except (ValueError, Participant.DoesNotExist):
            raise SeatingError(_("Choose a player of this tournament.")) from None
