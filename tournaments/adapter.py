"""The one bridge between the database and ``scoring``'s model (docs/architecture.md).

``to_model`` reads a tournament's rows in a fixed number of queries, whatever its size, and
builds the ``scoring.model.Tournament`` that standings, validation and the tournament file use.
``save_model`` stores such a model as new rows (the import), all or nothing.

Two facts of the participants that ``scoring`` does not model travel in the file as extra keys of its
``tournament`` object (the schema keeps that object open), so a tournament restored from its file shows
the same numbers and marks beside the standings: ``player_numbers`` (written only when the numbers are not
simply 1, 2, 3… in the players' order) and ``disqualifications``.

Only published rounds are part of the model; a game joins it once its protocol is submitted
(drafts count for nothing), and imported games are stored as confirmed protocols. A table of a published
round whose protocol is not submitted yet (a round in play) is no game of the file; its seating travels as
the extra key ``tables_in_play`` (``tables_in_play_data``), so a file exported mid-round, imported again,
gives the judges the same tables to record. The organizer's pairs kept apart travel as ``keep_apart``
(``[[id, id], …]``).
"""

from __future__ import annotations

import datetime as dt
import json
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.models import Game as GameRow
from games.models import GameSeat, GameState, Protest
from scoring import model as m
from scoring.errors import InvalidTournament, Location, Problem

from .models import (
    Absence,
    Bye,
    KeepApart,
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

DECIMAL_PLACES = 6
NUMBERS_KEY = "player_numbers"
DISQUALIFICATIONS_KEY = "disqualifications"
TABLES_IN_PLAY_KEY = "tables_in_play"
KEEP_APART_KEY = "keep_apart"
PARTICIPANT_KEYS = (NUMBERS_KEY, DISQUALIFICATIONS_KEY)
# Written by this module from rows of their own, never kept as the tournament's other info.
ADAPTER_KEYS = (*PARTICIPANT_KEYS, TABLES_IN_PLAY_KEY, KEEP_APART_KEY)


def to_decimal(value: Fraction, where: str) -> Decimal:
    """``value`` as a Decimal, exactly, or an ``InvalidTournament`` naming ``where``."""
    decimal = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(1).scaleb(-DECIMAL_PLACES))
    if Fraction(decimal) != value:
        raise InvalidTournament([Problem(Location(field=where), f"more than {DECIMAL_PLACES} decimal places")])
    return decimal


def to_fraction(value: Decimal | None) -> Fraction | None:
    return None if value is None else Fraction(value)


# --- database → model ---------------------------------------------------------------------------


