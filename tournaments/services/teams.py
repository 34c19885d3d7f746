"""Putting participants in a team (or out of every team) from the teams page, all or nothing,
under the registration rules: only this tournament's participants and teams, no rejected
application, and at most the regulation's team size (``rules.team_size_limit``)."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..models import Participant, ParticipantStatus, Team, Tournament
from ..rules import team_size_limit
from .registration import RegistrationError


def next_team_id(tournament: Tournament) -> str:
    """The first free id of the form ``t1``, ``t2``, … after the tournament's team count."""
    n = tournament.teams.count() + 1
    while tournament.teams.filter(ext_id=f"t{n}").exists():
        n += 1
    return f"t{n}"


@transaction.atomic
def made_team(tournament: Tournament, name: str) -> Team:
    """The tournament's team of that name, made now if it has none (a participants' list naming it)."""
    found = tournament.teams.filter(name=name).first()
    return found if found is not None else Team.objects.create(tournament=tournament, name=name,
                                                               ext_id=next_team_id(tournament))


@transaction.atomic
def assign_team(tournament: Tournament, team: Team | None, participants: Sequence[Participant]) -> int:
    """Move ``participants`` to ``team`` (``None``: out of their team); returns how many changed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not participants:
        raise RegistrationError("participants", _("Tick at least one participant."))
    if team is not None:
        team = Team.objects.select_for_update().filter(pk=team.pk, tournament=tournament).first()
        if team is None:
            raise RegistrationError("team", _("The team belongs to another tournament."))
    ids = [p.pk for p in participants]
    rows = list(Participant.objects.select_for_update().select_related("player")
                .filter(pk__in=ids, tournament=tournament))
    if len(rows) != len(set(ids)):
        raise RegistrationError("participants", _("Choose participants of this tournament."))
    rejected = [p.player.full_name for p in rows if p.status == ParticipantStatus.REJECTED]
    if rejected and team is not None:
        raise RegistrationError("participants", _("A rejected application cannot join a team: %(names)s.")
                                % {"names": ", ".join(rejected)})
    limit = team_size_limit(tournament)
    if team is not None and limit is not None:
        joining = sum(1 for p in rows if p.team_id != team.pk)
        size = team.members.count() + joining
        if size > limit:
            raise RegistrationError("participants", ngettext(
                "A team of this regulation has at most %(limit)s player; %(team)s would have %(size)s.",
                "A team of this regulation has at most %(limit)s players; %(team)s would have %(size)s.",
                limit) % {"limit": limit, "team": team.name, "size": size})
    changed = [p.pk for p in rows if p.team_id != (team.pk if team else None)]
    Participant.objects.filter(pk__in=changed).update(team=team)
    return len(changed)
