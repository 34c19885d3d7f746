"""Players registering themselves, the waiting list, withdrawals and the private links (docs/players-channel.md).

The regulation's rules are the organizer's registration's own (``tournaments.services.registration``, through
``people.add_player``): tomsk's guests beyond 96 and 18+, kostroma's applications (ages, residency, the
application period; the organizer accepts or rejects), the tournament's cap (fiim's 70). What this adds: the form's
opening times, a duplicate refused, and a waiting list when the cap is reached, promoted in order when someone
withdraws (each promotion records when, and whose withdrawal made room). Every change is one transaction under
the tournament's row lock, so two registrations racing for the last place never both get it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Participant, Player, RoundState, Tournament, normal_key
from tournaments.rules import uses_applications
from tournaments.services import merging, people, registration, registry

from ..models import Entry, EntryState, SelfRegistration, new_token

if TYPE_CHECKING:
    from base.users import User

# what a player types that the registry keeps (``details`` of an entry)
PLAYER_FIELDS = ("surname", "first_name", "patronymic", "nickname", "club", "city", "phone")


class EntryError(UserError):
    """A registration or withdrawal refused; ``field`` names the form field the message belongs to."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def settings_of(tournament: Tournament) -> SelfRegistration:
    """The tournament's online registration settings (unsaved defaults, closed, when the organizer set none)."""
    found = SelfRegistration.objects.filter(tournament=tournament).first()
    return found if found is not None else SelfRegistration(tournament=tournament)


def closed_problem(tournament: Tournament, now: dt.datetime | None = None) -> str | None:
    """Why the form takes no registration now (the organizer's times), or None when it is open."""
    now = now or timezone.now()
    window = settings_of(tournament)
    if window.opens is None:
        return _("Online registration is not open for this tournament.")
    if now < window.opens:
        return _("Online registration opens on %(when)s.") % {"when": registration.moment(window.opens)}
    if window.closes is not None and now > window.closes:
        return _("Online registration closed on %(when)s.") % {"when": registration.moment(window.closes)}
    if started(tournament):  # a player registered mid-tournament sat out every round so far, unannounced
        return _("The tournament has begun: registration on the site is closed. To join, ask the organizer.")
    # an application outside the regulation's period is refused at the send: the form is not offered either
    return registration.period_problem(tournament, now) if uses_applications(tournament) else None


def closes_at(tournament: Tournament) -> str | None:
    """When the form stops taking registrations, in words: the organizer's closing time, or the application
    period's end where the regulation takes applications and it comes first."""
    ends = [settings_of(tournament).closes, tournament.applications_close if uses_applications(tournament) else None]
    known = [when for when in ends if when is not None]
    return registration.moment(min(known)) if known else None


def cap_reached(tournament: Tournament) -> bool:
    """Whether one more accepted participant would go past the tournament's cap (the registration's own test)."""
    return registration.cap_problem(tournament, 1) is not None


def waiting(tournament: Tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament, state=EntryState.WAITING)
                .order_by("waiting_since", "pk"))


def position(entry: Entry) -> int | None:
    """The entry's place on the waiting list (1 first), or None when it is not waiting."""
    if entry.state != EntryState.WAITING or entry.waiting_since is None:
        return None
    ahead = Entry.objects.filter(tournament_id=entry.tournament_id, state=EntryState.WAITING,
                                 waiting_since__lt=entry.waiting_since).count()
    same = Entry.objects.filter(tournament_id=entry.tournament_id, state=EntryState.WAITING,
                                waiting_since=entry.waiting_since, pk__lt=entry.pk).count()
    return ahead + same + 1


def player_data(details: dict[str, Any]) -> dict[str, Any]:
    data: dict[str, Any] = {name: str(details.get(name) or "").strip() for name in PLAYER_FIELDS}
    birth = details.get("birth_date")
    data["birth_date"] = dt.date.fromisoformat(birth) if isinstance(birth, str) and birth else None
    return data


def details_of(player: Player) -> dict[str, Any]:
    details: dict[str, Any] = {name: getattr(player, name) for name in PLAYER_FIELDS}
    details["birth_date"] = player.birth_date.isoformat() if player.birth_date else None
    return details


@dataclass(frozen=True)
class Contact:
    email: str = ""
    telegram: str = ""
    language: str = "ru"


