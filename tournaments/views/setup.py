"""Creating a tournament from a ruleset preset."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views import View

from base.error_summary import form_errors, formset_errors
from base.latin import latin_slug
from scoring.rulesets import get_ruleset

from ..forms.params import ParamsForm
from ..forms.setup import StageFormSet, TournamentForm, preset_stages
from ..mixins import signed_in
from ..models import RulesetId
from ..permissions import CanCreateTournamentMixin
from ..presets import PRESETS, Preset, get_preset
from ..services.setup import create_tournament
from ..summaries import summary


class CreateTournamentView(LoginRequiredMixin, CanCreateTournamentMixin, View):
    template_name = "tournaments/create.html"

    def preset(self, request: HttpRequest) -> Preset:
        """The preset chosen (``preset``); an older link's ``ruleset`` names the regulation's own."""
        chosen = request.POST.get("preset") or request.GET.get("preset")
        return get_preset(chosen or request.POST.get("ruleset") or request.GET.get("ruleset"))

    def render_page(self, request: HttpRequest, preset: Preset, form: Any, params: Any, stages: Any,
                    status: int = 200) -> HttpResponse:
        ruleset_id = preset.ruleset
        context = {
            "form": form, "params": params, "stages": stages, "ruleset_id": ruleset_id, "preset": preset,
            "ruleset_name": RulesetId(ruleset_id).label, "summary": summary(ruleset_id),
            "presets": [(p.id, p.label) for p in PRESETS.values()],
            "takes_applications": get_ruleset(ruleset_id).takes_applications,
            # a 400's mistakes at the top, each linked to its field (the stages and parameters are far below)
            "errors": (form_errors(form, general=False) + formset_errors(stages, _("Stage %(n)s")) + form_errors(params)
                       if form.is_bound else []),
        }
        return render(request, self.template_name, context, status=status)

    def get(self, request: HttpRequest) -> HttpResponse:
        preset = self.preset(request)
        ruleset = get_ruleset(preset.ruleset)
        form = TournamentForm(initial={"ruleset": preset.ruleset,
                                       "standings_hidden": ruleset.standings_hidden_by_default,
                                       "participant_cap": ruleset.participant_cap})
        params = ParamsForm(ruleset_id=preset.ruleset, current=preset.overrides, prefix="param")
        return self.render_page(request, preset, form, params,
                                StageFormSet(initial=preset_stages(preset.ruleset), prefix="stage"))

    def post(self, request: HttpRequest) -> HttpResponseBase:
        preset = self.preset(request)
        ruleset_id = preset.ruleset
        data = request.POST.copy()
        data["ruleset"] = ruleset_id
        if not data.get("slug") and data.get("name"):
            data["slug"] = latin_slug(str(data["name"]))[:64].strip("-")
        form = TournamentForm(data)
        params = ParamsForm(data, ruleset_id=ruleset_id, current=preset.overrides, prefix="param")
        stages = StageFormSet(data, prefix="stage")
        if not (form.is_valid() and params.is_valid() and stages.is_valid()):
            return self.render_page(request, preset, form, params, stages, status=400)
        rows = [f.cleaned_data for f in stages.forms if f.cleaned_data and not f.cleaned_data.get("DELETE", False)]
        tournament = create_tournament(form.save(commit=False), params.overrides, rows, signed_in(request))
        messages.success(request, _("The tournament is created."))
        last_day = tournament.ends or tournament.starts
        if last_day and last_day < timezone.localdate():  # an old tournament entered for the record, or a typo
            messages.warning(request, _("Its dates are in the past (%(ends)s): it is recorded as a tournament already "
                                        "held. If that is a typo, correct the dates in the settings of the "
                                        "participants' page.") % {"ends": date_format(last_day)})
        return redirect(tournament)
