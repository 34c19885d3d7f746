"""A stage's rounds: generate the next seating, see tables and seats, swap, regenerate, publish."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from ..models import Participant, Round, Stage
from ..permissions import OrganizerRequiredMixin
from ..services import seating
from ..services.seating import SeatingError


class StageView(OrganizerRequiredMixin, View):
    template_name = "tournaments/stage.html"

    def get(self, request: HttpRequest, slug: str, stage: str) -> HttpResponse:
        stage_row = get_object_or_404(Stage, tournament=self.tournament, ext_id=stage)
        rounds = list(stage_row.rounds.order_by("number"))
        return render(request, self.template_name, {
            "tournament": self.tournament, "stage": stage_row, "rounds": rounds,
            "players": len(seating.stage_players(stage_row)),
        })

    def post(self, request: HttpRequest, slug: str, stage: str) -> HttpResponseBase:
        stage_row = get_object_or_404(Stage, tournament=self.tournament, ext_id=stage)
        try:
            round_ = seating.generate_next_round(stage_row)
        except SeatingError as error:
            messages.error(request, str(error))
            return redirect("tournaments:stage", slug=slug, stage=stage)
        messages.success(request, _("Round %(n)s is seated as a draft.") % {"n": round_.number})
        return redirect("tournaments:round", slug=slug, stage=stage, number=round_.number)


class RoundView(OrganizerRequiredMixin, View):
    """The round's tables and seats, byes, absences and balance figures; and the actions on it."""

    template_name = "tournaments/round.html"
    actions = ("regenerate", "publish", "unpublish", "swap", "absent", "present")

    def load(self, stage: str, number: int) -> Round:
        return get_object_or_404(
            Round.objects.select_related("stage__tournament"),
            stage__tournament=self.tournament, stage__ext_id=stage, number=number,
        )

    def get(self, request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponse:
        round_ = self.load(stage, number)
        seats = round_.seats.select_related("participant__player", "table").order_by("table__number", "number")
        tables: dict[int, list[Any]] = defaultdict(list)
        for seat in seats:
            tables[seat.table.number].append(seat)
        away = {a.participant_id for a in round_.absences.all()}
        players = [p for p in seating.stage_players(round_.stage) if p.pk not in away]
        return render(request, self.template_name, {
            "tournament": self.tournament, "stage": round_.stage, "round": round_,
            "tables": sorted(tables.items()), "seats": seats,
            "byes": round_.byes.select_related("participant__player"),
            "absences": round_.absences.select_related("participant__player"),
            "players": players,
            "balance": seating.balance_figures(round_.stage, round_),
        })

    def post(self, request: HttpRequest, slug: str, stage: str, number: int) -> HttpResponseBase:
        round_ = self.load(stage, number)
        action = request.POST.get("action", "")
        try:
            self.act(request, round_, action)
        except SeatingError as error:
            messages.error(request, str(error))
        return redirect("tournaments:round", slug=slug, stage=stage, number=round_.number)

    def act(self, request: HttpRequest, round_: Round, action: str) -> None:
        if action == "regenerate":
            seating.regenerate_round(round_)
            messages.success(request, _("The round is seated again."))
        elif action == "publish":
            seating.publish_round(round_, request.user)
            messages.success(request, _("The seating is published."))
        elif action == "unpublish":
            seating.unpublish_round(round_)
            messages.success(request, _("The round is a draft again."))
        elif action == "swap":
            first, second = self.seat_ids(request)
            seating.swap_seats(round_, first, second)
            messages.success(request, _("The two players are swapped."))
        elif action in ("absent", "present"):
            participant = self.participant(request)
            if action == "absent":
                seating.mark_absent(round_, participant)
                messages.success(request, _("%(name)s is marked absent; the round is seated again.")
                                 % {"name": participant.player.full_name})
            else:
                seating.unmark_absent(round_, participant)
                messages.success(request, _("%(name)s is back; the round is seated again.")
                                 % {"name": participant.player.full_name})
        else:
            raise SeatingError(_("Unknown action."))

    def seat_ids(self, request: HttpRequest) -> tuple[int, int]:
        try:
            return int(request.POST["first"]), int(request.POST["second"])
        except (KeyError, ValueError):
            raise SeatingError(_("Choose two different seats of this round.")) from None

    def participant(self, request: HttpRequest) -> Participant:
        try:
            return Participant.objects.select_related("player").get(
                pk=int(request.POST.get("participant", "")), tournament=self.tournament
            )
        except (ValueError, Participant.DoesNotExist):
            raise SeatingError(_("Choose a player of this tournament.")) from None
