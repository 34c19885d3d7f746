"""Computing the rating from the confirmed games of rated tournaments: from scratch, or from one round on.

Both ways run the same replay (``scoring.rating``) over the same rounds in the same order, starting from the
ratings stored just before the first round replayed, so they give the same numbers to the last bit
(tests/ratings/test_compute.py). Only the rows that differ are written: confirming one game of the last round
writes that game's ten changes, whatever the history's size, and reads that game alone (``recompute_games``).

A tournament whose standings are hidden counts once they are shown: its games' outcomes would otherwise show
through the rating's changes.

A round's place in the history is its ``position``: the tournament's start (or creation) date, the tournament's
id, the stage's order and the round's number, as one sortable string.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db import connection, transaction
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from games.models import GameSeat, GameState
from scoring import rating as elo
from scoring.model import ROLE_SIDE, Role, Side
from tournaments.models import Player, Tournament

from ..models import PlayerRating, RatingChange, RatingRules

BATCH = 2000
INSERTED = 500  # rows per INSERT: 5,000 bound values, within every SQLite's limit


def tournament_day(starts: dt.date | None, created: dt.datetime) -> dt.date:
    return starts or timezone.localdate(created)


def position(day: dt.date, tournament: int, stage_order: int = 0, round_number: int = 0) -> str:
    """The sortable place of a round (or, with zeros, of a tournament's start) in the history."""
    return f"{day:%Y%m%d}.{tournament:010d}.{stage_order:04d}.{round_number:05d}"


def tournament_position(tournament: Tournament) -> str:
    return position(tournament_day(tournament.starts, tournament.created), tournament.pk)


def rules() -> RatingRules:
    found, _ = RatingRules.objects.get_or_create(pk=1)
    return found


@dataclass
class RatedRound:
    position: str
    round: int
    tournament: int
    day: dt.date
    games: list[elo.RatedGame] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    """What a recomputation counted and wrote."""

    rounds: int
    games: int
    players: int  # players with a rating (after every rated game, not only those replayed)
    written: int  # changes created
    removed: int  # changes deleted


def effective_side(role: str, side: str) -> str:
    if side:
        return side
    return ROLE_SIDE.get(Role(role), Side.RED).value if role else Side.RED.value


def rated_tournaments() -> tuple[dict[int, dict[str, Any]], dict[int, dt.date]]:
    """The rated tournaments whose standings are shown (by id), and each one's day in the history."""
    tournaments: dict[int, dict[str, Any]] = {
        row["pk"]: dict(row) for row in Tournament.objects.filter(rated=True, standings_hidden=False)
        .values("pk", "starts", "created", "level")
    }
    return tournaments, {pk: tournament_day(row["starts"], row["created"]) for pk, row in tournaments.items()}


def rated_seats(since: str, tournaments: dict[int, dict[str, Any]], days: dict[int, dt.date]) -> QuerySet[GameSeat]:
    """The seats of the confirmed, won games of ``tournaments`` in the rounds at or after ``since``."""
    first = since[:19]  # the tournament part of the position
    wanted = {pk for pk in tournaments if position(days[pk], pk)[:19] >= first}
    where = Q(game__table__round__stage__tournament_id__in=wanted)
    pk, stage_from, round_from = (int(part) for part in since.split(".")[1:]) if since else (0, 0, 0)
    if pk in wanted:  # the tournament ``since`` falls in: only its rounds from ``since`` on
        where = (Q(game__table__round__stage__tournament_id__in=wanted - {pk})
                 | Q(game__table__round__stage__tournament_id=pk, game__table__round__stage__order__gt=stage_from)
                 | Q(game__table__round__stage__tournament_id=pk, game__table__round__stage__order=stage_from,
                     game__table__round__number__gte=round_from))
    return GameSeat.objects.filter(where, game__state=GameState.CONFIRMED).exclude(game__winner="")


def history(since: str, the_rules: RatingRules, only: set[int] | None = None) -> list[RatedRound]:
    """Every round at or after ``since`` with the confirmed, won games of rated tournaments (only the games
    ``only`` names, when given), in order: two queries whatever the history's size."""
    tournaments, days = rated_tournaments()
    seats_from = rated_seats(since, tournaments, days)
    if only is not None:
        seats_from = seats_from.filter(game_id__in=only)
    rows = (seats_from
            .values_list("game_id", "game__winner", "role", "side", "seat__participant__player_id",
                         "game__table__round_id", "game__table__round__number", "game__table__round__stage__order",
                         "game__table__round__stage__tournament_id")
            .order_by())
    seats: dict[int, list[elo.RatedSeat]] = defaultdict(list)
    games: dict[int, tuple[int, str]] = {}
    rounds: dict[int, RatedRound] = {}
    for game, winner, role, side, player, round_pk, number, order, tid in rows:
        seats[game].append(elo.RatedSeat(player, effective_side(role, side)))
        games[game] = (round_pk, winner)
        if round_pk not in rounds:
            rounds[round_pk] = RatedRound(position(days[tid], tid, order, number), round_pk, tid, days[tid])
    for game in sorted(games):  # a fixed order: the games' ids, each game's seats by player
        round_pk, winner = games[game]
        level = tournaments[rounds[round_pk].tournament]["level"]
        rounds[round_pk].games.append(elo.RatedGame(
            game, winner, tuple(sorted(seats[game], key=lambda seat: seat.player)),
            the_rules.k(level, "red"), the_rules.k(level, "black")))
    return sorted((r for r in rounds.values() if r.position >= since), key=lambda r: r.position)


def ratings_before(since: str, players: Iterable[int]) -> dict[int, float]:
    """Each player's rating after their last change before ``since`` (players without one are left out)."""
    if not since:
        return {}
    last = (RatingChange.objects.filter(player=OuterRef("pk"), position__lt=since)
            .order_by("-position").values("after")[:1])
    found = Player.objects.filter(pk__in=set(players)).annotate(last=Subquery(last)).values_list("pk", "last")
    return {pk: value for pk, value in found if value is not None}


@transaction.atomic
def recompute(since: str = "") -> Outcome:
    """Recompute every rating change at or after ``since`` (everything when empty) and the ratings they end in.
    One recomputation at a time on the whole site (the rules' row is locked), so two confirmations on two
    servers never interleave their replays."""
    rules()
    the_rules = RatingRules.objects.select_for_update().get(pk=1)
    return replay(since, the_rules, history(since, the_rules), RatingChange.objects.filter(position__gte=since))


@transaction.atomic
def recompute_games(since: str, games: set[int]) -> Outcome:
    """After ``games`` of the round at ``since`` were confirmed or reopened: when nothing is rated after that
    round, only these games' changes can differ (each game of a round is rated on its own from the ratings before
    the round: ``scoring.rating.rate_round``), so only they are replayed, and the same numbers come out as from
    ``since`` on (tests/ratings/test_compute.py). A chief judge's confirmation during the last round then reads
    its own game, not every game of the round confirmed before it. Else (a round after it rated, or confirmed
    games after it not rated yet), ``recompute(since)``."""
    rules()
    the_rules = RatingRules.objects.select_for_update().get(pk=1)
    after = f"{since[:-5]}{int(since[-5:]) + 1:05d}"  # the next round's position: the same stage, the next number
    tournaments, days = rated_tournaments()
    if RatingChange.objects.filter(position__gte=after).exists() or rated_seats(after, tournaments, days).exists():
        return recompute(since)
    return replay(since, the_rules, history(since, the_rules, games), RatingChange.objects.filter(game_id__in=games))


def replay(since: str, the_rules: RatingRules, rounds: list[RatedRound],
           kept_rows: QuerySet[RatingChange]) -> Outcome:
    """The changes of ``rounds`` replayed from the ratings before ``since``, written where they differ from
    ``kept_rows`` (the stored changes they replace: those no longer replayed are deleted)."""
    ratings = ratings_before(since, (s.player for r in rounds for g in r.games for s in g.seats))
    fresh: dict[tuple[int, int], Row] = {}
    games = 0
    for rated in rounds:
        changes = elo.rate_round(ratings, rated.games, the_rules.start)
        games += len(rated.games)
        for change in changes:
            fresh[(change.game, change.player)] = (
                change.player, rated.tournament, rated.round, change.game, rated.position, rated.day, change.side,
                change.won, change.before, change.after)
        elo.apply(ratings, changes)
    stale: list[int] = []
    touched: set[int] = set()
    kept = kept_rows.values_list(
        "pk", "game_id", "player_id", "round_id", "position", "side", "won", "before", "after")
    for pk, game, player, round_pk, place, side, won, before, after in kept.iterator(chunk_size=BATCH):
        new = fresh.get((game, player))
        if new is not None and new[2:3] + new[4:5] + new[6:] == (round_pk, place, side, won, before, after):
            del fresh[(game, player)]  # already stored exactly so
            continue
        stale.append(pk)
        touched.add(player)
    for start in range(0, len(stale), BATCH):
        RatingChange.objects.filter(pk__in=stale[start:start + BATCH]).delete()
    insert(list(fresh.values()))
    touched.update(row[0] for row in fresh.values())
    refresh_ratings(touched)
    # Every recomputation is a new version, even one that changed no number: what made it (a tournament's hidden
    # standings, its level) may change what the pages show.
    RatingRules.objects.filter(pk=1).update(version=F("version") + 1, updated=timezone.now())
    return Outcome(len(rounds), games, PlayerRating.objects.count(), len(fresh), len(stale))


Row = tuple[int, int, int, int, str, dt.date, str, bool, float, float]  # RatingChange's COLUMNS
COLUMNS = ("player_id", "tournament_id", "round_id", "game_id", "position", "day", "side", "won", "before", "after")


def insert(rows: list[Row]) -> None:
    """The new changes, in plain SQL: a whole history's 140,000 rows as model instances would take most of a
    from-scratch recomputation's time (bench/rating_history.py)."""
    table = connection.ops.quote_name(RatingChange._meta.db_table)
    columns = ", ".join(connection.ops.quote_name(name) for name in COLUMNS)
    with connection.cursor() as cursor:
        for start in range(0, len(rows), INSERTED):
            chunk = rows[start:start + INSERTED]
            values = ", ".join(["(" + ", ".join(["%s"] * len(COLUMNS)) + ")"] * len(chunk))
            cursor.execute(f"INSERT INTO {table} ({columns}) VALUES {values}",
                           [value for row in chunk for value in row])


def refresh_ratings(players: set[int]) -> None:
    """Each of these players' rating after their last change, and their number of rated games."""
    ids = sorted(players)
    for start in range(0, len(ids), BATCH):
        chunk = ids[start:start + BATCH]
        last = RatingChange.objects.filter(player=OuterRef("pk")).order_by("-position").values("after")[:1]
        rows = (Player.objects.filter(pk__in=chunk)
                .annotate(games=Count("rating_changes"), last=Subquery(last)).values_list("pk", "games", "last"))
        PlayerRating.objects.filter(player_id__in=chunk).delete()
        PlayerRating.objects.bulk_create(
            PlayerRating(player_id=pk, rating=value, games=count) for pk, count, value in rows if count)
