"""Writing: ``scoring``'s model stored as a new tournament's rows (the import), all or nothing.

Imported games are stored as confirmed protocols; the file's extra keys (``extras``) give the participants'
numbers and disqualifications, the tables in play, the pairs kept apart and the drawings of lots.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils.text import slugify

from games.models import Game as GameRow
from games.models import GameSeat, GameState, Protest
from games.reasons import UNSTATED
from scoring import gamelog
from scoring import model as m
from scoring.errors import InvalidTournament, Location, Problem
from scoring.numbers import to_decimal
from tournaments.models import (
    Absence,
    Award,
    Bye,
    KeepApart,
    LotDraw,
    Participant,
    Penalty,
    Player,
    Round,
    RoundState,
    Seat,
    Stage,
    StagePlayer,
    Table,
    Team,
    Tournament,
)

from .extras import (
    AWARDS_KEY,
    DISQUALIFICATIONS_KEY,
    KEEP_APART_KEY,
    LEVEL_KEY,
    LOT_DRAWS_KEY,
    NUMBERS_KEY,
    RATED_KEY,
    TABLES_IN_PLAY_KEY,
    InPlay,
    LotDrawFacts,
    read_awards,
    read_disqualifications,
    read_keep_apart,
    read_lot_draws,
    read_numbers,
    read_settings,
    read_tables_in_play,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from django.contrib.auth.models import User


def split_name(name: str) -> tuple[str, str]:
    """``"Ivanov Ivan Ivanovich"`` → surname ``Ivanov``, first name ``Ivan Ivanovich``; joined back
    with one space, the full name reads as written."""
    surname, _, rest = name.partition(" ")
    if not surname or not rest:
        return name, ""
    return surname, rest


def unique_slug(base: str) -> str:
    root = slugify(base)[:50] or "tournament"
    slug, n = root, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{root}-{n}"
    return slug


def parse_date(value: str | None, where: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise InvalidTournament([Problem(Location(field=where), f"{value!r} is not a date (YYYY-MM-DD)")]) from None


@transaction.atomic
def save_model(t: m.Tournament, *, slug: str | None = None, organizers: Iterable[User] = (),
               existing: Mapping[str, Player] | None = None) -> Tournament:
    """Store ``t`` as a new tournament with its players, stages, rounds and games; ids kept. ``existing`` maps a
    file player's id to the registry's player they are (``exchange.matching``); the others are new players."""
    existing = existing or {}
    info = t.info or m.TournamentInfo()
    other = {k: json.loads(v) for k, v in info.other}
    ids = [p.id for p in t.players]
    numbers = read_numbers(other.pop(NUMBERS_KEY, {}), ids)
    disqualified = read_disqualifications(other.pop(DISQUALIFICATIONS_KEY, []), set(ids))
    in_play = read_tables_in_play(other.pop(TABLES_IN_PLAY_KEY, []), t)
    apart = read_keep_apart(other.pop(KEEP_APART_KEY, []), set(ids))
    awards = read_awards(other.pop(AWARDS_KEY, []), set(ids), set(disqualified))
    draws = read_lot_draws(other.pop(LOT_DRAWS_KEY, []), t)
    settings = read_settings(other, len(ids))
    other.update((key, value) for key, value in ((RATED_KEY, settings.rated), (LEVEL_KEY, settings.level))
                 if key in settings.carried)  # kept as the mark that the file carried them
    name = info.name or slug or "Tournament"
    tournament = Tournament.objects.create(
        slug=slug or unique_slug(name),
        name=name,
        ruleset=t.ruleset,
        params=None if t.params is None else {k: json.loads(v) for k, v in t.params},
        info_other=other,
        city=info.city or "",
        venue=info.venue or "",
        starts=parse_date(info.starts, "tournament.starts"),
        ends=parse_date(info.ends, "tournament.ends"),
        standings_hidden=bool(info.standings_hidden),
        protests_enabled=settings.protests_enabled,
        participant_cap=settings.participant_cap,
        applications_open=settings.applications_open,
        applications_close=settings.applications_close,
        rated=settings.rated,
        level=settings.level,
    )
    tournament.organizers.add(*organizers)
    teams = {
        team.id: Team.objects.create(tournament=tournament, ext_id=team.id, name=team.name) for team in t.teams or ()
    }
    made = iter(Player.objects.bulk_create(
        Player(surname=split_name(p.name)[0], first_name=split_name(p.name)[1], nickname=p.nickname or "")
        for p in t.players if p.id not in existing
    ))
    people = [existing[p.id] if p.id in existing else next(made) for p in t.players]
    participants = {
        p.id: row
        for p, row in zip(
            t.players,
            Participant.objects.bulk_create(
                Participant(
                    tournament=tournament,
                    player=person,
                    ext_id=p.id,
                    number=numbers[p.id],
                    team=teams[p.team] if p.team else None,
                    guest=p.guest,
                    disqualified_at=disqualified[p.id][0] if p.id in disqualified else None,
                    disqualification_reason=disqualified[p.id][1] if p.id in disqualified else "",
                )
                for p, person in zip(t.players, people, strict=True)
            ),
            strict=True,
        )
    }
    for order, stage in enumerate(t.stages, start=1):
        save_stage(tournament, order, stage, participants)
    save_tables_in_play(tournament, in_play, participants)
    KeepApart.objects.bulk_create(  # stored with first < second (a constraint of the model)
        KeepApart(tournament=tournament, first=min(pair, key=lambda p: p.pk), second=max(pair, key=lambda p: p.pk))
        for pair in ((participants[a], participants[b]) for a, b in apart)
    )
    Award.objects.bulk_create(
        Award(tournament=tournament, kind=a.kind, title=a.title, enabled=a.given, order=order,
              recipient=participants[a.player] if a.player else None, reason=a.reason, chosen_at=a.at)
        for order, a in enumerate(awards, start=1)
    )
    save_lot_draws(tournament, draws)
    return tournament


def save_lot_draws(tournament: Tournament, draws: list[LotDrawFacts]) -> None:
    """The file's drawings of lots, as the audit of the stages' ``lots`` (who drew is a name: no account)."""
    if not draws:
        return
    stages = {s.ext_id: s for s in Stage.objects.filter(tournament=tournament)}
    LotDraw.objects.bulk_create(
        LotDraw(stage=stages[d.stage], players=list(d.players), method=d.method, note=d.note, drawn_at=d.at,
                drawn_by_name=d.by, cancelled_at=d.cancelled_at, cancelled_by_name=d.cancelled_by)
        for d in draws
    )



def save_tables_in_play(tournament: Tournament, in_play: InPlay, participants: dict[str, Participant]) -> None:
    """The tables of the file's ``tables_in_play``: seated, with no protocol yet (the judges open them)."""
    if not in_play:
        return
    rounds = {(r.stage.ext_id, r.number): r for r in Round.objects.filter(stage__tournament=tournament)
              .select_related("stage")}
    for key, tables in in_play.items():
        round_row = rounds[key]
        for number, seats in sorted(tables.items()):
            table = Table.objects.create(round=round_row, number=number)
            Seat.objects.bulk_create(Seat(table=table, round=round_row, number=seat, participant=participants[pid])
                                     for seat, pid in seats)



