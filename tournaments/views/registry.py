"""The player registry's site-level pages: possible duplicates, merging two players (with a confirmation
showing both records), and a player's record with the merges it went through (docs/registry.md)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from ..forms.registry import MergeForm
from ..mixins import signed_in
from ..models import Player
from ..permissions import MergePlayersMixin
from ..services.merging import DETAILS, MergeError, duplicate_groups, merge_players, shared_tournament


def record(player: Player) -> dict[str, Any]:
    """A player's details and tournaments, as the merge confirmation and the player's page show them."""
    return {"player": player, "participations": list(
        player.participations.select_related("tournament").order_by("-tournament__starts", "-pk"))}


class DuplicatesView(MergePlayersMixin, View):
    """Players sharing a full name, grouped: each group offers the merge of one into another."""

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "tournaments/duplicates.html", {"groups": duplicate_groups(), "form": MergeForm()})


class MergeView(MergePlayersMixin, View):
    """GET ``?keep=A&merge=B``: both records side by side; POST: merge B into A."""

    template_name = "tournaments/merge.html"

    def page(self, request: HttpRequest, form: MergeForm, status: int = 200) -> HttpResponse:
        context: dict[str, Any] = {"form": form}
        chosen = getattr(form, "cleaned_data", {})
        keep, merge = chosen.get("keep"), chosen.get("merge")
        if keep is not None and merge is not None and keep.pk != merge.pk:  # shown again beside a refusal
            filled = [(getattr(Player._meta.get_field(name), "verbose_name", name), getattr(merge, name))
                      for name in DETAILS if not getattr(keep, name) and getattr(merge, name)]
            context.update(keep=record(keep), merge=record(merge), shared=shared_tournament(keep, merge),
                           filled=filled)
        return render(request, self.template_name, context, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        if not request.GET:
            return self.page(request, MergeForm())
        form = MergeForm(request.GET)
        return self.page(request, form, status=200 if form.is_valid() else 400)

    def post(self, request: HttpRequest) -> HttpResponseBase:
        form = MergeForm(request.POST)
        if not form.is_valid():
            return self.page(request, form, status=400)
        keep = form.cleaned_data["keep"]
        try:
            merge_players(keep, form.cleaned_data["merge"], by=signed_in(request), reason=form.cleaned_data["reason"])
        except MergeError as error:
            form.add_error(None, str(error))
            return self.page(request, form, status=400)
        messages.success(request, _("The players are merged into %(name)s.") % {"name": keep.display_name})
        return redirect("site:player", pk=keep.pk)


class PlayerView(MergePlayersMixin, View):
    """A player of the registry: details, tournaments and the merges that made this record."""

    def get(self, request: HttpRequest, pk: int) -> HttpResponse:
        player = get_object_or_404(Player.objects.select_related("user"), pk=pk)
        return render(request, "tournaments/player.html",
                      {"player": player, "view_record": record(player), "merges": player.merges.all()})
