"""Registration rules per regulation: caps with guests beyond (tomsk), the tournament's hard cap on its
participants (fiim proposes 70), age limits, the city of residence, the application period and the
application workflow with accept/reject, one by one or several at once (kostroma), and that a judge of a
tournament is not its participant (kostroma 3.1, every ruleset). Errors name the field or the person they
are about; a refusal changes nothing."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ..errors import UserError
from ..models import Participant, ParticipantStatus, Player, Team, Tournament
from ..rules import ruleset_for, uses_applications

if TYPE_CHECKING:
    from base.users import User


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
    first_day = tournament.starts or dt.date.today()
    if birth_date > first_day:  # a typo of the year, not an age («−4 лет»)
        return _("The birth date is after the tournament's first day: check the year.")
    age = age_on(birth_date, first_day)
    if ruleset.min_age is not None and age < ruleset.min_age:
        return ngettext("Aged %(age)s on the first day; the regulation admits players from %(min)s.",
                        "Aged %(age)s on the first day; the regulation admits players from %(min)s.", age) % {
            "age": age, "min": ruleset.min_age}
    if ruleset.max_age is not None and age > ruleset.max_age:
        return ngettext("Aged %(age)s on the first day; the regulation admits players up to %(max)s.",
                        "Aged %(age)s on the first day; the regulation admits players up to %(max)s.", age) % {
            "age": age, "max": ruleset.max_age}
    return None


def same_city(a: str, b: str) -> bool:
    def key(city: str) -> str:
        return " ".join(city.replace("ё", "е").replace("Ё", "Е").casefold().split())
    return key(a) == key(b)


def city_problem(tournament: Tournament, city: str, *, yourself: bool = False) -> str | None:
    """Why the regulation's residence rule refuses a player of ``city`` (kostroma 2.1), or None; ``yourself``: said
    to the player registering (the public form), not to the organizer."""
    if not ruleset_for(tournament).residents_only:
        return None
    if not city.strip():
        return _("The regulation admits residents of the city only, so the city of residence is required.")
    if tournament.city and not same_city(city, tournament.city):
        if yourself:
            return _("The regulation admits residents of %(city)s only; you wrote %(given)s.") % {
                "city": tournament.city, "given": city.strip()}
        return _("The regulation admits residents of %(city)s only; the player lives in %(given)s.") % {
            "city": tournament.city, "given": city.strip()}
    return None


def living_elsewhere(tournament: Tournament) -> list[str]:
    """The accepted players whose city the regulation's residence rule refuses now (the tournament's city changed
    after they were accepted), by name; none where the regulation admits everyone."""
    if not ruleset_for(tournament).residents_only or not tournament.city:
        return []
    rows = tournament.participants.filter(status=ParticipantStatus.ACCEPTED).select_related("player")
    return [p.player.full_name for p in rows.order_by("number") if not same_city(p.player.city, tournament.city)]


def period_problem(tournament: Tournament, now: dt.datetime) -> str | None:
    """Why an application made ``now`` is outside the tournament's application period, or None."""
    opens, closes = tournament.applications_open, tournament.applications_close
    if opens is not None and now < opens:
        return _("Applications open on %(when)s.") % {"when": moment(opens)}
    if closes is not None and now > closes:
        return _("Applications closed on %(when)s.") % {"when": moment(closes)}
    return None


def moment(when: dt.datetime) -> str:
    return date_format(timezone.localtime(when), "DATETIME_FORMAT")


def judge_problem(tournament: Tournament, player: Player) -> str | None:
    """Why ``player`` cannot take part: they are a judge of the tournament (the same user account)."""
    # The judges are games' rows, read through the user's reverse relation (no import upwards).
    if player.user is None or not player.user.judging.filter(tournament=tournament).exists():
        return None
    return _("%(name)s is a judge of this tournament and cannot also be its participant (a member of the "
             "judging commission does not play).") % {"name": player.full_name}


def accepted_count(tournament: Tournament) -> int:
    return tournament.participants.filter(status=ParticipantStatus.ACCEPTED).count()


