"""Creating a tournament from a ruleset preset: details, typed parameters, the stage format."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import InvalidTournament
from scoring.fileio import read_json
from scoring.model import SeatingMethod, StageKind
from scoring.params import Params, parse_overrides
from scoring.rulesets import get_ruleset

from ..labels import SeatingMethod as SeatingChoice
from ..models import AdvanceKind, Tournament
from ..models import StageKind as StageKindChoice

MOMENT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def check_period(form: forms.BaseForm, data: dict[str, Any]) -> None:
    opens, closes = data.get("applications_open"), data.get("applications_close")
    if opens and closes and closes < opens:
        form.add_error("applications_close", _("Applications cannot close before they open."))


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Tournament
        fields = ["name", "slug", "ruleset", "city", "venue", "starts", "ends", "standings_hidden",
                  "participant_cap", "applications_open", "applications_close"]
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ruleset": forms.HiddenInput,
            "applications_open": MOMENT,
            "applications_close": MOMENT,
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", _("The tournament cannot end before it starts."))
        check_period(self, data)
        return data


class SettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    """The organizer's procedure settings of a running tournament: protests, the participant cap, the
    application period. Protests left as the regulation says stay so (``None``)."""

    protests_enabled = forms.NullBooleanField(label=gettext_lazy("protests"), required=False,
                                              widget=forms.NullBooleanSelect)

    class Meta:
        model = Tournament
        fields = ["protests_enabled", "participant_cap", "applications_open", "applications_close"]
        widgets = {"applications_open": MOMENT, "applications_close": MOMENT}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        ruleset = get_ruleset(self.instance.ruleset)
        if not ruleset.takes_applications:  # no applications: no period
            del self.fields["applications_open"], self.fields["applications_close"]
        default = ruleset.protests_by_default
        widget = self.fields["protests_enabled"].widget
        assert isinstance(widget, forms.NullBooleanSelect)
        widget.choices = [
            ("unknown", _("as the regulation says (taken)") if default else _("as the regulation says (not taken)")),
            ("true", _("taken")), ("false", _("not taken")),
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        check_period(self, data)
        cap = data.get("participant_cap")
        if cap is not None:
            accepted = self.instance.participants.filter(status="accepted").count()
            if cap < accepted:
                self.add_error("participant_cap", _(
                    "%(n)s participants are accepted already; the cap cannot be lower.") % {"n": accepted})
        return data


def param_text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


class ParamsForm(forms.Form):
    """One field per parameter (docs/rules/parameters.md), its default shown; only changed values are kept."""

    def __init__(self, *args: Any, ruleset_id: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.defaults: Params = get_ruleset(ruleset_id).defaults
        default_json = self.defaults.to_json()
        for item in dataclasses.fields(Params):
            text = param_text(default_json[item.name])
            # Not required: a field left out or emptied keeps the ruleset's default.
            self.fields[item.name] = forms.CharField(
                label=item.name,
                initial=text,
                required=False,
                help_text=_("%(doc)s; default %(default)s")
                % {"doc": item.metadata.get("doc", item.name), "default": text},
            )
        self.overrides: dict[str, Any] = {}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        default_json = self.defaults.to_json()
        overrides: dict[str, Any] = {}
        for name, text in list(data.items()):
            if text in (None, ""):
                continue
            try:  # the tournament file's reader: NaN, Infinity, 1e400 and 5,000-digit numbers are refused too
                if not isinstance(text, str):
                    raise InvalidTournament([])
                value = read_json(text)
            except InvalidTournament:
                self.add_error(name, _("Write a JSON value, e.g. 2, 0.5, null, [0, 1] or {\"red\": 3}."))
                continue
            _params, errors = parse_overrides(self.defaults, {name: value})
            if errors:
                self.add_error(name, "; ".join(str(e).split(": ", 1)[-1] for e in errors))
            elif value != default_json[name]:
                overrides[name] = value
        if not self.errors:
            _params, errors = parse_overrides(self.defaults, overrides)
            for error in errors:
                name = str(error).split(":", 1)[0].removeprefix("params.")
                self.add_error(name if name in self.fields else None, str(error))
        self.overrides = overrides
        return data


class StageForm(forms.Form):
    ext_id = forms.SlugField(label=gettext_lazy("id"), max_length=64)
    name = forms.CharField(label=gettext_lazy("name"), max_length=100, required=False)
    # The initial kind is the first choice, what a browser sends for the untouched empty row: that row is
    # then unchanged and skipped instead of failing on its required fields.
    kind = forms.ChoiceField(label=gettext_lazy("kind"), choices=StageKindChoice.choices,
                             initial=StageKindChoice.QUALIFYING)
    rounds = forms.IntegerField(label=gettext_lazy("rounds"), min_value=1, max_value=50)
    seating = forms.CharField(
        label=gettext_lazy("seating per round"),
        help_text=gettext_lazy("Comma-separated, one per round; the last one repeats."),
    )
    advance_kind = forms.ChoiceField(
        label=gettext_lazy("who advances"), choices=[("", "—"), *AdvanceKind.choices], required=False
    )
    advance_count = forms.IntegerField(label=gettext_lazy("how many"), min_value=0, required=False)
    reset = forms.BooleanField(label=gettext_lazy("starts from zero"), required=False)
    multiplier = forms.DecimalField(label=gettext_lazy("multiplier"), min_value=0.0001, decimal_places=4)

    def clean_seating(self) -> list[str]:
        methods = [m.strip() for m in self.cleaned_data["seating"].split(",") if m.strip()]
        bad = [m for m in methods if m not in SeatingChoice.values]
        if bad or not methods:
            raise forms.ValidationError(
                _("Unknown seating method %(bad)s; use %(known)s.")
                % {"bad": ", ".join(bad) or "—", "known": ", ".join(SeatingChoice.values)}
            )
        return methods

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if bool(data.get("advance_kind")) != (data.get("advance_count") is not None):
            self.add_error("advance_count", _("Give both who advances and how many, or neither."))
        return data


class BaseStageFormSet(forms.BaseFormSet[forms.Form]):
    def clean(self) -> None:
        if any(self.errors):
            return
        ids = [f.cleaned_data["ext_id"] for f in self.forms if f.cleaned_data and not self._should_delete_form(f)]  # type: ignore[attr-defined]  # Django's, not in its stubs
        if not ids:
            raise forms.ValidationError(_("A tournament needs at least one stage."))
        if len(ids) != len(set(ids)):
            raise forms.ValidationError(_("Two stages have the same id."))


StageFormSet = forms.formset_factory(StageForm, formset=BaseStageFormSet, extra=1, can_delete=True)


def preset_stages(ruleset_id: str) -> list[dict[str, Any]]:
    """The stages the preset proposes: qualifying, semifinal and final with the ruleset's format."""
    ruleset = get_ruleset(ruleset_id)()
    stages = []
    for kind in (StageKind.QUALIFYING, StageKind.SEMIFINAL, StageKind.FINAL):
        fmt = ruleset.stage_format(kind)
        stages.append({
            "ext_id": kind.value,
            "name": "",
            "kind": kind.value,
            "rounds": fmt.rounds,
            "seating": ", ".join(fmt.seating_for(n).value for n in range(1, fmt.rounds + 1)),
            "advance_kind": fmt.advance[0] if fmt.advance else "",
            "advance_count": fmt.advance[1] if fmt.advance else None,
            "reset": fmt.reset,
            "multiplier": float(fmt.multiplier),
        })
    return stages


SEATING_VALUES = tuple(m.value for m in SeatingMethod)
