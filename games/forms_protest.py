"""Lodging a protest (seat, text) and deciding it."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import ProtestDecision
from .services.protests import TEXT_MAX


class ProtestForm(forms.Form):
    seat = forms.TypedChoiceField(label=_("seat"), coerce=int)
    text = forms.CharField(label=_("what the protest is about"), max_length=TEXT_MAX,
                           widget=forms.Textarea(attrs={"rows": 3}))

    def __init__(self, *args: Any, seats: dict[int, str], **kwargs: Any) -> None:
        """``seats``: each seat's player's name, in seat order ("3 · Иванов Иван")."""
        super().__init__(*args, **kwargs)
        seat = self.fields["seat"]
        assert isinstance(seat, forms.ChoiceField)
        seat.choices = [(n, f"{n} · {name}" if name else str(n)) for n, name in sorted(seats.items())]


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("decision"), widget=forms.RadioSelect,
        choices=[(ProtestDecision.UPHELD, ProtestDecision.UPHELD.label),
                 (ProtestDecision.REJECTED, ProtestDecision.REJECTED.label)])
    reason = forms.CharField(label=_("reason for the decision"), max_length=TEXT_MAX,
                             widget=forms.Textarea(attrs={"rows": 2}))
