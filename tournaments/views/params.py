"""The tournament's parameters after it was created: the form, the confirmation a re-scoring needs, the history."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views import View

from base.error_summary import FieldError, form_errors
from base.texts import too_long

from ..forms.params import ParamsForm, value_text
from ..labels import param_label
from ..mixins import signed_in
from ..models import ParamChange, Tournament
from ..permissions import OrganizerRequiredMixin
from ..services.params import ChangedMeanwhile, canonical, change_params, games_with_results

REASON_LIMIT = ParamChange._meta.get_field("reason").max_length or 300
UPGRADE_REASON = "removed on upgrade: does not apply to the regulation"  # migration 0017's records


class ParametersView(OrganizerRequiredMixin, View):
    template_name = "tournaments/parameters.html"

    def page(self, request: HttpRequest, form: ParamsForm, status: int = 200, *, seen: str | None = None,
             confirm: bool = False, changes: list[tuple[str, object, object]] | None = None,
             reason_error: str = "") -> HttpResponse:
        history = [(change, [(param_label(name), value_text(name, old), value_text(name, new))
                             for name, old, new in change.changes],
                    _("removed: does not apply to the regulation") if change.reason == UPGRADE_REASON
                    else change.reason)
                   for change in ParamChange.objects.filter(tournament=self.tournament)]
        context: dict[str, Any] = {
            "tournament": self.tournament, "params": form, "history": history,
            "seen": canonical(self.tournament.params) if seen is None else seen,
            "games": games_with_results(self.tournament), "confirm": confirm,
            "pending": [(param_label(name), value_text(name, old), value_text(name, new))
                        for name, old, new in changes or ()],
            "reason_limit": REASON_LIMIT, "reason_error": reason_error,
            "errors": [*(form_errors(form, general=False) if form.is_bound else []),
                       *([FieldError("id-reason", _("Why"), reason_error)] if reason_error else [])],
        }
        return render(request, self.template_name, context, status=status)

    def form(self, data: Any = None) -> ParamsForm:
        return ParamsForm(data, ruleset_id=self.tournament.ruleset, current=self.tournament.params, prefix="param")

    def changed_meanwhile(self, request: HttpRequest) -> HttpResponse:
        """Nothing saved; the organizer's values stay in the form, the change made meanwhile is at the top of
        the history, and saving again is checked against the parameters in force now."""
        messages.error(request, _("Someone changed the parameters since you opened this page, so nothing was "
                                  "saved. Your values are kept below and the other change is at the top of the "
                                  "history: check them and save again."))
        form = self.form(request.POST)
        form.is_valid()
        return self.page(request, form, status=409)

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        return self.page(request, self.form())

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        form = self.form(request.POST)
        seen = request.POST.get("seen")
        if seen is None:  # not this page's form
            messages.error(request, _("The form came incomplete; nothing was saved."))
            return self.page(request, self.form(), status=400)
        if seen != canonical(self.tournament.params):
            return self.changed_meanwhile(request)
        reason = request.POST.get("reason", "").strip()
        reason_error = too_long(reason, REASON_LIMIT)
        if not form.is_valid() or reason_error:
            return self.page(request, form, status=400, seen=seen, reason_error=reason_error)
        changes = form.changes()
        if not changes:
            messages.info(request, _("Nothing changed."))
            return redirect("tournaments:parameters", slug=slug)
        games = games_with_results(self.tournament)
        if games and request.POST.get("confirm") != "yes":  # re-scoring played games is never done in passing
            return self.page(request, form, status=400, seen=seen, confirm=True, changes=changes)
        try:
            change_params(self.tournament, form.overrides, changes, by=signed_in(request), seen=seen,
                          reason=reason)
        except ChangedMeanwhile:
            self.tournament = Tournament.objects.get(pk=self.tournament.pk)
            return self.changed_meanwhile(request)
        if games:
            messages.success(request, ngettext(
                "Saved: the %(count)s game with a result is scored by the new parameters.",
                "Saved: the %(count)s games with results are scored by the new parameters.", games)
                % {"count": games})
        else:
            messages.success(request, _("Saved."))
        return redirect("tournaments:parameters", slug=slug)
