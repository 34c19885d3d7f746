"""The protocol of a game: the form with each seat's points, its states, and its history."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.mixins import signed_in
from tournaments.rules import protests_enabled, ruleset_for, stage_multiplier

from ..forms import ProtocolForm
from ..history import protocol_history
from ..models import Game, GameState
from ..reasons import label
from ..services import protocol as service
from ..services.facts import breakdown, facts_of, problems, stage_context
from ..words import awarded_words, seat_names
from .base import TableAccessMixin, split_problems


class ProtocolBase(TableAccessMixin, View):
    game: Game

    def load(self) -> Game | HttpResponseBase:
        try:
            return service.open_protocol(self.table, signed_in(self.request))
        except service.ProtocolError as error:
            messages.error(self.request, str(error))
            return redirect("games:protocols", slug=self.tournament.slug)


class ProtocolView(ProtocolBase):
    template_name = "games/protocol.html"

    def get(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        return self.page(game, None, [])

    def page(self, game: Game, form: ProtocolForm | None, found: list[Any], status: int = 200) -> HttpResponse:
        ruleset = ruleset_for(self.tournament)
        rows = list(game.seats.select_related("seat__participant__player").order_by("seat__number"))
        facts = facts_of(game, rows, removal_at=ruleset.foul_removal_at)
        if form is None:
            form = ProtocolForm(initial={"version": game.version}, facts=facts, ruleset=ruleset)
            found = problems(facts, ruleset, need_result=game.state != GameState.DRAFT) if game.version > 1 else []
        by_seat, general = split_problems(found)
        points = breakdown(facts, ruleset, stage_multiplier(self.table.round.stage, ruleset),
                           stage_context(self.table, ruleset))
        players = {row.seat.number: row.seat.participant for row in rows}
        held = service.held_for_the_chief(game, self.staff.can_confirm)  # submitted: the judge's no longer
        seat_rows = [
            (seat, fields, players[seat.number], by_seat.get(seat.number, []), points.get(seat.number),
             "; ".join(label(code) for code in seat.warning_reasons))
            for seat, fields in form.seat_rows()
        ]
        return render(self.request, self.template_name, {
            "tournament": self.tournament, "table": self.table, "game": game, "form": form,
            "seat_rows": seat_rows, "general_problems": general, "staff": self.staff,
            "editable": game.state != GameState.CONFIRMED and not held, "held": held, "ruleset": ruleset,
            "confirm_refusal": service.four_eyes_refusal(game, signed_in(self.request), self.tournament)
            if self.staff.can_confirm else None,
            "protests": [(p, None) for p in game.protests.select_related("recorded_by", "late_accepted_by")],
            "players": seat_names(list(players.items())),
            "protests_on": protests_enabled(self.tournament),
            "awarded": awarded_words(facts.awarded, str(game.get_winner_display()) if game.winner else ""),
        }, status=status)

    def post(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        rows = list(game.seats.select_related("seat").order_by("seat__number"))
        ruleset = ruleset_for(self.tournament)
        form = ProtocolForm(request.POST, facts=facts_of(game, rows, removal_at=ruleset.foul_removal_at),
                            ruleset=ruleset)
        if not form.is_valid():
            return self.page(game, form, [], status=400)
        try:
            saved = service.change(game, signed_in(request), form.cleaned_data["version"], form.apply,
                                   unchanged_unsaved=True)
        except service.ProtocolRejected as error:
            return self.page(game, form, error.problems, status=400)
        except service.ProtocolError as error:
            messages.error(request, str(error))
            return self.page(game, form, [], status=409)
        if saved.version == form.cleaned_data["version"]:
            messages.info(request, _("Nothing changed."))
        else:
            messages.success(request, _("The protocol is saved."))
        return redirect("games:protocol", slug=slug, table=table)


class StateView(ProtocolBase):
    """Submit, confirm, reopen (POST ``action``, ``version``, ``reason``)."""

    def post(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        action = request.POST.get("action", "")
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = -1
        handler = self.ACTIONS.get(action)
        try:
            if handler is None:
                messages.error(request, _("Unknown action."))
            else:
                handler(self, request, game, version)
        except service.ProtocolRejected as error:
            by_seat, general = split_problems(error.problems)
            for message in [*general, *(m for ms in by_seat.values() for m in ms)]:
                messages.error(request, message)
        except service.ProtocolError as error:
            messages.error(request, str(error))
        return redirect("games:protocol", slug=slug, table=table)

    def submit(self, request: HttpRequest, game: Game, version: int) -> None:
        service.submit(game, signed_in(request), version)
        messages.success(request, _("The protocol is submitted; it counts in the standings."))

    def confirm(self, request: HttpRequest, game: Game, version: int) -> None:
        service.confirm(game, self.staff, signed_in(request), version)
        messages.success(request, _("The protocol is confirmed and locked."))

    def reopen(self, request: HttpRequest, game: Game, version: int) -> None:
        service.reopen(game, self.staff, signed_in(request), version, request.POST.get("reason", ""))
        messages.success(request, _("The protocol is reopened."))

    ACTIONS: ClassVar[dict[str, Callable[[StateView, HttpRequest, Game, int], None]]] = {
        "submit": submit, "confirm": confirm, "reopen": reopen,
    }


class HistoryView(ProtocolBase):
    template_name = "games/history.html"

    def get(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        return render(request, self.template_name, {
            "tournament": self.tournament, "table": self.table, "game": game,
            "entries": protocol_history(game),
        })
