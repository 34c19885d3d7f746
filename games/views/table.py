"""The judge's table screen for a phone: one tap, one saved change (htmx), version-checked."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from tournaments.mixins import signed_in
from tournaments.rules import ruleset_for, stage_multiplier

from ..forms import role_choices, side_choices
from ..models import Game, GameState
from ..reasons import foul_choices, removal_choices
from ..services import protocol as service
from ..services.facts import ProtocolFacts, breakdown, facts_of, stage_context, tracks_days
from ..services.table import MAX_CIRCLES, Tap, apply_tap
from .base import split_problems
from .protocol import ProtocolBase


class TableScreenView(ProtocolBase):
    template_name = "games/table.html"
    partial = "games/_screen.html"

    def get(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        return self.screen(game, self.template_name, "", "", roles=bool(request.GET.get("roles")))

    def screen(self, game: Game, template: str, said: str, error: str, status: int = 200, *,
               circle: int = 0, roles: bool = False, mode: str = "") -> HttpResponse:
        ruleset = ruleset_for(self.tournament)
        rows = list(game.seats.select_related("seat__participant__player").order_by("seat__number"))
        facts = facts_of(game, rows, removal_at=ruleset.foul_removal_at)
        points = breakdown(facts, ruleset, stage_multiplier(self.table.round.stage, ruleset),
                           stage_context(self.table, ruleset))
        names = {row.seat.number: row.seat.participant.player for row in rows}
        labels = dict(role_choices(ruleset))
        # The circle the judge chose, or the last one marked so far.
        circle = min(max(circle or len(facts.circles), 1), MAX_CIRCLES)
        marks = facts.circles[circle - 1] if circle <= len(facts.circles) else {}
        marked = {n: kind for kind in ("best", "worst") for n in marks.get(kind, ())}
        circles = ruleset.params.circle_max_marks > 0
        return render(self.request, template, {
            "tournament": self.tournament, "table": self.table, "game": game, "facts": facts, "staff": self.staff,
            "seats": [(s, names[s.number], labels.get(s.role, ""), points.get(s.number), marked.get(s.number, ""))
                      for s in facts.seats],
            "needs_roles": roles or any(not s.role for s in facts.seats), "role_choices": role_choices(ruleset),
            "extra_sides": side_choices(ruleset) if ruleset.allows_extra_characters else [],
            "sides": side_choices(ruleset), "fouls": foul_choices(ruleset.id), "removals": removal_choices(ruleset.id),
            "extra": ruleset.params.extra_max_players > 0, "subjective": tracks_days(ruleset),
            "circles": circles, "circle": circle, "mode": mode,
            "circle_numbers": range(1, min(len(facts.circles) + 2, MAX_CIRCLES) + 1) if circles else (),
            "said": said, "error": error,
            "editable": game.state != GameState.CONFIRMED, "first_killed": facts.derived_first_killed(),
        }, status=status)

    def post(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        template = self.partial if request.htmx else self.template_name  # type: ignore[attr-defined]
        data = request.POST
        try:
            version = int(data.get("version", ""))
            seat = int(data["seat"]) if data.get("seat") else None
            circle = int(data.get("circle") or 0)
        except ValueError:
            return self.screen(game, template, "", _("The request is incomplete; reload the page."), 400)
        action = data.get("action", "")
        said, error, status = "", "", 200
        try:
            if action == "roles":
                game = service.change(game, signed_in(request), version, lambda facts: set_roles(facts, data))
                said = _("Roles are saved.")
            else:
                reason = data.get("reason" if action == "foul" else "removal", "")
                tap = Tap(action, seat, reason, data.get("value", ""), circle)
                game, said = apply_tap(game, signed_in(request), version, tap, ruleset_for(self.tournament))
        except service.VersionConflict as conflict:
            error, status = str(conflict), 409
        except service.ProtocolRejected as rejected:
            by_seat, general = split_problems(rejected.problems)
            error, status = " ".join([*general, *(m for ms in by_seat.values() for m in ms)]), 400
        except service.ProtocolError as refused:
            error, status = str(refused), 400
        game.refresh_from_db()
        if not request.htmx:  # type: ignore[attr-defined]
            return redirect("games:table", slug=slug, table=table) if not error else self.screen(
                game, template, said, error, status, circle=circle, mode=action)
        # htmx swaps 200 answers only: the screen always comes back current, saying what happened.
        return self.screen(game, template, said, error, circle=circle, mode=action)


def set_roles(facts: ProtocolFacts, data: Any) -> None:
    for seat in facts.seats:
        seat.role = data.get(f"s{seat.number}_role", seat.role)
        seat.side = data.get(f"s{seat.number}_side", seat.side) or ""
