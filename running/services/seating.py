"""Seating a stage's rounds: swap, publish, unpublish, absences (a guarded draft → published).

Planning the seats (the stage's method through ``scoring``) lives in ``planning``; long plans run
as background jobs (``jobs``). The names below are re-exported for callers of this module.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from running.services.planning import generate_next_round, regenerate_round, require_draft
from scoring.seating import METHODS
from tournaments.errors import SeatingError
from tournaments.models import Absence, Bye, Participant, Round, RoundState, Seat, Table
from tournaments.rules import ruleset_for
from tournaments.services.stage_players import stage_players

if TYPE_CHECKING:
    from django.contrib.auth.models import User

__all__ = [
    "SeatingError", "clear_seating", "generate_next_round", "mark_absent", "publish_round", "regenerate_round",
    "stage_players", "swap_seat_and_bye", "swap_seats", "unmark_absent", "unpublish_round",
]


def _lock_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("stage__tournament").get(pk=round_.pk)


def _require_draft(round_: Round) -> None:
    require_draft(round_)


def clear_seating(round_: Round) -> None:
    """Remove a draft's tables, seats and byes (before it is seated again)."""
    round_.seats.all().delete()
    round_.tables.all().delete()
    round_.byes.all().delete()


@transaction.atomic
def swap_seats(round_: Round, first: int, second: int) -> None:
    """Exchange the players of two seats (by Seat pk) of a draft round, at one table or two."""
    round_ = _lock_round(round_)
    _require_draft(round_)
    seats = {s.pk: s for s in round_.seats.select_for_update().filter(pk__in=[first, second])}
    if first == second or len(seats) != 2:
        raise SeatingError(_("Choose two different seats of this round."))
    a, b = seats[first], seats[second]
    pa, pb = a.participant_id, b.participant_id
    Seat.objects.filter(pk__in=[a.pk, b.pk]).delete()
    Seat.objects.bulk_create([
        Seat(table_id=a.table_id, round=round_, number=a.number, participant_id=pb),
        Seat(table_id=b.table_id, round=round_, number=b.number, participant_id=pa),
    ])


@transaction.atomic
def swap_seat_and_bye(round_: Round, seat_pk: int, bye_pk: int) -> None:
    """The seated player goes on a bye and the player on the bye takes the seat (a draft round);
    refused when the regulation's bye limit per tournament would be passed."""
    round_ = _lock_round(round_)
    _require_draft(round_)
    seat = round_.seats.select_for_update().select_related("participant__player").filter(pk=seat_pk).first()
    bye = round_.byes.select_for_update().filter(pk=bye_pk).first()
    if seat is None or bye is None:
        raise SeatingError(_("Choose a seat and a bye of this round."))
    limit = ruleset_for(round_.stage.tournament).params.max_byes
    if limit is not None:
        taken = Bye.objects.filter(round__stage__tournament_id=round_.stage.tournament_id,
                                   participant_id=seat.participant_id).count()
        if taken >= limit:
            raise SeatingError(_("%(name)s has had %(n)s bye(s) in this tournament, the most the regulation "
                                 "allows.") % {"name": seat.participant.player.full_name, "n": taken})
    seated, resting = seat.participant_id, bye.participant_id
    Seat.objects.filter(pk=seat.pk).update(participant_id=resting)
    Bye.objects.filter(pk=bye.pk).update(participant_id=seated)


def seated_by_standings(round_: Round) -> bool:
    """Whether the round's tables follow the standings (a Swiss method: table 1 the leaders)."""
    method = METHODS.get(round_.seating)
    return method is not None and method.swiss


def shuffle_table_numbers(round_: Round) -> None:
    """Gives the round's tables their numbers in a random order (from the system's entropy: nothing to
    reconstruct it from); who sits together and in which seat stays as seated. While the standings are
    hidden, a Swiss round published as seated would tell everyone who leads (table 1)."""
    tables = list(Table.objects.select_for_update().filter(round=round_).order_by("number"))
    numbers = [t.number for t in tables]
    random.SystemRandom().shuffle(numbers)
    offset = max(numbers) + 1  # (round, number) is unique: move them out of the way first
    for table in tables:
        Table.objects.filter(pk=table.pk).update(number=table.number + offset)
    for table, number in zip(tables, numbers, strict=True):
        Table.objects.filter(pk=table.pk).update(number=number)


@transaction.atomic
def publish_round(round_: Round, user: User) -> Round:
    """Publishes a draft; while the standings are hidden, a round seated by the standings gets its table
    numbers in a random order first (``shuffle_table_numbers``)."""
    round_ = _lock_round(round_)
    _require_draft(round_)
    if not round_.tables.exists():
        raise SeatingError(_("The round has no tables to publish."))
    if round_.stage.tournament.standings_hidden and seated_by_standings(round_):
        shuffle_table_numbers(round_)
    round_.state = RoundState.PUBLISHED
    round_.published_at = timezone.now()
    round_.published_by = user
    round_.save(update_fields=["state", "published_at", "published_by"])
    return round_


@transaction.atomic
def unpublish_round(round_: Round) -> Round:
    """Back to draft, explicitly; refused once a game of the round has a protocol."""
    round_ = _lock_round(round_)
    if round_.state != RoundState.PUBLISHED:
        raise SeatingError(_("Round %(n)s is not published.") % {"n": round_.number})
    if round_.stage.closed:
        raise SeatingError(_("The stage is closed."))
    if round_.tables.filter(game__isnull=False).exists():
        raise SeatingError(_("Games of this round have protocols; it cannot go back to a draft."))
    round_.state = RoundState.DRAFT
    round_.published_at = None
    round_.published_by = None
    round_.save(update_fields=["state", "published_at", "published_by"])
    return round_


@transaction.atomic
def mark_absent(round_: Round, participant: Participant) -> None:
    """Record that a player misses a draft round (the ruleset's absence points); the draft is cleared
    to be seated again without them (``jobs.start`` with the round)."""
    round_ = _lock_round(round_)
    _require_draft(round_)
    if participant.pk not in {p.pk for p in stage_players(round_.stage)}:
        raise SeatingError(_("%(name)s does not play in this stage.") % {"name": participant.player.full_name})
    _absence, created = Absence.objects.get_or_create(round=round_, participant=participant)
    if not created:
        raise SeatingError(_("%(name)s is already marked absent.") % {"name": participant.player.full_name})
    clear_seating(round_)


@transaction.atomic
def unmark_absent(round_: Round, participant: Participant) -> None:
    round_ = _lock_round(round_)
    _require_draft(round_)
    deleted, _count = Absence.objects.filter(round=round_, participant=participant).delete()
    if not deleted:
        raise SeatingError(_("%(name)s is not marked absent.") % {"name": participant.player.full_name})
    clear_seating(round_)
