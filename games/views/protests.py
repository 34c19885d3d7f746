"""A protocol's protests: the list, lodging one, and the chief judge's decision."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from judges.models import Judge
from tournaments.mixins import signed_in
from tournaments.rules import protests_enabled, ruleset_for

from ..forms_protest import DecisionForm, ProtestForm
from ..models import Game, Protest
from ..services import protests as service
from ..services.protocol import ProtocolError
from ..words import seat_names
from .protocol import ProtocolBase


class ProtestsView(ProtocolBase):
    """GET: the protests and the forms; POST: lodge a protest (the table's judge, chief judge, organizer)."""

    template_name = "games/protests.html"

    def get(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        return self.page(game, None, None)

    def seat_players(self, game: Game) -> dict[int, str]:
        rows = game.seats.select_related("seat__participant__player")
        return seat_names([(row.seat.number, row.seat.participant) for row in rows])

    def lodge_form(self, game: Game, data: object, seats: dict[int, str] | None = None) -> ProtestForm:
        return ProtestForm(data, seats=self.seat_players(game) if seats is None else seats)

    def page(self, game: Game, form: ProtestForm | None, decision: tuple[int, DecisionForm] | None,
             status: int = 200) -> HttpResponse:
        minutes = ruleset_for(self.tournament).protest_minutes
        players = self.seat_players(game)
        form = form or self.lodge_form(game, None, players)
        protests = list(game.protests.select_related("recorded_by", "late_accepted_by"))
        forms = {p.pk: DecisionForm() for p in protests if not service.is_decided(p)} if self.staff.chief else {}
        if decision is not None:
            forms[decision[0]] = decision[1]
        return render(self.request, self.template_name, {
            "tournament": self.tournament, "table": self.table, "game": game, "staff": self.staff,
            "form": form, "protests": [(p, forms.get(p.pk)) for p in protests], "minutes": minutes,
            "players": players,
            "closes": service.window_closes(game, minutes), "protests_on": protests_enabled(self.tournament),
            "protests_off": service.protests_off_message(),
            # who decides, said where nobody here may: the chief judge, or a word that the tournament has none yet
            "no_chief": not self.staff.chief and any(not service.is_decided(p) for p in protests)
            and not Judge.objects.filter(tournament=self.tournament, chief=True).exists(),
        }, status=status)

    def post(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        form = self.lodge_form(game, request.POST)
        if not form.is_valid():
            return self.page(game, form, None, status=400)
        try:
            service.lodge(game, self.staff, signed_in(request), form.cleaned_data["seat"], form.cleaned_data["text"])
        except ProtocolError as error:
            form.add_error(None, str(error))
            return self.page(game, form, None, status=400)
        messages.success(request, _("The protest is recorded."))
        return redirect("games:protests", slug=slug, table=table)


class DecideView(ProtestsView):
    """POST only, the chief judge only: upheld or rejected, with the reason; final."""

    def get(self, request: HttpRequest, slug: str, table: int, protest: int = 0) -> HttpResponseBase:
        return redirect("games:protests", slug=slug, table=table)

    def post(self, request: HttpRequest, slug: str, table: int, protest: int = 0) -> HttpResponseBase:
        if not self.staff.chief:
            raise PermissionDenied
        game = self.load()
        if not isinstance(game, Game):
            return game
        row = get_object_or_404(Protest, pk=protest, game=game)
        form = DecisionForm(request.POST)
        if not form.is_valid():
            return self.page(game, None, (row.pk, form), status=400)
        try:
            service.decide(row, self.staff, signed_in(request), form.cleaned_data["decision"],
                           form.cleaned_data["reason"])
        except ProtocolError as error:
            form.add_error(None, str(error))
            return self.page(game, None, (row.pk, form), status=400)
        messages.success(request, _("The protest is decided."))
        return redirect("games:protests", slug=slug, table=table)
