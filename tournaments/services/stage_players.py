"""Who plays in a stage."""

from __future__ import annotations

from tournaments.models import Participant, ParticipantStatus, Stage


def stage_players(stage: Stage) -> list[Participant]:
    """The stage's fixed list (closing the previous stage fills it), or every accepted participant."""
    if stage.players_listed:
        return [e.participant for e in stage.entries.select_related("participant__player").order_by("position")]
    accepted = stage.tournament.participants.filter(status=ParticipantStatus.ACCEPTED)
    return list(accepted.select_related("player").order_by("number", "id"))
