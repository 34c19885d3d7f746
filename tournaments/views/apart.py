"""Pairs kept apart when seating: the list, add a pair, remove one."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from ..forms.apart import KeepApartForm
from ..models import KeepApart
from ..permissions import OrganizerRequiredMixin
from ..services import apart


class KeepApartView(OrganizerRequiredMixin, View):
    template_name = "tournaments/keep_apart.html"

    def page(self, request: HttpRequest, form: KeepApartForm, status: int = 200) -> HttpResponse:
        pairs = (KeepApart.objects.filter(tournament=self.tournament)
                 .select_related("first__player", "second__player").order_by("first__number", "second__number"))
        return render(request, self.template_name, {"tournament": self.tournament, "form": form, "pairs": pairs},
                      status=status)

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return self.page(request, KeepApartForm(tournament=self.tournament))

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        if "remove" in request.POST:
            try:
                apart.remove_pair(self.tournament, int(request.POST["remove"]))
            except (ValueError, apart.KeepApartError) as error:
                messages.error(request, getattr(error, "message", _("That pair is not kept apart (removed "
                                                                   "already?).")))
            else:
                messages.success(request, _("The pair is no longer kept apart."))
            return redirect("tournaments:keep_apart", slug=self.tournament.slug)
        form = KeepApartForm(request.POST, tournament=self.tournament)
        if not form.is_valid():
            return self.page(request, form, status=400)
        first, second = form.cleaned_data["first"], form.cleaned_data["second"]
        try:
            apart.add_pair(self.tournament, first, second)
        except apart.KeepApartError as error:
            form.add_error(error.field, error.message)
            return self.page(request, form, status=400)
        messages.success(request, _("%(a)s and %(b)s will not be seated at one table.")
                         % {"a": first.player.full_name, "b": second.player.full_name})
        return redirect("tournaments:keep_apart", slug=self.tournament.slug)