def to_model(tournament: Tournament) -> m.Tournament:
    """The tournament as ``scoring`` sees it; a fixed number of queries (11)."""
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
        Round.objects.filter(stage__tournament=tournament, state=RoundState.PUBLISHED).order_by("stage", "number")
    )
    round_ids = [r.pk for r in rounds]
    # A draft protocol is not a result yet: standings count submitted and confirmed ones only.
    games = list(
        GameRow.objects.filter(table__round__in=round_ids)
        .exclude(state=GameState.DRAFT)
        .select_related("table")
        .order_by("table__number")
    )
    seats: dict[int, list[m.Seat]] = defaultdict(list)
    for row in GameSeat.objects.filter(game__in=[g.pk for g in games]).select_related("seat").order_by("seat__number"):
        seats[row.game_id].append(seat_model(row, ext[row.seat.participant_id]))
    protests: dict[int, list[m.Protest]] = defaultdict(list)
    for protest in Protest.objects.filter(game__in=[g.pk for g in games]).order_by("id"):
        protests[protest.game_id].append(protest_model(protest))
    games_by_round: dict[int, list[m.Game]] = defaultdict(list)
    for game in games:
        games_by_round[game.table.round_id].append(game_model(game, seats[game.pk], protests[game.pk]))
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
    return m.Tournament(
        ruleset=tournament.ruleset,
        params=None if tournament.params is None else tuple((k, json.dumps(v)) for k, v in tournament.params.items()),
        info=info_model(tournament, accepted),
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


def info_model(t: Tournament, participants: list[Participant]) -> m.TournamentInfo:
    other = {k: v for k, v in (t.info_other or {}).items() if k not in ADAPTER_KEYS}
    other.update(participant_extras(participants))
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
    seats = (Seat.objects.filter(round__stage__tournament=tournament, round__state=RoundState.PUBLISHED)
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
    for table in tables:
        del table["_pk"]
    return tables


def keep_apart_data(tournament: Tournament) -> list[list[str]]:
    """The file's ``keep_apart``: the organizer's pairs, by player id (one query)."""
    pairs = KeepApart.objects.filter(tournament=tournament).select_related("first", "second").order_by("id")
    return [[pair.first.ext_id, pair.second.ext_id] for pair in pairs]


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


def game_model(game: GameRow, seats: list[m.Seat], protests: list[m.Protest]) -> m.Game:
    return m.Game(
        table=game.table.number,
        seats=tuple(seats),
        winner=m.Side(game.winner) if game.winner else None,
        first_killed=game.first_killed,
        best_move=tuple(game.best_move or ()),
        circles=tuple(m.Circle(tuple(c.get("best", ())), tuple(c.get("worst", ()))) for c in game.circles or ()),
        mafia_missed_three_nights=game.mafia_missed_three_nights,
        judge=game.judge,
        notes=game.notes,
        protests=tuple(protests),
    )


def seat_model(row: GameSeat, player: str) -> m.Seat:
    return m.Seat(
        seat=row.seat.number,
        player=player,
        role=m.Role(row.role),
        side=m.Side(row.side) if row.side else None,
        fouls=row.fouls,
        removed=row.removed,
        extra=Fraction(row.extra),
        best=row.best,
        days_survived=row.days_survived,
        subjective=to_fraction(row.subjective),
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


# --- model → database ---------------------------------------------------------------------------


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
def save_model(t: m.Tournament, *, slug: str | None = None, organizers: Any = ()) -> Tournament:
    """Store ``t`` as a new tournament with its players, stages, rounds and games; ids kept."""
    info = t.info or m.TournamentInfo()
    other = {k: json.loads(v) for k, v in info.other}
    ids = [p.id for p in t.players]
    numbers = read_numbers(other.pop(NUMBERS_KEY, {}), ids)
    disqualified = read_disqualifications(other.pop(DISQUALIFICATIONS_KEY, []), set(ids))
    in_play = read_tables_in_play(other.pop(TABLES_IN_PLAY_KEY, []), t)
    apart = read_keep_apart(other.pop(KEEP_APART_KEY, []), set(ids))
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
    )
    tournament.organizers.add(*organizers)
    teams = {
        team.id: Team.objects.create(tournament=tournament, ext_id=team.id, name=team.name) for team in t.teams or ()
    }
    people = Player.objects.bulk_create(
        Player(surname=split_name(p.name)[0], first_name=split_name(p.name)[1], nickname=p.nickname or "")
        for p in t.players
    )
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
    return tournament


def read_keep_apart(value: Any, ids: set[str]) -> list[tuple[str, str]]:
    """The file's ``keep_apart``: pairs of two different players of the file, each pair once."""
    where = Location(field=f"tournament.{KEEP_APART_KEY}")
    if not isinstance(value, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair) for pair in value
    ):
        raise InvalidTournament([Problem(where, _('must be a list of pairs of player ids, [["p1", "p2"], …]'))])
    problems: list[Problem] = []
    seen: set[frozenset[str]] = set()
    for a, b in value:
        for player in (a, b):
            if player not in ids:
                problems.append(Problem(where, _("player %(player)s is not in the file's players")
                                        % {"player": player}))
        if a == b:
            problems.append(Problem(where, _("%(player)s is paired with themselves") % {"player": a}))
        elif frozenset((a, b)) in seen:
            problems.append(Problem(where, _("%(first)s and %(second)s are listed twice") % {"first": a, "second": b}))
        seen.add(frozenset((a, b)))
    if problems:
        raise InvalidTournament(problems)
    return [(a, b) for a, b in value]


InPlay = dict[tuple[str, int], dict[int, list[tuple[int, str]]]]  # (stage, round) → table → [(seat, player)]


def read_tables_in_play(value: Any, t: m.Tournament) -> InPlay:
    """The file's ``tables_in_play``, checked against its stages: a published round of the file, a table that is
    not one of its games, seats 1..12 once each, players of the file seated once in the round."""
    where = Location(field=f"tournament.{TABLES_IN_PLAY_KEY}")
    shape = _('must be a list of {"stage": id, "round": number, "table": number, '
              '"seats": [{"seat": number, "player": id}]}')

    def whole(n: Any, low: int, high: int) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and low <= n <= high

    if not isinstance(value, list):
        raise InvalidTournament([Problem(where, shape)])
    rounds = {(stage.id, r.number): r for stage in t.stages for r in stage.rounds}
    players = {p.id for p in t.players}
    found: InPlay = {}
    problems: list[Problem] = []
    for item in value:
        seats = item.get("seats") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(item.get("stage"), str) or \
                not whole(item.get("round"), 1, 2**31 - 1) or not whole(item.get("table"), 1, 2**31 - 1) or \
                not isinstance(seats, list) or not seats or not all(
                    isinstance(x, dict) and whole(x.get("seat"), 1, 12) and isinstance(x.get("player"), str)
                    for x in seats):
            problems.append(Problem(where, shape))
            continue
        key, table = (item["stage"], item["round"]), item["table"]
        place = _("stage %(stage)s, round %(round)s, table %(table)s") % {
            "stage": key[0], "round": key[1], "table": table}
        round_ = rounds.get(key)
        if round_ is None:
            problems.append(Problem(where, _("%(place)s: the file has no such round") % {"place": place}))
            continue
        taken = {s.player for g in round_.games for s in g.seats} | set(round_.byes) | set(round_.absent) | \
            {p for tables in found.get(key, {}).values() for _seat, p in tables}
        if table in {g.table for g in round_.games} or table in found.get(key, {}):
            problems.append(Problem(where, _("%(place)s: the table is listed twice") % {"place": place}))
            continue
        numbers = [x["seat"] for x in seats]
        for x in seats:
            if x["player"] not in players:
                problems.append(Problem(where, _("%(place)s: player %(player)s is not in the file's players")
                                        % {"place": place, "player": x["player"]}))
            elif x["player"] in taken:
                problems.append(Problem(where, _("%(place)s: player %(player)s is seated twice in the round")
                                        % {"place": place, "player": x["player"]}))
            taken.add(x["player"])
        if len(set(numbers)) != len(numbers):
            problems.append(Problem(where, _("%(place)s: a seat number is used twice") % {"place": place}))
        found.setdefault(key, {})[table] = [(x["seat"], x["player"]) for x in seats]
    if problems:
        raise InvalidTournament(problems)
    return found


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


def read_numbers(value: Any, ids: list[str]) -> dict[str, int]:
    """Each player's number: the file's ``player_numbers``; a player it leaves out gets the next number after the
    highest (without the key: 1, 2, 3… in the players' order)."""
    where = Location(field=f"tournament.{NUMBERS_KEY}")
    if not isinstance(value, dict) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 2**31 - 1 for n in value.values()
    ):
        raise InvalidTournament([Problem(where, _("must map player ids to whole numbers from 1"))])
    known = set(ids)
    problems = [Problem(where, _("player %(player)s is not in the file's players") % {"player": pid})
                for pid in value if pid not in known]
    seen: dict[int, str] = {}
    for pid, number in value.items():
        if number in seen:
            problems.append(Problem(where, _("%(first)s and %(second)s both have number %(n)s")
                                    % {"first": seen[number], "second": pid, "n": number}))
        seen[number] = pid
    if problems:
        raise InvalidTournament(problems)
    numbers = dict(value)
    following = max(numbers.values(), default=0)
    for pid in ids:
        if pid not in numbers:
            following += 1
            numbers[pid] = following
    return numbers


