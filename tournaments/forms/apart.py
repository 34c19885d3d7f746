"""The form of a pair kept apart: two participants of the tournament."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from ..models import Participant, ParticipantStatus, Tournament


def participant_label(participant: Participant) -> str:
    return f"{participant.number or '–'}. {participant.player.display_name}"


class KeepApartForm(forms.Form):
    first = forms.ModelChoiceField(label=gettext_lazy("player"), queryset=Participant.objects.none())
    second = forms.ModelChoiceField(label=gettext_lazy("kept apart from"), queryset=Participant.objects.none())

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        queryset = (tournament.participants.exclude(status=ParticipantStatus.REJECTED)
                    .select_related("player").order_by("number", "pk"))
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, forms.ModelChoiceField)
            field.queryset = queryset
            field.label_from_instance = participant_label  # type: ignore[method-assign, assignment]  # a plain function
            field.error_messages["invalid_choice"] = gettext_lazy("Choose a participant of this tournament.")
