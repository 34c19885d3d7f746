"""The rating's rules page (K per level and side, the starting rating): for the site's administrators
(superusers, or the ``ratings.change_ratingrules`` permission). Saving recomputes every rating at once."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View

from ..forms import RulesForm
from ..services.compute import recompute, rules


class RulesView(LoginRequiredMixin, View):
    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated and not request.user.has_perm("ratings.change_ratingrules"):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "ratings/rules.html", {"form": RulesForm(instance=rules())})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = RulesForm(request.POST, instance=rules())
        if not form.is_valid():
            return render(request, "ratings/rules.html", {"form": form}, status=400)
        with transaction.atomic():
            form.save()
            outcome = recompute()
        messages.success(request, _("Saved; every rating recomputed: %(players)s players, %(games)s games.") % {
            "players": outcome.players, "games": outcome.games})
        return HttpResponseRedirect(reverse("rating_rules:rules"))
