"""Forms of the judges page's accounts, links and allocation grid: a judge's new account (a password generated and
shown once, typed, or none: the private link only), a judge's link to give or revoke, and the grid of a round (a
judge per table, every value a judge of this tournament or none)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Table, Tournament

from .models import Judge
from .services.allocation import judge_label


class AccountForm(forms.Form):
    GENERATE, TYPED, LINK_ONLY = "generate", "typed", "link"

    username = forms.RegexField(label=_("user name"), max_length=150, regex=r"^[\w.@+-]+\Z",
                                help_text=_("Letters, digits and @ . + - _ only."))
    name = forms.CharField(label=_("full name"), max_length=150, help_text=_("As printed on the seating sheets."))
    password_mode = forms.ChoiceField(label=_("password"), initial=GENERATE, widget=forms.RadioSelect, choices=[
        (GENERATE, _("generate one and show it once")),
        (TYPED, _("the one typed below")),
        (LINK_ONLY, _("none: the judge signs in by the private link only")),
    ])
    password = forms.CharField(label=_("password typed"), required=False, max_length=128,
                               widget=forms.PasswordInput(render_value=False))
    chief = forms.BooleanField(label=_("chief judge"), required=False)
    link = forms.BooleanField(label=_("give a private link now"), required=False, initial=True)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # ids of its own: the judges page also holds JudgeForm, whose user name and chief would share id_username and
        # id_chief (a duplicate id: the Nu validator's error, a label naming the other form's field)
        kwargs.setdefault("auto_id", "id_account_%s")
        super().__init__(*args, **kwargs)

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if get_user_model().objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("The user name %(name)s is taken.") % {"name": username})
        return username

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("password_mode") == self.TYPED:
            password = data.get("password") or ""
            if not password:
                self.add_error("password", _("Type the password, or choose another option."))
            else:
                try:
                    validate_password(password, get_user_model()(username=data.get("username", "")))
                except forms.ValidationError as error:
                    self.add_error("password", error)
        elif data.get("password_mode") == self.LINK_ONLY and not data.get("link"):
            self.add_error("link", _("A judge with no password needs the private link to sign in."))
        return data


class JudgeIdForm(forms.Form):
    """A judge of this tournament (whose link to give or revoke)."""

    judge = forms.ModelChoiceField(queryset=Judge.objects.none())

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["judge"].queryset = tournament.judges.select_related("user")  # type: ignore[attr-defined]


class JudgeRankForm(JudgeIdForm):
    """A judge's rank for "Allocate" (1 the best), or none."""

    rank = forms.IntegerField(label=_("rank"), min_value=1, max_value=99, required=False)


def table_field(number: int) -> str:
    return f"table_{number}"


class AllocationForm(forms.Form):
    """One select per table of ``round_``: the tournament's judges, or none."""

    def __init__(self, *args: Any, round_: Round, tables: list[Table], judges: list[Judge],
                 initial_judges: dict[int, Judge | None] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.round = round_
        self.tables = tables
        choices = Judge.objects.filter(pk__in=[j.pk for j in judges]).select_related("user")
        for table in tables:
            chosen = (initial_judges or {}).get(table.number)
            field = forms.ModelChoiceField(label=_("table %(n)s") % {"n": table.number}, queryset=choices,
                                           required=False, empty_label="—", initial=chosen.pk if chosen else None,
                                           widget=forms.Select(attrs={"class": "form-select form-select-sm"}))
            field.label_from_instance = judge_label  # type: ignore[method-assign,assignment]
            self.fields[table_field(table.number)] = field

    def chosen(self) -> dict[int, Judge | None]:
        return {t.number: self.cleaned_data.get(table_field(t.number)) for t in self.tables}
