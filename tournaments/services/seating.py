"""Seating a stage's next round: generate, swap, regenerate, publish (a guarded draft → published).

The random method lives here until ``scoring``'s seating methods are wired in: uniform random
tables and seats, the remainder on byes chosen among those with the fewest byes so far (RULES.md §7).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from ..models import Absence, Bye, Participant, ParticipantStatus, Round, RoundState, Seat, Stage, Table
from ..rules import ruleset_for


class SeatingError(Exception):
    """A seating action the current state forbids; the message is for the organizer."""


@dataclass(frozen=True)
class Plan:
    tables: list[list[int]]  # participant pks, seat 1 first
    byes: list[int]


def random_plan(players: Sequence[int], table_size: int, byes_so_far: Counter[int], rng: random.Random) -> Plan:
    """Shuffle into full tables; whoever is left over gets a bye, fewest byes so far first."""
    order = list(players)
    rng.shuffle(order)
    extra = len(order) % table_size
    byes = sorted(order, key=lambda p: byes_so_far[p])[:extra] if extra else []
    seated = [p for p in order if p not in set(byes)]
    return Plan([seated[i : i + table_size] for i in range(0, len(seated), table_size)], byes)


def stage_players(stage: Stage) -> list[Participant]:
    """Who plays in the stage: its fixed list, or (a first stage) every accepted participant."""
    if stage.players_listed:
        return [e.participant for e in stage.entries.select_related("participant__player").order_by("position")]
    accepted = stage.tournament.participants.filter(status=ParticipantStatus.ACCEPTED)
    return list(accepted.select_related("player").order_by("number", "id"))


def _fill(round_: Round, seed: int) -> None:
    stage = round_.stage
    table_size = ruleset_for(stage.tournament).params.table_size
    away = set(round_.absences.values_list("participant_id", flat=True))
    players = [p.pk for p in stage_players(stage) if p.pk not in away]
    if len(players) < table_size:
        raise SeatingError(
            _("%(n)s players cannot fill a table of %(size)s.") % {"n": len(players), "size": table_size}
        )
    earlier = Bye.objects.filter(round__stage__tournament=stage.tournament).exclude(round=round_)
    plan = random_plan(players, table_size, Counter(earlier.values_list("participant_id", flat=True)),
                       random.Random(seed))
    Bye.objects.bulk_create(Bye(round=round_, participant_id=p) for p in plan.byes)
    tables = Table.objects.bulk_create(Table(round=round_, number=i) for i in range(1, len(plan.tables) + 1))
    Seat.objects.bulk_create(
        Seat(table=table, round=round_, number=n, participant_id=p)
        for table, members in zip(tables, plan.tables, strict=True)
        for n, p in enumerate(members, start=1)
    )


def _lock_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("stage__tournament").get(pk=round_.pk)


def _require_draft(round_: Round) -> None:
    if round_.state != RoundState.DRAFT:
        raise SeatingError(_("Round %(n)s is published; unpublish it first.") % {"n": round_.number})


@transaction.atomic
def generate_next_round(stage: Stage, *, seed: int | None = None) -> Round:
    """A new draft round after the stage's last one, seated at random."""
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if stage.closed:
        raise SeatingError(_("The stage is closed."))
    last = stage.rounds.order_by("-number").first()
    if last is not None and last.state == RoundState.DRAFT:
        raise SeatingError(_("Round %(n)s is still a draft: publish or regenerate it.") % {"n": last.number})
    number = (stage.rounds.aggregate(n=Max("number"))["n"] or 0) + 1
    seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    round_ = Round.objects.create(stage=stage, number=number, seating="random", seed=seed)
    _fill(round_, seed)
    return round_


@transaction.atomic
def regenerate_round(round_: Round, *, seed: int | None = None) -> Round:
    round_ = _lock_round(round_)
    _require_draft(round_)
    round_.seats.all().delete()
    round_.tables.all().delete()
    round_.byes.all().delete()
    round_.seed = seed if seed is not None else random.SystemRandom().randrange(2**31)
    round_.save(update_fields=["seed"])
    _fill(round_, round_.seed)
    return round_


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
def publish_round(round_: Round, user: Any) -> Round:
    round_ = _lock_round(round_)
    _require_draft(round_)
    if not round_.tables.exists():
        raise SeatingError(_("The round has no tables to publish."))
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
    if round_.tables.filter(game__isnull=False).exists():
        raise SeatingError(_("Games of this round have protocols; it cannot go back to a draft."))
    round_.state = RoundState.DRAFT
    round_.published_at = None
    round_.published_by = None
    round_.save(update_fields=["state", "published_at", "published_by"])
    return round_


@transaction.atomic
def mark_absent(round_: Round, participant: Participant) -> None:
    """Record that a player misses a draft round (the ruleset's absence points); reseat without them."""
    round_ = _lock_round(round_)
    _require_draft(round_)
    if participant.pk not in {p.pk for p in stage_players(round_.stage)}:
        raise SeatingError(_("%(name)s does not play in this stage.") % {"name": participant.player.full_name})
    _absence, created = Absence.objects.get_or_create(round=round_, participant=participant)
    if not created:
        raise SeatingError(_("%(name)s is already marked absent.") % {"name": participant.player.full_name})
    regenerate_round(round_, seed=round_.seed)


@transaction.atomic
def unmark_absent(round_: Round, participant: Participant) -> None:
    round_ = _lock_round(round_)
    _require_draft(round_)
    deleted, _count = Absence.objects.filter(round=round_, participant=participant).delete()
    if not deleted:
        raise SeatingError(_("%(name)s is not marked absent.") % {"name": participant.player.full_name})
    regenerate_round(round_, seed=round_.seed)


@dataclass(frozen=True)
class Balance:
    pairs_met_twice_or_more: int
    max_meetings: int
    same_seat_repeats: int
    byes: dict[int, int]


def balance_figures(stage: Stage, up_to: Round) -> Balance:
    """Over the tournament so far, up to and including ``up_to``: how often pairs met again and
    seat numbers repeated (the figures a balanced seating minimises). Two queries."""
    rows = Seat.objects.filter(
        round__stage__tournament_id=stage.tournament_id, round__stage__order__lte=stage.order
    ).exclude(round__stage=stage, round__number__gt=up_to.number).values_list("table_id", "participant_id", "number")
    tables: dict[int, list[int]] = {}
    seat_numbers: Counter[tuple[int, int]] = Counter()
    for table_id, player, number in rows:
        tables.setdefault(table_id, []).append(player)
        seat_numbers[(player, number)] += 1
    meetings: Counter[tuple[int, int]] = Counter()
    for members in tables.values():
        meetings.update(combinations(sorted(members), 2))
    byes = Counter(
        Bye.objects.filter(round__stage__tournament_id=stage.tournament_id).values_list("participant_id", flat=True)
    )
    return Balance(
        pairs_met_twice_or_more=sum(1 for n in meetings.values() if n >= 2),
        max_meetings=max(meetings.values(), default=0),
        same_seat_repeats=sum(n - 1 for n in seat_numbers.values() if n > 1),
        byes=dict(byes),
    )