def duplicate_problem(tournament: Tournament, data: dict[str, Any],
                      contact: Contact) -> tuple[str | None, str] | None:
    """(field, message) when the person typed is in this tournament already (registered or waiting): the same
    name with the same nickname or club (the registry's rule, docs/registry.md), or the same e-mail or Telegram.
    Says nothing of anybody else: only that what was typed is taken."""
    active = Entry.objects.filter(tournament=tournament, state__in=[EntryState.WAITING, EntryState.ENTERED])
    if contact.email and active.filter(email__iexact=contact.email).exists():
        return "email", _("This e-mail is already used by a registration in this tournament.")
    if contact.telegram and active.filter(telegram__iexact=contact.telegram).exists():
        return "telegram", _("This Telegram name is already used by a registration in this tournament.")
    typed = registry.Typed.of(data)
    name = " ".join(part for part in (typed.surname, typed.first_name, typed.patronymic) if part)
    taken = _("%(name)s is already registered in this tournament.") % {"name": name}
    if any(c.registered_here and c.exact for c in registry.match_one(typed, tournament).candidates):
        return None, taken
    for entry in active.filter(state=EntryState.WAITING):
        other = player_data(entry.details)
        if normal_key(" ".join(p for p in (other["surname"], other["first_name"], other["patronymic"]) if p)) \
                == typed.name_key and (normal_key(other["nickname"]) == normal_key(typed.nickname)
                                       or (typed.club and normal_key(other["club"]) == normal_key(typed.club))):
            return None, _("%(name)s is already on the waiting list of this tournament.") % {"name": name}
    return None


def waiting_problem(tournament: Tournament, data: dict[str, Any]) -> tuple[str | None, str] | None:
    """What the regulation would refuse of a person put on the waiting list (checked now, not at promotion):
    the registration's own checks of the age, the city of residence and the application period."""
    for field, problem in (("birth_date", registration.age_problem(tournament, data["birth_date"])),
                           ("city", registration.city_problem(tournament, data["city"]))):
        if problem:
            return field, problem
    if uses_applications(tournament):
        problem = registration.period_problem(tournament, timezone.now())
        if problem:
            return None, problem
    return None


@dataclass(frozen=True)
class Registered:
    entry: Entry
    made_guest: bool = False


