"""Creating a tournament from a ruleset preset: details, typed parameters, the stage format."""

from __future__ import annotations

import datetime as dt
import hashlib
from fractions import Fraction
from typing import Any

from django import forms
from django.http import QueryDict
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.model import SeatingMethod
from scoring.rulesets import get_ruleset

from ..labels import SEATING_METHODS, local_number
from ..labels import SeatingMethod as SeatingChoice
from ..models import AdvanceKind, Tournament, TournamentLevel
from ..models import StageKind as StageKindChoice

# The tournament's details on the settings form: editable after creation.
DETAILS = ("name", "city", "venue", "starts", "ends")
MOMENT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def check_period(form: forms.BaseForm, data: dict[str, Any]) -> None:
    opens, closes = data.get("applications_open"), data.get("applications_close")
    if opens and closes and closes < opens:
        form.add_error("applications_close", _("Applications cannot close before they open."))


def keep_level(form: forms.ModelForm[Tournament]) -> None:
    """A form sent without the level (an older page, a script) keeps the tournament's: "open" for a new one."""
    field = form.fields["level"]
    field.required = False
    assert isinstance(field, forms.TypedChoiceField)
    field.empty_value = form.instance.level or "open"
    field.choices = TournamentLevel.choices  # no empty choice: the select always shows a level


class TournamentForm(forms.ModelForm[Tournament]):
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


