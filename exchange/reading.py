"""Reading: a tournament's rows as ``scoring``'s model (docs/architecture.md).

``to_model`` reads a tournament's rows in a fixed number of queries, whatever its size, and builds the
``scoring.model.Tournament`` that standings, validation and the tournament file use. Only published rounds are
part of the model; a game joins it once its protocol is submitted (drafts count for nothing), each built by the
protocols' own converter (``games.services.facts``) from the rows as recorded. The participants' numbers and
disqualifications, the tables in play and the pairs kept apart travel as the file's extra keys (``extras``).
"""

from __future__ import annotations

import json
import threading
from collections import Counter, defaultdict
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import cachetools
from django.db import connection
from django.db.models import CharField, Count, Value
from django.db.models.expressions import RawSQL
from django.utils import timezone

from base.collector import paused
from games.models import Game as GameRow
from games.models import GameSeat, GameState, Protest
from games.services.facts import facts_of, scoring_game
from scoring import model as m
from tournaments.models import (
    Absence,
    Award,
    Bye,
    KeepApart,
    LotDraw,
    Participant,
    Penalty,
    Round,
    Seat,
    Stage,
    StagePlayer,
    Tournament,
)

from .extras import (
    DISQUALIFICATIONS_KEY,
    EXCHANGE_KEYS,
    LEVEL_KEY,
    NUMBERS_KEY,
    RATED_KEY,
    TABLES_IN_PLAY_KEY,
    Settings,
    write_settings,
)

RESULT_FIELDS = ("role", "side", "fouls", "removed", "extra", "best", "days_survived", "subjective", "foul_reasons",
                 "removal_reason", "warning_reasons", "left", "left_number")


@dataclass(frozen=True, slots=True)
class SeatPlace:
    number: int
    participant_id: int


@dataclass(frozen=True, slots=True)
class ResultRow:
    """A seat's result read as values (``games.services.facts.SeatResult``): building 12,000 ``GameSeat`` and
    ``Seat`` instances was half the cost of a 1,000-player tournament's model, rebuilt after every result."""

    seat: SeatPlace
    role: str
    side: str
    fouls: int
    removed: bool
    extra: Any
    best: bool
    days_survived: int | None
    subjective: Any
    foul_reasons: Any
    removal_reason: str
    warning_reasons: Any
    left: str
    left_number: int | None


def to_fraction(value: Decimal | None) -> Fraction | None:
    return None if value is None else Fraction(value)


