"""Forms of the staff page: add a judge (or the chief judge), assign a judge to a table, take a table
from a judge, remove a judge, and how protocols are confirmed (four-eyes). Each field that comes from
the page is checked here: ids only of this tournament, numbers within bounds (a table number
of 10^30 or a judge id of text answered 500)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Stage, Tournament

from .models import Judge, JudgeAssignment
from .services.staff import participant_problem

MAX_TABLE = 1000  # 10,000 players at ten a table
MAX_ROUND = 1000


class JudgeForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)
    chief = forms.BooleanField(label=_("chief judge"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "username" not in data:
            return data  # the field's own error says what is wrong
        user = get_user_model().objects.filter(username=data["username"]).first()
        if user is None:
            raise forms.ValidationError(_("There is no user with this name."))
        data["user"] = user
        problem = participant_problem(self.tournament, user)
        if problem:
            raise forms.ValidationError(problem)
        existing = Judge.objects.filter(tournament=self.tournament, user=user).first()
        if existing is not None and existing.chief == bool(data.get("chief")):  # nothing would change
            if existing.chief:
                raise forms.ValidationError(_("%(user)s is already the chief judge.") % {"user": user})
            raise forms.ValidationError(_("%(user)s is already a judge of this tournament.") % {"user": user})
        chief = Judge.objects.filter(tournament=self.tournament, chief=True).exclude(user=user).first()
        if data.get("chief") and chief is not None:
            raise forms.ValidationError(_("%(user)s is already the chief judge.") % {"user": chief.user})
        return data


class AssignmentForm(forms.Form):
    judge = forms.ModelChoiceField(label=_("judge"), queryset=Judge.objects.none())
    stage = forms.ModelChoiceField(label=_("stage"), queryset=Stage.objects.none())
    round_number = forms.IntegerField(label=_("round"), min_value=1, max_value=MAX_ROUND, required=False,
                                      help_text=_("empty: every round of the stage"))
    table = forms.IntegerField(label=_("table"), min_value=1, max_value=MAX_TABLE)

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
                self.add_error("round_number", _("The stage has no round %(n)s.") % {"n": number})
                return data
        complete = all(data.get(k) is not None for k in ("judge", "stage", "table"))
        if complete and JudgeAssignment.objects.filter(judge=data["judge"], stage=data["stage"], round=data["round"],
                                                       table=data["table"]).exists():
            raise forms.ValidationError(already_hosts(data["judge"], data["stage"], data["round"], data["table"]))
        return data


def already_hosts(judge: Judge, stage: Stage, round: Round | None, table: int) -> str:
    values = {"judge": judge.user, "table": table, "stage": stage}
    if round is None:
        return str(_("%(judge)s already hosts table %(table)s in every round of %(stage)s.") % values)
    return str(_("%(judge)s already hosts table %(table)s in round %(round)s of %(stage)s.")
               % {**values, "round": round.number})


class RemoveJudgeForm(forms.Form):
    """The judge's id, one of this tournament's judges."""

    judge = forms.ModelChoiceField(queryset=Judge.objects.none())

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["judge"].queryset = tournament.judges.select_related("user")  # type: ignore[attr-defined]


class UnassignForm(forms.Form):
    """The assignment's id, one of this tournament's judges' tables."""

    assignment = forms.ModelChoiceField(queryset=JudgeAssignment.objects.none())

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["assignment"].queryset = JudgeAssignment.objects.filter(  # type: ignore[attr-defined]
            judge__tournament=tournament).select_related("judge__user", "stage", "round")


class ConfirmationForm(forms.Form):
    """How this tournament's protocols are confirmed."""

    four_eyes = forms.BooleanField(
        label=_("four-eyes confirmation"), required=False,
        help_text=_("A protocol is confirmed by someone other than the person who submitted it."))
