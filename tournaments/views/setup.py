"""Creating a tournament from a ruleset preset."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views import View

from scoring.rulesets import RULESETS, get_ruleset

from ..forms.setup import ParamsForm, StageFormSet, TournamentForm, preset_stages
from ..mixins import signed_in
from ..models import RulesetId
from ..permissions import CanCreateTournamentMixin
from ..services.setup import create_tournament
from ..summaries import summary


class CreateTournamentView(LoginRequiredMixin, CanCreateTournamentMixin, View):
    template_name = "tournaments/create.html"

    def ruleset_id(self, request: HttpRequest) -> str:
        value = request.POST.get("ruleset") or request.GET.get("ruleset") or RulesetId.FIIM
        return value if value in RULESETS else RulesetId.FIIM

    def render_page(self, request: HttpRequest, ruleset_id: str, form: Any, params: Any, stages: Any,
                    status: int = 200) -> HttpResponse:
        context = {
            "form": form, "params": params, "stages": stages, "ruleset_id": ruleset_id,
            "ruleset_name": RulesetId(ruleset_id).label, "summary": summary(ruleset_id),
            "rulesets": RulesetId.choices, "takes_applications": get_ruleset(ruleset_id).takes_applications,
        }
        return render(request, self.template_name, context, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        ruleset_id = self.ruleset_id(request)
        ruleset = get_ruleset(ruleset_id)
        form = TournamentForm(initial={"ruleset": ruleset_id, "standings_hidden": ruleset.standings_hidden_by_default,
                                       "participant_cap": ruleset.participant_cap})
        return self.render_page(request, ruleset_id, form, ParamsForm(ruleset_id=ruleset_id, prefix="param"),
                                StageFormSet(initial=preset_stages(ruleset_id), prefix="stage"))

    def post(self, request: HttpRequest) -> HttpResponseBase:
        ruleset_id = self.ruleset_id(request)
        data = request.POST.copy()
        data["ruleset"] = ruleset_id
        if not data.get("slug") and data.get("name"):
            data["slug"] = slugify(str(data["name"]))[:64]
        form = TournamentForm(data)
        params = ParamsForm(data, ruleset_id=ruleset_id, prefix="param")
        stages = StageFormSet(data, prefix="stage")
        if not (form.is_valid() and params.is_valid() and stages.is_valid()):
            return self.render_page(request, ruleset_id, form, params, stages, status=400)
        rows = [f.cleaned_data for f in stages.forms if f.cleaned_data and not f.cleaned_data.get("DELETE", False)]
        tournament = create_tournament(form.save(commit=False), params.overrides, rows, signed_in(request))
        messages.success(request, _("The tournament is created."))
        return redirect(tournament)