@paused()  # a large tournament is a hundred thousand objects made at once (base/collector.py)
def to_model(tournament: Tournament) -> m.Tournament:
    """The tournament as ``scoring`` sees it; a fixed number of queries (at most 12: the games unchanged since this
    process last converted them are not read again, ``ConvertedGames``)."""
    participants = list(tournament.participants.select_related("player").order_by("number", "id"))
    ext = {p.pk: p.ext_id for p in participants}
    accepted = [p for p in participants if p.status == "accepted"]
    teams = list(tournament.teams.order_by("id"))
    team_ext = {team.pk: team.ext_id for team in teams}
    stages = list(tournament.stages.order_by("order"))
    entries: dict[int, list[str]] = defaultdict(list)
    for entry in StagePlayer.objects.filter(stage__tournament=tournament).order_by("stage", "position"):
        entries[entry.stage_id].append(ext[entry.participant_id])
    rounds = list(
        Round.objects.published().filter(stage__tournament=tournament).annotate(seated_tables=Count("tables"))
        .order_by("stage", "number")
    )
    round_ids = [r.pk for r in rounds]
    # A draft protocol is not a result yet: standings count submitted and confirmed ones only.
    results = (GameRow.objects.filter(table__round__in=round_ids).exclude(state=GameState.DRAFT)
               .order_by("table__number"))
    games = list(results.annotate(digest=game_digest()).values_list("pk", "table__number", "table__round_id",
                                                                    "digest"))
    known = {pk: CONVERTED.get((pk, table, digest)) for pk, table, _round, digest in games}
    made = convert_games([pk for pk, game in known.items() if game is None], ext)
    games_by_round: dict[int, list[m.Game]] = defaultdict(list)
    for pk, table, round_pk, digest in games:
        game = known[pk]
        if game is None:
            game = made[pk]
            if digest is not None:
                CONVERTED.keep((pk, table, digest), game)
        games_by_round[round_pk].append(game)
    byes, absent = defaultdict(list), defaultdict(list)
    for bye in Bye.objects.filter(round__in=round_ids).order_by("id"):
        byes[bye.round_id].append(ext[bye.participant_id])
    for absence in Absence.objects.filter(round__in=round_ids).order_by("id"):
        absent[absence.round_id].append(ext[absence.participant_id])
    penalties: dict[int, list[m.Penalty]] = defaultdict(list)
    for penalty in Penalty.objects.filter(round__in=round_ids).order_by("id"):
        penalties[penalty.round_id].append(
            m.Penalty(ext[penalty.participant_id], Fraction(penalty.points), penalty.reason)
        )
    rounds_by_stage: dict[int, list[m.Round]] = defaultdict(list)
    for r in rounds:
        rounds_by_stage[r.stage_id].append(
            m.Round(
                number=r.number,
                games=tuple(games_by_round[r.pk]),
                seating=m.SeatingMethod(r.seating) if r.seating else None,
                byes=tuple(byes[r.pk]),
                absent=tuple(absent[r.pk]),
                penalties=tuple(penalties[r.pk]),
            )
        )
    # A round in play: its tables without a result are the file's ``tables_in_play`` (one more query, only then),
    # whose players the standings list with 0 games (``scoring.model.Tournament.stage_participants``).
    with_result = Counter(round_pk for _pk, _table, round_pk, _digest in games)
    in_play = (tables_in_play_data(tournament)
               if any(r.seated_tables > with_result[r.pk] for r in rounds) else [])  # type: ignore[attr-defined]
    return m.Tournament(
        ruleset=tournament.ruleset,
        params=None if tournament.params is None else tuple((k, json.dumps(v)) for k, v in tournament.params.items()),
        info=info_model(tournament, accepted, in_play),
        teams=tuple(m.Team(team.ext_id, team.name) for team in teams) if teams else None,
        players=tuple(
            m.Player(
                p.ext_id,
                p.player.full_name,
                p.player.nickname or None,
                team_ext.get(p.team_id) if p.team_id else None,
                p.guest,
            )
            for p in accepted
        ),
        stages=tuple(
            stage_model(stage, entries.get(stage.pk), rounds_by_stage[stage.pk]) for stage in stages
        ),
    )


def convert_games(pks: list[int], ext: dict[int, str]) -> dict[int, m.Game]:
    """The games ``pks`` as ``scoring`` sees them, by id, each built by the protocols' own converter from its rows
    as recorded (three queries; none for no games)."""
    if not pks:
        return {}
    seats: dict[int, list[ResultRow]] = defaultdict(list)
    for values in (GameSeat.objects.filter(game__in=pks).order_by("seat__number")
                   .values_list("game_id", "seat__number", "seat__participant_id", *RESULT_FIELDS)):
        seats[values[0]].append(ResultRow(SeatPlace(values[1], values[2]), *values[3:]))
    protests: dict[int, list[m.Protest]] = defaultdict(list)
    for protest in Protest.objects.filter(game__in=pks).order_by("id"):
        protests[protest.game_id].append(protest_model(protest))
    out = {}
    for game in GameRow.objects.filter(pk__in=pks).select_related("table"):
        facts = facts_of(game, seats[game.pk], player=lambda row: ext[row.seat.participant_id])
        out[game.pk] = scoring_game(facts, table=game.table.number, judge=game.judge, notes=game.notes,
                                    protests=protests[game.pk])
    return out