def read_disqualifications(value: Any, ids: set[str]) -> dict[str, tuple[dt.datetime, str]]:
    """The file's ``disqualifications``: player → (when, reason); a missing time is the import's."""
    where = Location(field=f"tournament.{DISQUALIFICATIONS_KEY}")
    shape = _("must be a list of {\"player\": id, \"reason\": text, \"at\": date and time}")
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise InvalidTournament([Problem(where, shape)])
    found: dict[str, tuple[dt.datetime, str]] = {}
    problems = []
    for item in value:
        player, reason, at = item.get("player"), item.get("reason"), item.get("at")
        if not isinstance(player, str) or not isinstance(reason, str) or not reason.strip() or \
                not isinstance(at, str | None):
            problems.append(Problem(where, shape))
        elif player not in ids:
            problems.append(Problem(where, _("player %(player)s is not in the file's players") % {"player": player}))
        elif player in found:
            problems.append(Problem(where, _("player %(player)s is disqualified twice") % {"player": player}))
        else:
            when = timezone.now() if at is None else parse_moment(at)
            if when is None:
                problems.append(Problem(where, _("%(value)r is not a date and time (ISO 8601)") % {"value": at}))
            else:
                found[player] = (when, reason.strip())
    if problems:
        raise InvalidTournament(problems)
    return found


def parse_moment(value: str) -> dt.datetime | None:
    """An ISO 8601 date and time, aware (a naive one is in the server's time zone); ``None`` if it is not one."""
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)


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
            points=to_decimal(p.points, f"{where}: penalty of {p.player}"),
            reason=p.reason,
        )
        for p in r.penalties
    )
    for game in r.games:
        save_game(round_row, game, participants, f"{where}, table {game.table}")


def save_game(round_row: Round, game: m.Game, participants: dict[str, Participant], where: str) -> None:
    table = Table.objects.create(round=round_row, number=game.table)
    row = GameRow.objects.create(
        table=table,
        state=GameState.CONFIRMED,
        winner=game.winner.value if game.winner else "",
        first_killed=game.first_killed,
        best_move=list(game.best_move),
        circles=[{k: list(v) for k, v in (("best", c.best), ("worst", c.worst)) if v} for c in game.circles],
        mafia_missed_three_nights=game.mafia_missed_three_nights,
        judge=game.judge,
        notes=game.notes,
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
            extra=to_decimal(s.extra, f"{where}, seat {s.seat}: extra"),
            best=s.best,
            days_survived=s.days_survived,
            subjective=None if s.subjective is None else to_decimal(s.subjective, f"{where}, seat {s.seat}"),
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
