"""The series' forms: its settings (the points table typed as a list), a tournament to add, weights and order."""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.labels import local_number
from tournaments.models import Tournament
from tournaments.numbers import TypedNumberField

from .labels import tiebreak_choices
from .models import F1_POINTS, Series

CHAIN_LENGTH = 5  # tie-break choices offered; a longer chain would rarely decide anything more
MAX_PLACES = 200


def parse_points(text: str) -> list[str]:
    """"25, 18; 15 12.5 12,5" → ["25", "18", "15", "12.5", "12.5"]: entries separated by spaces, semicolons or a
    comma after a number; a comma between two digits is a decimal comma (as Russian writes 12,5), a point too. Each
    a number from 0 to 9999 with at most two decimals, none more than the one before."""
    entries = [e.rstrip(",") for e in re.split(r"[;\s]+", text.strip())]
    entries = [e for e in entries if e]
    if not entries:
        raise forms.ValidationError(_("Give the points of at least the 1st place."))
    if len(entries) > MAX_PLACES:
        raise forms.ValidationError(_("At most %(n)s places.") % {"n": MAX_PLACES})
    out: list[str] = []
    for index, entry in enumerate(entries, start=1):
        try:
            value = Decimal(entry.replace(",", ".")) if entry.count(",") <= 1 else None
        except InvalidOperation:
            value = None
        if value is None or not value.is_finite() or not 0 <= value < 10_000 or value != round(value, 2):
            raise forms.ValidationError(
                _("Place %(place)s: “%(entry)s” is not a number of points from 0 to 9999 with at most two "
                  "decimals.") % {"place": index, "entry": entry})
        if out and value > Decimal(out[-1]):
            raise forms.ValidationError(
                _("Place %(place)s: %(entry)s is more than the place before (%(before)s).")
                % {"place": index, "entry": entry, "before": local_number(Fraction(Decimal(out[-1])))})
        out.append(format(value.normalize(), "f"))  # "10", never "1E+1"; "12.5", not "12.50"
    return out


def points_text(points: list[str]) -> str:
    """The table as the reader writes it: "25, 18, 12.5" in English, "25; 18; 12,5" in Russian."""
    numbers = [local_number(Fraction(Decimal(p))) for p in points]
    return ("; " if any("," in n for n in numbers) or local_number(Fraction(1, 2)) == "0,5" else ", ").join(numbers)


class SeriesForm(forms.ModelForm[Series]):
    points_text = forms.CharField(label=gettext_lazy("Points per place"), max_length=2000)

    class Meta:
        model = Series
        fields = ["name", "slug", "description", "public", "reference_players", "best_of"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["points_text"].initial = points_text(self.instance.points)
        self.fields["points_text"].help_text = _(
            "The 1st place's points first, then the 2nd's, and so on, separated by spaces, commas or semicolons: "
            "%(example)s. A fraction: %(fraction)s. Places beyond the list get 0.") % {
            "example": points_text(list(F1_POINTS)), "fraction": local_number(Fraction(25, 2))}
        chain = list(self.instance.tiebreaks)
        for n in range(1, CHAIN_LENGTH + 1):
            self.fields[f"tiebreak_{n}"] = forms.ChoiceField(
                label=_("Tie-break %(n)s") % {"n": n}, required=False,
                choices=[("", "—"), *tiebreak_choices()], initial=chain[n - 1] if n <= len(chain) else "")

    def clean_slug(self) -> str:
        slug: str = self.cleaned_data["slug"]
        if slug == "new":  # the address of a new series
            raise forms.ValidationError(_("This short name is reserved; choose another."))
        return slug

    def clean_points_text(self) -> list[str]:
        return parse_points(self.cleaned_data["points_text"])

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chain = [data.get(f"tiebreak_{n}") for n in range(1, CHAIN_LENGTH + 1)]
        chosen = [c for c in chain if c]
        if len(set(chosen)) < len(chosen):
            raise forms.ValidationError(_("A tie-break is chosen twice."))
        data["tiebreaks"] = chosen
        return data

    def save(self, commit: bool = True) -> Series:
        self.instance.points = self.cleaned_data["points_text"]
        self.instance.tiebreaks = self.cleaned_data["tiebreaks"]
        series: Series = super().save(commit=commit)
        return series

    def chain_fields(self) -> list[forms.BoundField]:
        return [self[f"tiebreak_{n}"] for n in range(1, CHAIN_LENGTH + 1)]


class AddTournamentForm(forms.Form):
    tournament = forms.ModelChoiceField(queryset=Tournament.objects.none(),
                                        label=gettext_lazy("Add a tournament you organize"))

    def __init__(self, *args: Any, choices: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = choices if choices is not None else Tournament.objects.none()


class EntryForm(forms.Form):
    weight = TypedNumberField(label=gettext_lazy("Weight"), min_value=Decimal("0.01"), max_value=Decimal(9999),
                              decimal_places=2, widget=forms.TextInput(attrs={
                                  "class": "form-control form-control-sm", "size": 5, "inputmode": "decimal"}))
    order = forms.IntegerField(label=gettext_lazy("Order"), min_value=0, max_value=10_000,
                               widget=forms.NumberInput(attrs={"class": "form-control form-control-sm"}))
