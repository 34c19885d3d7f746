"""Seating rounds with the stage's method through ``scoring.round_planning`` (docs/rules/seating-methods.md).

The work is split so it can run outside any lock: ``compute`` reads the rows and asks the
seating engine (pure, possibly seconds for ``balanced``); ``save_block`` then stores the plan
under ``transaction.atomic`` with the stage locked, re-checking that nothing changed meanwhile.

The engine reads the history off ``scoring``'s model, where a published round only has games
once protocols are recorded; ``seating_tournament`` therefore adds every seated table of every
round (drafts and published rounds without protocols too) as a game without a result, which
counts for nothing in the standings, and fixes the stage's players to those present.
"""

from __future__ import annotations

import dataclasses
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from exchange.reading import to_model
from scoring import model as m
from scoring.round_planning import PlannedBlock, plan_rounds
from scoring.seating import ByeLimitError
from scoring.seating import SeatingError as EngineError
from tournaments.errors import SeatingError
from tournaments.models import Absence, Bye, Participant, Round, RoundState, Seat, Stage, Table
from tournaments.rules import ruleset_for
from tournaments.services.apart import pairs as keep_apart_pairs
from tournaments.services.stage_players import stage_players

Progress = Callable[[float], None]
METHODS = frozenset(method.value for method in m.SeatingMethod)


def stage_kind(stage: Stage) -> m.StageKind:
    """The kind as set, or from the position (first qualifying, last of several final)."""
    if stage.kind and stage.kind != m.StageKind.OTHER:
        return m.StageKind(stage.kind)
    orders = list(Stage.objects.filter(tournament_id=stage.tournament_id).values_list("order", flat=True))
    if stage.order == min(orders):
        return m.StageKind.QUALIFYING
    return m.StageKind.FINAL if stage.order == max(orders) else m.StageKind.SEMIFINAL


def default_method(stage: Stage, number: int) -> str:
    """The method planned for round ``number``: the stage's own plan, else the ruleset's format."""
    plan = [method for method in stage.seating_plan or [] if method in METHODS]
    if plan:
        return str(plan[min(max(number, 1), len(plan)) - 1])
    fmt = ruleset_for(stage.tournament).stage_format(stage_kind(stage))
    return fmt.seating_for(number).value


def next_number(stage: Stage) -> int:
    return (stage.rounds.aggregate(n=Max("number"))["n"] or 0) + 1


@dataclass(frozen=True)
class Request:
    stage: Stage
    first_number: int
    method: str
    rounds: int = 1
    tables: int | None = None
    seed: int = 0
    regenerate: Round | None = None


def new_seed() -> int:
    return random.SystemRandom().randrange(2**31)