class ConvertedGames:
    """The games ``to_model`` converted, by (id, table number, digest of the rows they were made from), in this
    process. A results version differs from the one before by a game or a few, and converting every game's seats
    again was most of a model's build (a 1,000-player tournament: 1,200 games, 12,000 seats; bench/README.md).
    The digest is PostgreSQL's hash of the game's row, its seats' rows with their seat numbers and players' ids
    and its protests' rows (``game_digest``): a game changed in any column is a new key, and a key found was
    made from the same rows, so it converts to the same ``scoring`` game. On SQLite there is no digest and every
    game is converted (a club evening's size)."""

    def __init__(self, size: int = 10_000) -> None:
        self.lock = threading.Lock()  # cachetools' caches are not thread-safe
        self.games: cachetools.LRUCache[tuple[int, int, str | None], m.Game] = cachetools.LRUCache(size)

    def get(self, key: tuple[int, int, str | None]) -> m.Game | None:
        if key[2] is None:
            return None
        with self.lock:
            return self.games.get(key)

    def keep(self, key: tuple[int, int, str | None], game: m.Game) -> None:
        with self.lock:
            self.games[key] = game

    def clear(self) -> None:
        with self.lock:
            self.games.clear()


CONVERTED = ConvertedGames()


def game_digest() -> Any:
    """An annotation of ``Game`` rows: the hash of everything its ``scoring`` game is made from (``ConvertedGames``)
    on PostgreSQL, else NULL. Each row as PostgreSQL writes it as text, so every column counts, a column added
    later too."""
    if connection.vendor != "postgresql":
        return Value(None, output_field=CharField())
    game, seat_result, seat, participant, protest = (
        model._meta.db_table for model in (GameRow, GameSeat, Seat, Participant, Protest))
    return RawSQL(
        f"md5({game}::text"
        f" || '#' || coalesce((SELECT string_agg(gs::text || '|' || s.number || '|' || p.ext_id, ',' ORDER BY gs.id)"
        f" FROM {seat_result} gs JOIN {seat} s ON s.id = gs.seat_id JOIN {participant} p ON p.id = s.participant_id"
        f" WHERE gs.game_id = {game}.id), '')"
        f" || '#' || coalesce((SELECT string_agg(pr::text, ',' ORDER BY pr.id) FROM {protest} pr"
        f" WHERE pr.game_id = {game}.id), ''))", (), output_field=CharField())


def info_model(t: Tournament, participants: list[Participant],
               in_play: list[dict[str, Any]] | None = None) -> m.TournamentInfo:
    other = {k: v for k, v in (t.info_other or {}).items() if k not in EXCHANGE_KEYS}
    other.update(participant_extras(participants))
    if in_play:
        other[TABLES_IN_PLAY_KEY] = in_play
    carried = frozenset(key for key in (RATED_KEY, LEVEL_KEY) if key in (t.info_other or {}))
    other.update(write_settings(Settings(t.protests_enabled, t.participant_cap, t.applications_open,
                                         t.applications_close, t.rated, t.level, carried)))
    return m.TournamentInfo(
        name=t.name,
        city=t.city or None,
        venue=t.venue or None,
        starts=t.starts.isoformat() if t.starts else None,
        ends=t.ends.isoformat() if t.ends else None,
        standings_hidden=True if t.standings_hidden else None,
        other=tuple((k, json.dumps(v)) for k, v in other.items()),
    )


def participant_extras(participants: list[Participant]) -> dict[str, Any]:
    """The file's ``player_numbers`` and ``disqualifications`` of these participants (in the file's order)."""
    extras: dict[str, Any] = {}
    if any(p.number != position for position, p in enumerate(participants, start=1)):
        extras[NUMBERS_KEY] = {p.ext_id: p.number for p in participants if p.number is not None}
    disqualified = [
        {"player": p.ext_id, "reason": p.disqualification_reason,
         "at": timezone.localtime(p.disqualified_at).isoformat(timespec="seconds")}
        for p in participants if p.disqualified_at is not None
    ]
    if disqualified:
        extras[DISQUALIFICATIONS_KEY] = disqualified
    return extras