def cap_problem(tournament: Tournament, adding: int) -> str | None:
    """Why accepting ``adding`` more participants goes past the tournament's cap, or None."""
    cap = tournament.participant_cap
    if cap is None or adding <= 0:
        return None
    total = accepted_count(tournament) + adding
    if total <= cap:
        return None
    text = ngettext("The tournament takes at most %(cap)s participant; this would make %(total)s, %(over)s over.",
                    "The tournament takes at most %(cap)s participants; this would make %(total)s, %(over)s over.",
                    cap) % {"cap": cap, "total": total, "over": total - cap}
    ruleset = ruleset_for(tournament)
    if ruleset.participant_cap == cap:  # the regulation's own number (fiim: a cap, docs/rules/fiim.md "Format")
        size = ruleset.params.table_size
        text += " " + _("The regulation: %(cap)s take part, %(tables)s tables of %(size)s; it has no guests and no "
                        "byes.") % {"cap": cap, "tables": cap // size, "size": size}
    return text


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
    problem = city_problem(tournament, player.city)
    if problem:
        raise RegistrationError("city", problem)
    problem = judge_problem(tournament, player)
    if problem:
        raise RegistrationError(None, problem)
    if team is not None and team.tournament_id != tournament.pk:
        raise RegistrationError("team", _("The team belongs to another tournament."))
    status = ParticipantStatus.APPLIED if uses_applications(tournament) else ParticipantStatus.ACCEPTED
    if status == ParticipantStatus.APPLIED:
        problem = period_problem(tournament, timezone.now())
        if problem:
            raise RegistrationError(None, problem)
    # The cap counts accepted participants: an application past it waits (a waiting list, as organizers keep
    # one for withdrawals) and its acceptance is what the cap refuses.
    problem = cap_problem(tournament, 1) if status == ParticipantStatus.ACCEPTED else None
    if problem:
        raise RegistrationError(None, problem)
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
def accept(participant: Participant, by: User | None = None) -> Outcome:
    """Accepts a waiting application; the participant's history records ``by``."""
    participant = locked(participant)
    name = participant.player.full_name
    if participant.status != ParticipantStatus.APPLIED:
        raise RegistrationError(None, _("Only a waiting application can be accepted (%(name)s).") % {"name": name})
    tournament = participant.tournament
    for field, problem in (("birth_date", age_problem(tournament, participant.player.birth_date)),
                           ("city", city_problem(tournament, participant.player.city)),
                           (None, judge_problem(tournament, participant.player)),
                           (None, cap_problem(tournament, 1))):
        if problem:
            raise RegistrationError(field, f"{name}: {problem}" if field else problem)
    made_guest = not participant.guest and over_cap(participant.tournament)
    participant.guest = participant.guest or made_guest
    participant.status = ParticipantStatus.ACCEPTED
    participant._history_user = by  # type: ignore[attr-defined]
    participant.save(update_fields=["status", "guest"])
    return Outcome(participant, made_guest)


def moved(participant: Participant, was: ParticipantStatus, becomes: ParticipantStatus, refusal: str,
          by: User | None) -> Participant:
    """The application from ``was`` to ``becomes`` under its lock, or refused with ``refusal`` (``%(name)s``)."""
    participant = locked(participant)
    if participant.status != was:
        raise RegistrationError(None, refusal % {"name": participant.player.full_name})
    participant.status = becomes
    participant._history_user = by  # type: ignore[attr-defined]
    participant.save(update_fields=["status"])
    return participant


@transaction.atomic
def reject(participant: Participant, by: User | None = None) -> Participant:
    return moved(participant, ParticipantStatus.APPLIED, ParticipantStatus.REJECTED,
                 _("Only a waiting application can be rejected (%(name)s)."), by)


@transaction.atomic
def reconsider(participant: Participant, by: User | None = None) -> Participant:
    """A rejected application waits for the organizer again (a rejection by mistake is undone); accepting it then
    checks the rules as for any waiting one."""
    return moved(participant, ParticipantStatus.REJECTED, ParticipantStatus.APPLIED,
                 _("Only a rejected application can be reconsidered (%(name)s)."), by)


@transaction.atomic
def decide_many(tournament: Tournament, ids: list[int], decision: str, by: User | None = None) -> list[Outcome]:
    """Accepts or rejects the waiting applications ``ids`` of ``tournament``, all or none: the first refusal
    rolls back the others, and accepting more than the cap has room for is refused as a whole."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    rows = list(tournament.participants.filter(pk__in=ids).select_related("player").order_by("number", "pk"))
    if not rows:
        raise RegistrationError(None, _("Choose at least one application."))
    if len(rows) != len(set(ids)):
        raise RegistrationError(None, _("Some of the chosen applications are not of this tournament."))
    if decision == "accept":
        problem = cap_problem(tournament, len(rows))
        if problem:
            raise RegistrationError(None, problem)
        return [accept(row, by) for row in rows]
    if decision == "reject":
        return [Outcome(reject(row, by), False) for row in rows]
    raise RegistrationError(None, _("Choose: accept or reject."))
