"""Creating a tournament from a ruleset preset: details, typed parameters, the stage format."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.model import SeatingMethod, StageKind
from scoring.rulesets import get_ruleset

from ..labels import SeatingMethod as SeatingChoice
from ..models import AdvanceKind, Tournament, TournamentLevel
from ..models import StageKind as StageKindChoice

MOMENT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def check_period(form: forms.BaseForm, data: dict[str, Any]) -> None:
    opens, closes = data.get("applications_open"), data.get("applications_close")
    if opens and closes and closes < opens:
        form.add_error("applications_close", _("Applications cannot close before they open."))


def keep_level(form: forms.ModelForm) -> None:  # type: ignore[type-arg]
    """A form sent without the level (an older page, a script) keeps the tournament's: "open" for a new one."""
    field = form.fields["level"]
    field.required = False
    assert isinstance(field, forms.TypedChoiceField)
    field.empty_value = form.instance.level or "open"
    field.choices = TournamentLevel.choices  # no empty choice: the select always shows a level


class TournamentForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Tournament
        fields = ["name", "slug", "ruleset", "city", "venue", "starts", "ends", "standings_hidden",
                  "participant_cap", "applications_open", "applications_close", "rated", "level"]
        widgets = {
            "starts": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ruleset": forms.HiddenInput,
            "applications_open": MOMENT,
            "applications_close": MOMENT,
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep_level(self)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", _("The tournament cannot end before it starts."))
        check_period(self, data)
        return data


class SettingsForm(forms.ModelForm):  # type: ignore[type-arg]
    """The organizer's procedure settings of a running tournament: protests, the participant cap, the
    application period, whether its games count for the rating and its level. Protests left as the regulation
    says stay so (``None``)."""

    protests_enabled = forms.NullBooleanField(label=gettext_lazy("protests"), required=False,
                                              widget=forms.NullBooleanSelect)

    class Meta:
        model = Tournament
        fields = ["protests_enabled", "participant_cap", "applications_open", "applications_close", "rated", "level"]
        widgets = {"applications_open": MOMENT, "applications_close": MOMENT}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        keep_level(self)
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