def seating_tournament(stage: Stage, *, skip: Round | None = None) -> m.Tournament:
    """The model the engine plans from: every seated round in the history, this stage's players."""
    tournament = stage.tournament
    base = to_model(tournament)
    rows = list(Round.objects.filter(stage__tournament=tournament).exclude(pk=skip.pk if skip else None)  # type: ignore[misc]  # None excludes nothing
                .select_related("stage").order_by("stage__order", "number"))
    tables: dict[int, dict[int, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    for round_id, table, number, player in Seat.objects.filter(round__in=rows).values_list(
            "round_id", "table__number", "number", "participant__ext_id"):
        tables[round_id][table].append((number, player))
    byes: dict[int, list[str]] = defaultdict(list)
    for round_id, player in Bye.objects.filter(round__in=rows).values_list("round_id", "participant__ext_id"):
        byes[round_id].append(player)
    absent: dict[int, list[str]] = defaultdict(list)
    for round_id, player in Absence.objects.filter(round__in=rows).values_list("round_id", "participant__ext_id"):
        absent[round_id].append(player)
    by_stage: dict[str, list[Round]] = defaultdict(list)
    for row in rows:
        by_stage[row.stage.ext_id].append(row)
    away = set(skip.absences.values_list("participant__ext_id", flat=True)) if skip is not None else set()
    # Disqualified players are seated in no later round; rounds already seated keep their games.
    present = tuple(p.ext_id for p in stage_players(stage)
                    if p.ext_id not in away and p.disqualified_at is None)
    stages = []
    for model_stage in base.stages:
        published = {r.number: r for r in model_stage.rounds}
        rounds = tuple(
            merged_round(row, published.get(row.number), tables[row.pk], byes[row.pk], absent[row.pk])
            for row in by_stage[model_stage.id]
        )
        players = present if model_stage.id == stage.ext_id else model_stage.players
        stages.append(dataclasses.replace(model_stage, rounds=rounds, players=players))
    return dataclasses.replace(base, stages=tuple(stages))


def merged_round(row: Round, published: m.Round | None, tables: dict[int, list[tuple[int, str]]],
                 byes: list[str], absent: list[str]) -> m.Round:
    """The published round's games, plus each seated table without a complete protocol."""
    games = {g.table: g for g in published.games} if published else {}
    for number, seats in tables.items():
        game = games.get(number)
        if game is None or (not game.has_result and len(game.seats) < len(seats)):
            games[number] = m.Game(table=number, winner=None, seats=tuple(
                m.Seat(seat=n, player=p, role=m.Role.CIVILIAN) for n, p in sorted(seats)))
    return m.Round(
        number=row.number,
        games=tuple(games[n] for n in sorted(games)),
        seating=m.SeatingMethod(row.seating) if row.seating else None,
        byes=tuple(byes),
        absent=tuple(absent),
        penalties=published.penalties if published else (),
    )


def engine_message(error: EngineError) -> str:
    if isinstance(error, ByeLimitError):
        return _("The byes cannot be given within the regulation's limit: add guests to fill a table, or seat "
                 "fewer rounds (%(reason)s).") % {"reason": error}
    return _("The seating cannot be made: %(reason)s.") % {"reason": error}


def compute(request: Request, progress: Progress | None = None) -> PlannedBlock:
    """Ask the engine for the plan; no rows change. ``SeatingError`` with the organizer's message."""
    if request.method not in METHODS:
        raise SeatingError(_("Unknown seating method %(m)s.") % {"m": request.method})
    model = seating_tournament(request.stage, skip=request.regenerate)
    try:
        return plan_rounds(model, request.stage.ext_id, m.SeatingMethod(request.method), seed=request.seed,
                           tables=request.tables, rounds=request.rounds,
                           keep_apart=keep_apart_pairs(request.stage.tournament_id), progress=progress)
    except EngineError as error:
        raise SeatingError(engine_message(error)) from error


def check_can_seat_next(stage: Stage) -> None:
    """The state a new round needs: stage open, no draft waiting."""
    if stage.closed:
        raise SeatingError(_("The stage is closed."))
    last = stage.rounds.order_by("-number").first()
    if last is not None and last.state == RoundState.DRAFT:
        raise SeatingError(_("Round %(n)s is still a draft: publish or regenerate it.") % {"n": last.number})


def remembered_tables(round_: Round, players: int) -> int | None:
    """The tables the organizer chose for this draft, while its players still fill them (else the
    full tables the players fill: None)."""
    chosen = round_.tables_chosen
    size = ruleset_for(round_.stage.tournament).params.table_size
    return chosen if chosen and chosen * size <= players else None


def require_draft(round_: Round) -> None:
    if round_.state != RoundState.DRAFT:
        raise SeatingError(_("Round %(n)s is published; unpublish it first.") % {"n": round_.number})


@transaction.atomic
def save_block(request: Request, block: PlannedBlock) -> Round:
    """Store the planned rounds (or the draft seated again); the first of them is returned."""
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=request.stage.pk)
    ids = dict(Participant.objects.filter(tournament_id=stage.tournament_id).values_list("ext_id", "pk"))
    if request.regenerate is not None:
        round_ = Round.objects.select_for_update().get(pk=request.regenerate.pk)
        require_draft(round_)
        round_.seats.all().delete()
        round_.tables.all().delete()
        round_.byes.all().delete()
        round_.seating, round_.seed, round_.tables_chosen = request.method, request.seed, request.tables
        round_.save(update_fields=["seating", "seed", "tables_chosen"])
        created = [round_]
    else:
        check_can_seat_next(stage)
        if next_number(stage) != request.first_number:
            raise SeatingError(_("Another round was seated meanwhile; look at the stage again."))
        created = Round.objects.bulk_create(
            Round(stage=stage, number=request.first_number + i, seating=request.method, seed=request.seed,
                  tables_chosen=request.tables)
            for i in range(len(block.rounds)))
    for round_, planned in zip(created, block.rounds, strict=True):
        away = set(round_.absences.values_list("participant_id", flat=True)) if request.regenerate else set()
        seated = {ids[p] for table in planned.tables for p in table} | {ids[p] for p in planned.byes}
        if seated & away:
            raise SeatingError(_("The absences changed while the seating was computed; seat again."))
        Bye.objects.bulk_create(Bye(round=round_, participant_id=ids[p]) for p in planned.byes)
        rows = Table.objects.bulk_create(Table(round=round_, number=n) for n in range(1, len(planned.tables) + 1))
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, number=n, participant_id=ids[p])
            for table, members in zip(rows, planned.tables, strict=True)
            for n, p in enumerate(members, start=1))
    return created[0]


def seat(request: Request, progress: Progress | None = None) -> Round:
    return save_block(request, compute(request, progress))


def generate_next_round(stage: Stage, *, method: str | None = None, rounds: int = 1, tables: int | None = None,
                        seed: int | None = None, progress: Progress | None = None) -> Round:
    """Seat the stage's next ``rounds`` rounds as drafts (the planned method unless told)."""
    check_can_seat_next(stage)
    number = next_number(stage)
    request = Request(stage, number, method or default_method(stage, number), rounds, tables,
                      new_seed() if seed is None else seed)
    return seat(request, progress)


def regenerate_round(round_: Round, *, method: str | None = None, tables: int | None = None,
                     seed: int | None = None, progress: Progress | None = None) -> Round:
    """Seat a draft round again (its own method unless told), a new seed unless told."""
    require_draft(round_)
    stage = round_.stage
    request = Request(stage, round_.number, method or round_.seating or default_method(stage, round_.number), 1,
                      tables, new_seed() if seed is None else seed, regenerate=round_)
    return seat(request, progress)
