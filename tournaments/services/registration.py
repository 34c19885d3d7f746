"""Registration rules per regulation: caps with guests beyond (tomsk), age limits and the
application workflow with accept/reject (kostroma). Errors name the field they are about."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from ..errors import UserError
from ..models import Participant, ParticipantStatus, Player, Team, Tournament
from ..rules import ruleset_for, uses_applications


class RegistrationError(UserError):
    """A registration the rules refuse; ``field`` names the form field the message belongs to."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def age_problem(tournament: Tournament, birth_date: dt.date | None) -> str | None:
    """Why the ruleset's age limits refuse this player, or None."""
    ruleset = ruleset_for(tournament)
    if ruleset.min_age is None and ruleset.max_age is None:
        return None
    if birth_date is None:
        return _("The regulation limits ages, so the birth date is required.")
    age = age_on(birth_date, tournament.starts or dt.date.today())
    if ruleset.min_age is not None and age < ruleset.min_age:
        return _("Aged %(age)s on the first day; the regulation admits players from %(min)s.") % {
            "age": age, "min": ruleset.min_age}
    if ruleset.max_age is not None and age > ruleset.max_age:
        return _("Aged %(age)s on the first day; the regulation admits players up to %(max)s.") % {
            "age": age, "max": ruleset.max_age}
    return None


@dataclass(frozen=True)
class Outcome:
    participant: Participant
    made_guest: bool


def over_cap(tournament: Tournament) -> bool:
    cap = ruleset_for(tournament).registration_cap
    if cap is None:
        return False
    ranked = tournament.participants.filter(status=ParticipantStatus.ACCEPTED, guest=False).count()
    return ranked >= cap


def _next_number(tournament: Tournament) -> int:
    return (tournament.participants.aggregate(n=Max("number"))["n"] or 0) + 1


def _free_ext_id(tournament: Tournament, number: int) -> str:
    taken = set(tournament.participants.values_list("ext_id", flat=True))
    ext_id, n = f"p{number:03d}", number
    while ext_id in taken:
        n += 1
        ext_id = f"p{n:03d}"
    return ext_id


@transaction.atomic
def register(tournament: Tournament, player: Player, *, team: Team | None = None, guest: bool = False) -> Outcome:
    """Add ``player`` to ``tournament``: accepted, or an application where the regulation asks for one.
    Beyond the regulation's cap a player is registered as a guest."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.participants.filter(player=player).exists():
        raise RegistrationError(None, _("%(name)s is registered already.") % {"name": player.full_name})
    problem = age_problem(tournament, player.birth_date)
    if problem:
        raise RegistrationError("birth_date", problem)
    if team is not None and team.tournament_id != tournament.pk:
        raise RegistrationError("team", _("The team belongs to another tournament."))
    status = ParticipantStatus.APPLIED if uses_applications(tournament) else ParticipantStatus.ACCEPTED
    made_guest = False
    if status == ParticipantStatus.ACCEPTED and not guest and over_cap(tournament):
        guest = made_guest = True
    number = _next_number(tournament)
    participant = Participant.objects.create(
        tournament=tournament, player=player, number=number, ext_id=_free_ext_id(tournament, number),
        team=team, guest=guest, status=status,
    )
    return Outcome(participant, made_guest)


def locked(participant: Participant) -> Participant:
    Tournament.objects.select_for_update().get(pk=participant.tournament_id)
    return Participant.objects.select_for_update().select_related("player", "tournament").get(pk=participant.pk)


@transaction.atomic
def accept(participant: Participant) -> Outcome:
    participant = locked(participant)
    if participant.status != ParticipantStatus.APPLIED:
        raise RegistrationError(None, _("Only a waiting application can be accepted."))
    problem = age_problem(participant.tournament, participant.player.birth_date)
    if problem:
        raise RegistrationError("birth_date", problem)
    made_guest = not participant.guest and over_cap(participant.tournament)
    participant.guest = participant.guest or made_guest
    participant.status = ParticipantStatus.ACCEPTED
    participant.save(update_fields=["status", "guest"])
    return Outcome(participant, made_guest)


@transaction.atomic
def reject(participant: Participant) -> Participant:
    participant = locked(participant)
    if participant.status != ParticipantStatus.APPLIED:
        raise RegistrationError(None, _("Only a waiting application can be rejected."))
    participant.status = ParticipantStatus.REJECTED
    participant.save(update_fields=["status"])
    return participant
