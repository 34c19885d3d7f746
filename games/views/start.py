"""Where the login takes a signed-in user: a chief judge lands on the desk of their latest tournament (the
protocols to confirm); a judge with one table to record lands on its live screen; a judge with several sees them,
one tap each; anyone else gets the list of tournaments."""

from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.views import View

from judges.models import Judge
from tournaments.mixins import signed_in

from ..services.today import tables_to_record


class StartView(LoginRequiredMixin, View):
    template_name = "games/start.html"

    def get(self, request: HttpRequest) -> HttpResponseBase:
        chief = (Judge.objects.filter(user=signed_in(request), chief=True).select_related("tournament")
                 .order_by("-tournament__starts", "-tournament__pk").first())
        if chief is not None:
            return redirect("games:desk", slug=chief.tournament.slug)
        tables = tables_to_record(signed_in(request))
        if not tables:
            return redirect("site:tournaments")
        if len(tables) == 1:
            table, _game = tables[0]
            return redirect("games:table", slug=table.round.stage.tournament.slug, table=table.pk)
        return render(request, self.template_name, {"tables": tables})