class SettingsForm(forms.ModelForm[Tournament]):
    """The organizer's settings of a running tournament: its name, city, venue and dates (a typo or a day moved
    is mended here, not only by an administrator), protests, the participant cap, the application period, whether
    its games count for the rating and its level. Protests left as the regulation says stay so (``None``).
    ``seen``: the settings as the page showed them (``settings_seen``), so that a change saved meanwhile by
    another organizer is never overwritten (the view refuses the post)."""

    protests_enabled = forms.NullBooleanField(label=gettext_lazy("protests"), required=False,
                                              widget=forms.NullBooleanSelect)
    seen = forms.CharField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Tournament
        fields = ["name", "city", "venue", "starts", "ends", "protests_enabled", "participant_cap",
                  "applications_open", "applications_close", "rated", "level"]
        widgets = {"applications_open": MOMENT, "applications_close": MOMENT,
                   "starts": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                   "ends": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # ids of their own: the participants page also holds the registration form, whose city is «id_city» too
        kwargs.setdefault("auto_id", "id_settings_%s")
        super().__init__(*args, **kwargs)
        keep_level(self)
        self.fields["seen"].initial = settings_seen(self.instance)
        left_out = [name for name in DETAILS if self.is_bound and name not in self.data]
        if left_out:  # a post of the other settings alone (a script, an older page) keeps the details as they are
            data = QueryDict(mutable=True)
            data.update(self.data)
            for name in left_out:
                value = getattr(self.instance, name)
                data[name] = value.isoformat() if hasattr(value, "isoformat") else (value or "")
            self.data = data
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
        starts, ends = data.get("starts"), data.get("ends")
        if starts and ends and ends < starts:
            self.add_error("ends", _("The tournament cannot end before it starts."))
        check_period(self, data)
        cap = data.get("participant_cap")
        if cap is not None:
            accepted = self.instance.participants.filter(status="accepted").count()
            if cap < accepted:
                self.add_error("participant_cap", _(
                    "%(n)s participants are accepted already; the cap cannot be lower.") % {"n": accepted})
        return data



def settings_seen(tournament: Tournament) -> str:
    """The settings' values as a page shows them, in one short text: another organizer's change since makes
    another text."""
    values = [str(getattr(tournament, name)) for name in SettingsForm.Meta.fields]
    return hashlib.sha1("\x1f".join(values).encode()).hexdigest()[:16]

def kept_after_conflict(form_class: type[SettingsForm], posted: QueryDict, current: Tournament) -> SettingsForm:
    """The settings form as the organizer typed it, over the settings saved meanwhile: their values stay in the
    form (nothing typed is lost), and its ``seen`` is now's, so that a second save, made knowing, is taken."""
    data = posted.copy()
    data["seen"] = settings_seen(current)
    return form_class(data, instance=current)


def saved_meanwhile(form: SettingsForm, current: Tournament) -> list[str]:
    """The settings saved meanwhile that differ from what the organizer typed, in words: «Город: Томск»."""
    stored = {name: getattr(current, name) for name in SettingsForm.Meta.fields}  # validation writes to the instance
    form.is_valid()
    typed = form.cleaned_data if hasattr(form, "cleaned_data") else {}
    said = []
    for name, value in stored.items():
        if name not in form.fields or typed.get(name) == value:
            continue
        field = form.fields[name]
        if value in (None, ""):
            shown = "—"
        elif isinstance(value, bool):
            shown = _("yes") if value else _("no")
        elif isinstance(value, dt.datetime):
            shown = date_format(timezone.localtime(value), "DATETIME_FORMAT")
        elif isinstance(value, dt.date):
            shown = date_format(value, "DATE_FORMAT")
        else:
            shown = str(dict(getattr(field, "choices", ())).get(value, value))
        said.append(f"{capfirst(field.label)}: {shown}")
    return said


SEGMENTS = 3  # a method for the first rounds, then up to two others from a round on (fiim: 1–4, then 5–7)


class SeatingPlanWidget(forms.MultiWidget):
    """The seating per round as the organizer chooses it: a method from a list, then "from round N" another one,
    twice; posted as ``NAME_0`` … ``NAME_4``. A script's comma-separated ``NAME`` (method ids) is read too."""

    template_name = "tournaments/widgets/seating_plan.html"

    def __init__(self) -> None:
        select = {"class": "form-select form-select-sm"}
        number = {"class": "form-control form-control-sm seating-from", "inputmode": "numeric", "min": "2"}
        widgets: list[forms.Widget] = [forms.Select(attrs=select)]
        for _segment in range(SEGMENTS - 1):
            widgets += [forms.NumberInput(attrs=number), forms.Select(attrs=select)]
        super().__init__(widgets)

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        choices = [("", "—"), *((m.value, str(SEATING_METHODS[m])) for m in SeatingChoice)]
        for index, widget in enumerate(self.widgets):
            if isinstance(widget, forms.Select):
                widget.choices = choices
                widget.attrs["aria-label"] = (_("seating of the first rounds") if index == 0
                                              else _("seating from that round on"))
            else:
                widget.attrs["aria-label"] = _("from round")
        context = super().get_context(name, value, attrs)
        subwidgets = context["widget"]["subwidgets"]
        context["widget"]["first"] = subwidgets[0]
        context["widget"]["then"] = [subwidgets[i:i + 2] for i in range(1, len(subwidgets), 2)]
        context["widget"]["from_round"] = _("from round")
        return dict(context)

    def decompress(self, value: Any) -> list[Any]:
        methods = [m.strip() for m in value.split(",")] if isinstance(value, str) else list(value or [])
        runs: list[tuple[int, str]] = []  # (the first round, the method)
        for number, method in enumerate(methods, start=1):
            if not runs or runs[-1][1] != method:
                runs.append((number, method))
        runs = runs[:SEGMENTS]
        out: list[Any] = [runs[0][1] if runs else ""]
        for start, method in runs[1:]:
            out += [start, method]
        return out + ["", ""] * (SEGMENTS - len(runs or [None]))

    def value_from_datadict(self, data: Any, files: Any, name: str) -> Any:
        if name in data:  # a script's text: ids, comma-separated
            return data[name]
        return super().value_from_datadict(data, files, name)

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return name not in data and super().value_omitted_from_data(data, files, name)


class SeatingPlanField(forms.Field):
    """A method per round (the last one repeats): from the widget's segments, or a script's comma-separated ids."""

    widget = SeatingPlanWidget

    def to_python(self, value: Any) -> list[str] | None:
        if isinstance(value, str):
            methods = [m.strip() for m in value.split(",") if m.strip()]
            bad = [m for m in methods if m not in SeatingChoice.values]
            if bad:
                raise forms.ValidationError(
                    _("Unknown seating method %(bad)s; use %(known)s.")
                    % {"bad": ", ".join(bad), "known": ", ".join(SeatingChoice.values)})
            return methods or None
        parts = [str(item or "").strip() for item in (value or [])]
        parts += [""] * (2 * SEGMENTS - 1 - len(parts))
        if not any(parts):
            return None
        first = parts[0]
        if first not in SeatingChoice.values:
            raise forms.ValidationError(_("Choose the seating of the first rounds."))
        methods, last_start = [first], 1
        for index in range(1, 2 * SEGMENTS - 1, 2):
            start_text, method = parts[index], parts[index + 1]
            if not method and not start_text:
                continue
            if method not in SeatingChoice.values:
                raise forms.ValidationError(_("Choose the method that applies from round %(n)s.")
                                            % {"n": start_text or "…"})
            try:
                start = int(start_text)
            except ValueError:
                raise forms.ValidationError(_("Give the round from which %(method)s applies.")
                                            % {"method": SEATING_METHODS[SeatingChoice(method)]}) from None
            if start <= last_start:
                raise forms.ValidationError(_("Round %(n)s: each method starts after the one before it (round "
                                              "%(after)s or later).") % {"n": start, "after": last_start + 1})
            methods += [methods[-1]] * (start - len(methods) - 1) + [method]
            last_start = start
        return methods

    def has_changed(self, initial: Any, data: Any) -> bool:
        try:
            now = self.to_python(data)
        except forms.ValidationError:
            return True
        before = self.to_python(initial if isinstance(initial, str) else ",".join(initial or []))
        return (now or []) != (before or [])


class StageForm(forms.Form):
    ext_id = forms.SlugField(label=gettext_lazy("id"), max_length=64)
    name = forms.CharField(label=gettext_lazy("name"), max_length=100, required=False)
    # The initial kind is the first choice, what a browser sends for the untouched empty row: that row is
    # then unchanged and skipped instead of failing on its required fields.
    kind = forms.ChoiceField(label=gettext_lazy("kind"), choices=StageKindChoice.choices,
                             initial=StageKindChoice.QUALIFYING)
    rounds = forms.IntegerField(label=gettext_lazy("rounds"), min_value=1, max_value=50)
    seating = SeatingPlanField(
        label=gettext_lazy("seating per round"),
        help_text=gettext_lazy("A method for the first rounds; another from a round on, if any; the last one "
                               "chosen goes on to the stage's end."),
    )
    advance_kind = forms.ChoiceField(
        label=gettext_lazy("who advances"), choices=[("", "—"), *AdvanceKind.choices], required=False
    )
    advance_count = forms.IntegerField(label=gettext_lazy("how many"), min_value=0, required=False)
    reset = forms.BooleanField(label=gettext_lazy("starts from zero"), required=False)
    # localized: 1,5 in Russian as typed and as proposed (a preset's 1.0 read as a raw value)
    multiplier = forms.DecimalField(label=gettext_lazy("multiplier"), min_value=0.0001, decimal_places=4,
                                    localize=True)

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
    """The stages the preset proposes: the regulation's own (qualifying, semifinal and final; kostroma has no
    semifinal), each with the regulation's format."""
    ruleset = get_ruleset(ruleset_id)()
    stages = []
    for kind in ruleset.stage_kinds:
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
            "multiplier": local_number(Fraction(fmt.multiplier)),
        })
    return stages


SEATING_VALUES = tuple(m.value for m in SeatingMethod)
