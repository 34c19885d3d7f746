"""Adding players (one by one or a whole checked list, all or nothing), correcting and removing them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Participant, ParticipantStatus, Player, StagePlayer, Team, Tournament
from ..rules import team_size_limit, uses_applications
from . import registration
from .registration import Outcome, register
from .teams import made_team


@transaction.atomic
def add_player(tournament: Tournament, data: dict[str, Any], *, team: Team | None = None,
               guest: bool = False, existing: Player | None = None) -> Outcome:
    """Register a new registry entry made of ``data``, or the ``existing`` player the organizer recognised
    (services/registry.py), whose empty details are filled from ``data``; a refusal rolls it all back."""
    if existing is None:
        player = Player.objects.create(**data)
    else:
        player = Player.objects.select_for_update().get(pk=existing.pk)
        if Participant.objects.filter(tournament=tournament, player=player).exists():
            raise registration.RegistrationError(None, already_registered(tournament, player))
        blank = {name: value for name, value in data.items() if value and not getattr(player, name)}
        if blank:
            for name, value in blank.items():
                setattr(player, name, value)
            player.save()
    return register(tournament, player, team=team, guest=guest)


def already_registered(tournament: Tournament, player: Player) -> str:
    """The refusal naming a player who is a participant of ``tournament`` already, with their number."""
    number = Participant.objects.filter(tournament=tournament, player=player).values_list("number", flat=True) \
        .first()
    return _("%(name)s is registered in this tournament already (number %(number)s).") % {
        "name": player.display_name, "number": number or "–"}


@transaction.atomic
def add_players(tournament: Tournament, rows: Sequence[tuple[dict[str, Any], Team | str | None]],
                existing: Sequence[Player | None] = ()) -> list[Outcome]:
    """Every row or none: the first refusal rolls back the whole list. A team given by name is the tournament's
    team of that name, made if it has none; no team grows past the regulation's size, and the list does not take
    the tournament past its cap. ``existing[i]``, when given, is the registry's player row ``i`` is (the
    organizer said so on the preview)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not uses_applications(tournament):  # applications are counted when they are accepted
        problem = registration.cap_problem(tournament, len(rows))
        if problem:
            raise registration.RegistrationError(None, problem)
    made: dict[str, Team] = {}
    outcomes = []
    chosen = list(existing) + [None] * (len(rows) - len(existing))
    for (data, team), player in zip(rows, chosen, strict=True):
        if isinstance(team, str):
            if team not in made:
                made[team] = made_team(tournament, team)
            team = made[team]
        outcomes.append(add_player(tournament, data, team=team, existing=player))
    limit = team_size_limit(tournament)
    if limit is not None:
        for team in tournament.teams.all():
            if team.members.count() > limit:
                raise registration.RegistrationError("team", _(
                    "%(team)s would have more than %(limit)s players, the most this regulation allows.")
                    % {"team": team.name, "limit": limit})
    return outcomes


@transaction.atomic
def update_participant(participant: Participant, data: dict[str, Any], *, team: Team | None,
                       guest: bool) -> Participant:
    """Correct the player's details and the participant's team and guest mark, under the rules."""
    participant = registration.locked(participant)
    tournament = participant.tournament
    if team is not None and team.tournament_id != tournament.pk:
        raise registration.RegistrationError("team", _("The team belongs to another tournament."))
    limit = team_size_limit(tournament)
    if team is not None and team.pk != participant.team_id and limit is not None \
            and team.members.count() >= limit:
        raise registration.RegistrationError("team", _("%(team)s has %(limit)s players already, the most this "
                                                       "regulation allows.") % {"team": team.name, "limit": limit})
    problem = registration.age_problem(tournament, data.get("birth_date"))
    if problem:
        raise registration.RegistrationError("birth_date", problem)
    problem = registration.city_problem(tournament, data.get("city", participant.player.city))
    if problem:
        raise registration.RegistrationError("city", problem)
    if participant.guest and not guest and participant.status == ParticipantStatus.ACCEPTED \
            and registration.over_cap(tournament):
        raise registration.RegistrationError("guest", _("The cap of ranked players is reached; the player stays a "
                                                        "guest."))
    player = participant.player
    for name, value in data.items():
        setattr(player, name, value)
    player.full_clean()
    problem = registration.judge_problem(tournament, player)
    if problem:
        raise registration.RegistrationError("user", problem)
    player.save()
    participant.team, participant.guest = team, guest
    participant.save(update_fields=["team", "guest"])
    return participant


@transaction.atomic
def remove_participant(participant: Participant) -> None:
    """Take a participant off the tournament; refused once they appear in a round or a stage's list
    (mark an absence instead). The player stays in the registry."""
    participant = registration.locked(participant)
    used = (participant.seats.exists() or participant.byes.exists() or participant.absences.exists()
            or participant.penalties.exists() or StagePlayer.objects.filter(participant=participant).exists())
    if used:
        raise registration.RegistrationError(None, _(
            "%(name)s is in the rounds or a stage of this tournament and cannot be removed; mark an absence "
            "instead.") % {"name": participant.player.full_name})
    participant.delete()