@transaction.atomic
def register_self(tournament: Tournament, details: dict[str, Any], contact: Contact) -> Registered:
    """A player's own registration: a participant (or an application) as the organizer's registration makes one,
    or a place on the waiting list when the cap is reached (or others wait already). Nothing is saved when
    refused."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    problem = closed_problem(tournament)
    if problem:
        raise EntryError(None, problem)
    if not contact.email and not contact.telegram:
        raise EntryError("email", _("Give an e-mail or a Telegram name: the organizer tells you your seat there."))
    data = player_data(details)
    duplicate = duplicate_problem(tournament, data, contact)
    if duplicate:
        raise EntryError(*duplicate)
    now = timezone.now()
    fields: dict[str, Any] = {
        "tournament": tournament, "details": {**details_of(Player(**data))}, "self_registered": True,
        "email": contact.email, "telegram": contact.telegram, "language": contact.language, "consent_at": now,
    }
    promote(tournament)  # room made meanwhile (a higher cap) goes to those waiting first
    if cap_reached(tournament) or Entry.objects.filter(tournament=tournament, state=EntryState.WAITING).exists():
        refused = waiting_problem(tournament, data)
        if refused:
            raise EntryError(*refused)
        return Registered(Entry.objects.create(state=EntryState.WAITING, waiting_since=now, **fields))
    try:
        outcome = people.add_player(tournament, data)
    except registration.RegistrationError as error:
        raise EntryError(error.field, error.message) from error
    return Registered(Entry.objects.create(state=EntryState.ENTERED, participant=outcome.participant, **fields),
                      outcome.made_guest)


def promote(tournament: Tournament, after: Entry | None = None) -> list[Entry]:
    """Moves the waiting list up, in order, while the cap has room: each one registered by the organizer's
    registration (an application where the regulation takes applications), with when and after whose withdrawal.
    One the regulation now refuses (the application period over) keeps its place with the reason recorded."""
    promoted: list[Entry] = []
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        for entry in waiting(tournament):
            if cap_reached(tournament):
                break
            try:
                with transaction.atomic():
                    outcome = people.add_player(tournament, player_data(entry.details))
            except registration.RegistrationError as error:
                entry.promotion_problem = error.message
                entry.save(update_fields=["promotion_problem"])
                continue
            entry.participant, entry.state = outcome.participant, EntryState.ENTERED
            entry.promoted_at, entry.promoted_after, entry.promotion_problem = timezone.now(), after, ""
            entry.save(update_fields=["participant", "state", "promoted_at", "promoted_after", "promotion_problem"])
            promoted.append(entry)
    return promoted


def started(tournament: Tournament) -> bool:
    """Whether the tournament has begun for its players: a round is published."""
    return tournament.stages.filter(rounds__state=RoundState.PUBLISHED).exists()


def withdraw_problem(entry: Entry) -> str | None:
    if entry.state == EntryState.WITHDRAWN:
        return _("The registration is withdrawn already.")
    if entry.state == EntryState.ENTERED and started(entry.tournament):
        return _("The tournament has started: only the organizer can take a player off now.")
    return None


@transaction.atomic
def withdraw(entry: Entry, by: User | None = None) -> list[Entry]:
    """Takes the player off before the start (the organizer's removal of a participant, refused once they are in
    a round) or off the waiting list; the place goes to the next ones waiting. Returns those promoted."""
    Tournament.objects.select_for_update().get(pk=entry.tournament_id)
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "participant__player") \
        .get(pk=entry.pk)
    problem = withdraw_problem(entry)
    if problem:
        raise EntryError(None, problem)
    participant = entry.participant
    if participant is not None:
        entry.details = details_of(participant.player)
        try:
            people.remove_participant(participant)
        except registration.RegistrationError as error:
            raise EntryError(None, error.message) from error
    entry.participant, entry.state = None, EntryState.WITHDRAWN
    entry.withdrawn_at, entry.withdrawn_by = timezone.now(), by
    entry.save(update_fields=["participant", "details", "state", "withdrawn_at", "withdrawn_by"])
    return promote(entry.tournament, after=entry)


def ensure_entries(tournament: Tournament) -> None:
    """An entry (a private link) for each participant the organizer registered: made once, in one query."""
    missing = (tournament.participants.filter(entry__isnull=True).select_related("player"))
    Entry.objects.bulk_create([Entry(tournament=tournament, participant=p, details=details_of(p.player),
                                     state=EntryState.ENTERED) for p in missing])


@transaction.atomic
def new_link(entry: Entry) -> Entry:
    """A new private token: the link given before answers 404 from now on."""
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    entry.token, entry.token_issued = new_token(), timezone.now()
    entry.save(update_fields=["token", "token_issued"])
    return entry


def candidates(entries: list[Entry]) -> dict[int, list[registry.Candidate]]:
    """For each entry registered online, the registry's players who may be the same person (docs/registry.md),
    other than its own: shown to the organizer only, who decides. One query for the whole list."""
    rows = [(e, e.participant) for e in entries if e.self_registered and e.participant is not None]
    typed = [registry.Typed(p.player.surname, p.player.first_name, p.player.patronymic, p.player.nickname,
                            p.player.club) for _, p in rows]
    out: dict[int, list[registry.Candidate]] = {}
    for (entry, participant), match in zip(rows, registry.match_many(typed), strict=True):
        own = participant.player_id
        found = [c for c in match.candidates if c.player.pk != own]
        if found:
            out[entry.pk] = found
    return out


@transaction.atomic
def same_person(entry: Entry, player: Player, by: User) -> Participant:
    """The organizer says the player who registered online is ``player`` of the registry: the registry entry
    the form made (used by this tournament only) is merged into ``player`` (the registry's merge, recorded)."""
    entry = Entry.objects.select_for_update(of=("self",)).select_related("participant__player").get(pk=entry.pk)
    participant = entry.participant
    if participant is None or not entry.self_registered:
        raise EntryError(None, _("Only a player registered online is matched here."))
    made = participant.player
    if made.participations.exclude(pk=participant.pk).exists():
        raise EntryError(None, _("%(name)s has played other tournaments: merge them on the registry's page.")
                         % {"name": made.display_name})
    try:
        merging.merge_players(player, made, by=by, reason=_("registered online in %(tournament)s") % {
            "tournament": entry.tournament.name})
    except merging.MergeError as error:
        raise EntryError(None, str(error)) from error
    return Participant.objects.select_related("player").get(pk=participant.pk)