def save_stage(tournament: Tournament, order: int, stage: m.Stage, participants: dict[str, Participant]) -> None:
    where = f"stage {stage.id}"
    row = Stage.objects.create(
        tournament=tournament,
        ext_id=stage.id,
        name=stage.name or "",
        kind=stage.kind.value if stage.kind else "",
        order=order,
        advance_kind=stage.advance.mode if stage.advance else "",
        advance_count=stage.advance.count if stage.advance else None,
        reset=stage.reset,
        multiplier=None if stage.multiplier is None else to_decimal(stage.multiplier, f"{where}: multiplier"),
        players_listed=stage.players is not None,
        lots=list(stage.lots) if stage.lots is not None else None,
    )
    StagePlayer.objects.bulk_create(
        StagePlayer(stage=row, participant=participants[pid], position=i) for i, pid in enumerate(stage.players or ())
    )
    for r in stage.rounds:
        save_round(row, r, participants, f"{where}, round {r.number}")


def save_round(stage: Stage, r: m.Round, participants: dict[str, Participant], where: str) -> None:
    round_row = Round.objects.create(
        stage=stage, number=r.number, seating=r.seating.value if r.seating else "", state=RoundState.PUBLISHED
    )
    Bye.objects.bulk_create(Bye(round=round_row, participant=participants[p]) for p in r.byes)
    Absence.objects.bulk_create(Absence(round=round_row, participant=participants[p]) for p in r.absent)
    Penalty.objects.bulk_create(
        Penalty(
            round=round_row,
            participant=participants[p.player],
            points=p.points,  # exact, as the file (ExactNumberField)
            reason=p.reason,
        )
        for p in r.penalties
    )
    for game in r.games:
        save_game(round_row, game, participants, f"{where}, table {game.table}")


