"""The chief judge's desk (the chief judge and the organizers): the round's tables as cards, the waiting ones
first, with a one-tap confirmation of the version looked at and "send back with a comment"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from tournaments.mixins import signed_in

from ..models import Game
from ..services import desk
from ..services import protocol as service
from .base import StaffRequiredMixin, TableAccessMixin


class DeskView(StaffRequiredMixin, View):
    """``?round=ID`` chooses a past round; htmx (every 10 s) gets the cards alone."""

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        super().check_access(request, **kwargs)
        if not self.staff.may("confirm"):
            raise PermissionDenied

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        rounds = desk.rounds_of(self.tournament)
        wanted = request.GET.get("round")
        round_ = desk.current_round(rounds) if not wanted else next((r for r in rounds if str(r.pk) == wanted), None)
        if wanted and round_ is None:
            raise Http404
        cards = desk.cards(round_) if round_ is not None else []
        user = signed_in(request)
        if self.tournament.four_eyes:
            for card in cards:
                if card.state == "submitted" and card.game is not None:
                    card.refusal = service.four_eyes_refusal(card.game, user, self.tournament)
        context = {
            "tournament": self.tournament, "staff": self.staff, "rounds": rounds, "round": round_,
            "current": desk.current_round(rounds), "cards": cards, "counts": desk.counts(cards),
            "poll_url": request.get_full_path(),
        }
        template = "games/desk.html#desk" if getattr(request, "htmx", False) else "games/desk.html"
        return render(request, template, context)


class DeskActionView(TableAccessMixin, View):
    """POST ``action`` (``confirm`` or ``send_back``), ``version`` (the one on the card), ``comment``."""

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        super().check_access(request, **kwargs)
        if not self.staff.may("confirm"):
            raise PermissionDenied

    def post(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        back = f"{reverse('games:desk', kwargs={'slug': slug})}?round={self.table.round_id}"
        game = Game.objects.filter(table=self.table).first()
        try:
            version = int(request.POST.get("version", ""))
        except ValueError:
            version = -1
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        values = {"n": self.table.number}
        try:
            if game is None:
                messages.error(request, _("Table %(n)s has no protocol yet.") % values)
            elif handler is None:
                messages.error(request, _("Unknown action."))
            else:
                messages.success(request, handler(self, game, version) % values)
        except service.ProtocolError as error:
            messages.error(request, _("Table %(n)s: %(error)s") % {**values, "error": error})
        return redirect(f"{back}#table-{self.table.number}")

    def confirm(self, game: Game, version: int) -> str:
        service.confirm(game, self.staff, signed_in(self.request), version)
        return _("Table %(n)s: the protocol is confirmed and locked.")

    def send_back(self, game: Game, version: int) -> str:
        service.send_back(game, self.staff, signed_in(self.request), version, self.request.POST.get("comment", ""))
        return _("Table %(n)s: the protocol is sent back to its judge with your comment.")

    ACTIONS: ClassVar[dict[str, Callable[[DeskActionView, Game, int], str]]] = {
        "confirm": confirm, "send_back": send_back}