def tables_in_play_data(tournament: Tournament) -> list[dict[str, Any]]:
    """The file's ``tables_in_play``: each table of a published round without a submitted or confirmed protocol,
    with its seats (one query)."""
    seats = (Seat.objects.published().filter(round__stage__tournament=tournament)
             .exclude(table__game__state__in=[GameState.SUBMITTED, GameState.CONFIRMED])
             .select_related("table__round__stage", "participant")
             .order_by("table__round__stage__order", "table__round__number", "table__number", "number"))
    tables: list[dict[str, Any]] = []
    for seat in seats:
        table = seat.table
        if not tables or tables[-1]["_pk"] != table.pk:
            tables.append({"_pk": table.pk, "stage": table.round.stage.ext_id, "round": table.round.number,
                           "table": table.number, "seats": []})
        tables[-1]["seats"].append({"seat": seat.number, "player": seat.participant.ext_id})
    for found in tables:
        del found["_pk"]
    return tables


def awards_data(tournament: Tournament) -> list[dict[str, Any]]:
    """The file's ``awards``: the organizer's award rows in order (one query); a proposal never changed is left
    out (the ruleset's default applies again on import)."""
    out: list[dict[str, Any]] = []
    for award in Award.objects.filter(tournament=tournament).select_related("recipient").order_by("order", "id"):
        item: dict[str, Any] = {"kind": award.kind} if award.kind else {"title": award.title}
        if award.kind and award.title:
            item["title"] = award.title
        item["given"] = award.enabled
        if award.recipient is not None:
            item["player"] = award.recipient.ext_id
            item["reason"] = award.reason
            if award.chosen_at is not None:
                item["at"] = timezone.localtime(award.chosen_at).isoformat(timespec="seconds")
        out.append(item)
    return out


def keep_apart_data(tournament: Tournament) -> list[list[str]]:
    """The file's ``keep_apart``: the organizer's pairs, by player id (one query)."""
    pairs = KeepApart.objects.filter(tournament=tournament).select_related("first", "second").order_by("id")
    return [[pair.first.ext_id, pair.second.ext_id] for pair in pairs]


def lot_draws_data(tournament: Tournament) -> list[dict[str, Any]]:
    """The file's ``lot_draws``: every drawing of lots of the tournament, in stage order then as drawn (one query)."""
    out: list[dict[str, Any]] = []
    for draw in (LotDraw.objects.filter(stage__tournament=tournament).select_related("stage")
                 .order_by("stage__order", "drawn_at", "id")):
        item: dict[str, Any] = {"stage": draw.stage.ext_id, "players": list(draw.players), "method": draw.method,
                                "at": timezone.localtime(draw.drawn_at).isoformat(timespec="seconds")}
        if draw.drawn_by_name:
            item["by"] = draw.drawn_by_name
        if draw.note:
            item["note"] = draw.note
        if draw.cancelled_at is not None:
            item["cancelled_at"] = timezone.localtime(draw.cancelled_at).isoformat(timespec="seconds")
            if draw.cancelled_by_name:
                item["cancelled_by"] = draw.cancelled_by_name
        out.append(item)
    return out


def stage_model(stage: Stage, players: list[str] | None, rounds: list[m.Round]) -> m.Stage:
    return m.Stage(
        id=stage.ext_id,
        rounds=tuple(rounds),
        name=stage.name or None,
        kind=m.StageKind(stage.kind) if stage.kind else None,
        players=tuple(players or ()) if stage.players_listed else None,
        advance=m.Advance(stage.advance_kind, stage.advance_count)
        if stage.advance_kind and stage.advance_count is not None
        else None,
        reset=stage.reset,
        multiplier=to_fraction(stage.multiplier),
        lots=tuple(stage.lots) if stage.lots is not None else None,
    )



def protest_model(p: Protest) -> m.Protest:
    return m.Protest(
        seat=p.seat,
        text=p.text,
        lodged_at=p.lodged_at,
        decision=m.ProtestDecision(p.decision) if p.decision else None,
        decided_by=p.decided_by,
        # The chief judge's reason travels in the file as the protest's extra key "reason".
        other=tuple((k, json.dumps(v)) for k, v in {**(p.other or {}), **({"reason": p.reason} if p.reason else {})}
                    .items()),
    )