# How a seat left, in the game log's words (scoring.gamelog) → the protocol's (games.models.Left).
LEFT_OF = {"voted_out": "voted", "killed": "killed", "removed": "removed"}


def save_game(round_row: Round, game: m.Game, participants: dict[str, Participant], where: str) -> None:
    """One game of the file. A game with a log (the judge's, or a whole-game platform's) gets its departures and
    its day/night counter from the log, so that reopened on the judge's screen it derives what the screen derives
    (docs/formats.md); the facts recorded stay what the standings read."""
    table = Table.objects.create(round=round_row, number=game.table)
    left = gamelog.departures(game.log)
    row = GameRow.objects.create(
        phase=max((e.phase for e in game.log), default=1),
        table=table,
        state=GameState.CONFIRMED,
        winner=game.winner.value if game.winner else "",
        first_killed=game.first_killed,
        best_move=list(game.best_move),
        circles=[{k: list(v) for k, v in (("best", c.best), ("worst", c.worst)) if v} for c in game.circles],
        mafia_missed_three_nights=game.mafia_missed_three_nights,
        judge=game.judge,
        notes=game.notes,
        log=[{k: v for k, v in (("kind", e.kind), ("phase", e.phase), ("seat", e.seat), ("count", e.count),
                                 ("by", e.by)) if v is not None} for e in game.log],
        awarded={} if game.awarded is None else {"reason": game.awarded.reason, **(
            {"seats": list(game.awarded.seats)} if game.awarded.seats else {})},
    )
    seat_rows = Seat.objects.bulk_create(
        Seat(table=table, round=round_row, number=s.seat, participant=participants[s.player]) for s in game.seats
    )
    GameSeat.objects.bulk_create(
        GameSeat(
            game=row,
            seat=seat_row,
            role=s.role.value,
            side=s.side.value if s.side else "",
            fouls=s.fouls,
            removed=s.removed,
            extra=s.extra,
            best=s.best,
            days_survived=s.days_survived,
            subjective=s.subjective,
            warning_reasons=[UNSTATED] * s.warnings,  # the file keeps their count, not their reasons
            left=LEFT_OF[left[s.seat].kind] if s.seat in left else "",
            left_number=left[s.seat].number if s.seat in left else None,
        )
        for s, seat_row in zip(game.seats, seat_rows, strict=True)
    )
    Protest.objects.bulk_create(
        Protest(
            game=row,
            seat=p.seat,
            text=p.text,
            lodged_at=p.lodged_at,
            decision=p.decision.value if p.decision else None,
            decided_by=p.decided_by,
            reason=protest_reason(p),
            other={k: json.loads(v) for k, v in p.other if not (k == "reason" and protest_reason(p))},
        )
        for p in game.protests
    )


def protest_reason(p: m.Protest) -> str:
    """The decision's reason from a protest's extra key ``reason`` (a string), else empty."""
    value = json.loads(dict(p.other).get("reason", "null"))
    return value if isinstance(value, str) else ""
