"""The teams page's form putting ticked participants in a team (or out of their team)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy

from ..models import Participant, ParticipantStatus, Team, Tournament


class TeamMembersForm(forms.Form):
    team = forms.ModelChoiceField(label=gettext_lazy("team"), queryset=Team.objects.none(), required=False,
                                  empty_label=gettext_lazy("— no team (take out of their team) —"))
    participants = forms.ModelMultipleChoiceField(
        label=gettext_lazy("participants"), queryset=Participant.objects.none(), widget=forms.CheckboxSelectMultiple,
        error_messages={"required": gettext_lazy("Tick at least one participant."),
                        "invalid_choice": gettext_lazy("Choose participants of this tournament.")})

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        team = self.fields["team"]
        assert isinstance(team, forms.ModelChoiceField)
        team.queryset = tournament.teams.all()
        members = self.fields["participants"]
        assert isinstance(members, forms.ModelMultipleChoiceField)
        members.queryset = (tournament.participants.exclude(status=ParticipantStatus.REJECTED)
                            .select_related("player", "team").order_by("number", "pk"))
        members.label_from_instance = self.label  # type: ignore[method-assign, assignment]  # a plain function, not a method

    @staticmethod
    def label(participant: Participant) -> str:
        team = f" · {participant.team.name}" if participant.team else ""
        return f"{participant.number or '–'}. {participant.player.full_name}{team}"
