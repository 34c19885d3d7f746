"""Pairs kept apart when seating: add and remove them (each a guarded change), and the pairs as
the seating engine and its report take them (participants' file ids)."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from ..models import KeepApart, Participant, ParticipantStatus, Tournament
from .registration import RegistrationError


class KeepApartError(RegistrationError):
    """The pair cannot be recorded (``field`` names the form field the message belongs to)."""


@transaction.atomic
def add_pair(tournament: Tournament, first: Participant, second: Participant) -> KeepApart:
    """Record that ``first`` and ``second`` must not share a table; refused for oneself, for a
    participant of another tournament or a rejected application, and for a pair recorded already."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    for field, participant in (("first", first), ("second", second)):
        if participant.tournament_id != tournament.pk:
            raise KeepApartError(field, _("Choose a participant of this tournament."))
        if participant.status == ParticipantStatus.REJECTED:
            raise KeepApartError(field, _("%(name)s's application is rejected.")
                                 % {"name": participant.player.full_name})
    if first.pk == second.pk:
        raise KeepApartError("second", _("Choose two different players: a player cannot be kept apart from "
                                         "themselves."))
    low, high = sorted((first.pk, second.pk))
    if KeepApart.objects.filter(tournament=tournament, first_id=low, second_id=high).exists():
        raise KeepApartError("second", _("%(a)s and %(b)s are kept apart already.")
                             % {"a": first.player.full_name, "b": second.player.full_name})
    return KeepApart.objects.create(tournament=tournament, first_id=low, second_id=high)


@transaction.atomic
def remove_pair(tournament: Tournament, pk: int) -> None:
    deleted, _count = KeepApart.objects.filter(tournament=tournament, pk=pk).delete()
    if not deleted:
        raise KeepApartError(None, _("That pair is not kept apart (removed already?)."))


def pairs(tournament_id: int) -> tuple[tuple[str, str], ...]:
    """The tournament's pairs as the engine takes them: participants' file ids (one query)."""
    return tuple(KeepApart.objects.filter(tournament_id=tournament_id).order_by("pk")
                 .values_list("first__ext_id", "second__ext_id"))
