"""Forms of the staff page: add a judge (or the chief judge), assign a judge to a table."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Stage, Tournament

from .models import Judge


class JudgeForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)
    chief = forms.BooleanField(label=_("chief judge"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        user = get_user_model().objects.filter(username=data.get("username", "")).first()
        if user is None:
            raise forms.ValidationError(_("There is no user with this name."))
        data["user"] = user
        chief = Judge.objects.filter(tournament=self.tournament, chief=True).exclude(user=user).first()
        if data.get("chief") and chief is not None:
            raise forms.ValidationError(_("%(user)s is already the chief judge.") % {"user": chief.user})
        return data


class AssignmentForm(forms.Form):
    judge = forms.ModelChoiceField(label=_("judge"), queryset=Judge.objects.none())
    stage = forms.ModelChoiceField(label=_("stage"), queryset=Stage.objects.none())
    round_number = forms.IntegerField(label=_("round"), min_value=1, required=False,
                                      help_text=_("empty: every round of the stage"))
    table = forms.IntegerField(label=_("table"), min_value=1)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["judge"].queryset = tournament.judges.select_related("user")  # type: ignore[attr-defined]
        self.fields["stage"].queryset = tournament.stages.order_by("order")  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        number = data.pop("round_number", None)
        data["round"] = None
        if number is not None and data.get("stage") is not None:
            data["round"] = Round.objects.filter(stage=data["stage"], number=number).first()
            if data["round"] is None:
                raise forms.ValidationError(_("The stage has no round %(n)s.") % {"n": number})
        return data
