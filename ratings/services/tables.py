"""What the rating pages, the API and the exports show: the rating table (filtered by club, city and period, or
restricted to one tournament's players with the change it brought) and one player's history, tournaments and
win rates per role. Each a fixed number of queries whatever the number of players or games; the table is kept in
the cache per rating version and filters (``kept_table``)."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from dataclasses import dataclass, field

from django.core.cache import cache
from django.db.models import Count, OuterRef, Q, Subquery, Sum

from games.models import GameSeat, GameState
from tournaments.models import Participant, ParticipantStatus, Player, Tournament

from ..models import PlayerRating, RatingChange, RatingRules
from .compute import effective_side, rules


@dataclass(frozen=True)
class Filters:
    club: str = ""
    city: str = ""
    since: dt.date | None = None  # the period's first day: only players with games in it, their games counted
    until: dt.date | None = None  # the period's last day: the rating after the player's last game up to it

    @property
    def period(self) -> bool:
        return self.since is not None or self.until is not None


@dataclass(frozen=True)
class Row:
    rank: int
    player: int
    name: str
    nickname: str
    club: str
    city: str
    rating: float
    games: int
    change: float | None = None  # in one tournament: what its games did to the rating


Raw = tuple[int, str, str, str, str, float, int, float | None]  # player, name, nickname, club, city, rating, ...


def ranked(rows: list[Raw]) -> list[Row]:
    """Highest first (then fewer games, then the player's id: a fixed order); equal ratings share a rank."""
    rows.sort(key=lambda r: (-round(r[5], 1), r[6], r[0]))
    out: list[Row] = []
    for i, (pk, name, nickname, club, city, value, games, change) in enumerate(rows, start=1):
        rank = out[-1].rank if out and round(out[-1].rating, 1) == round(value, 1) else i
        out.append(Row(rank, pk, name, nickname, club, city, value, games, change))
    return out


def full_name(surname: str, first: str, patronymic: str) -> str:
    return " ".join(part for part in (surname, first, patronymic) if part)


# How long a table is kept within one rating version: a player's new name or club (which makes no new version)
# shows within it.
KEPT_SECONDS = 60


def version() -> tuple[str, float]:
    """The rating's version (bumped by every recomputation) with the moment it was reached, so that a database
    recreated beside the same cache never meets another's kept pages; and the starting rating."""
    found = RatingRules.objects.values_list("version", "updated", "start").first()
    if found is None:
        return "0", 1500.0
    number, updated, start = found
    return f"{number}.{int(updated.timestamp() * 1e6)}", start


def kept_table(filters: Filters, at: str) -> list[Row]:
    """``rating_table`` kept per version ``at`` and filters."""
    key = f"ratings:{at}:{hashlib.sha1(repr(filters).encode()).hexdigest()[:16]}"
    rows: list[Row] | None = cache.get(key)
    if rows is None:
        rows = rating_table(filters)
        cache.set(key, rows, KEPT_SECONDS)
    return rows


PERSON = ("surname", "first_name", "patronymic", "nickname", "club", "city")


def chosen(filters: Filters, rows: list[Raw]) -> list[Raw]:
    """The rows of the filters' club and city, compared case-insensitively in Python: SQLite's ``iexact`` folds
    only Latin letters, and a club is typed in Cyrillic."""
    club, city = filters.club.strip().casefold(), filters.city.strip().casefold()
    return [r for r in rows if (not club or r[3].casefold() == club) and (not city or r[4].casefold() == city)]


def rating_table(filters: Filters = Filters()) -> list[Row]:
    """Every rated player (or those who played in the period) of the club and city, highest first: one query."""
    if not filters.period:
        found = PlayerRating.objects.values_list("player_id", *(f"player__{name}" for name in PERSON), "rating",
                                                 "games")
        return ranked(chosen(filters, [(pk, full_name(s, f, p), nick, club, city, value, games, None)
                                       for pk, s, f, p, nick, club, city, value, games in found]))
    period = Q()
    if filters.since is not None:
        period &= Q(rating_changes__day__gte=filters.since)
    if filters.until is not None:
        period &= Q(rating_changes__day__lte=filters.until)
    last = RatingChange.objects.filter(player=OuterRef("pk"))
    if filters.until is not None:
        last = last.filter(day__lte=filters.until)
    rows = (Player.objects
            .annotate(period_games=Count("rating_changes", filter=period),
                      last=Subquery(last.order_by("-position").values("after")[:1]))
            .filter(period_games__gt=0).values_list("pk", *PERSON, "last", "period_games"))
    return ranked(chosen(filters, [(pk, full_name(s, f, p), nick, club, city, value, games, None)
                                   for pk, s, f, p, nick, club, city, value, games in rows]))


def tournament_table(tournament: Tournament) -> list[Row]:
    """The tournament's players (guests too, not applications), each with their rating now and
    the change the tournament's games brought (0 for a tournament not rated): two queries."""
    start = rules().start
    changes = dict(RatingChange.objects.filter(tournament=tournament).values("player_id")
                   .annotate(total=Sum("after") - Sum("before")).values_list("player_id", "total"))
    people = (Participant.objects.filter(tournament=tournament, status=ParticipantStatus.ACCEPTED)
              .values_list("player_id", *(f"player__{name}" for name in PERSON),
                           "player__rating__rating", "player__rating__games"))
    return ranked([(pk, full_name(s, f, p), nick, club, city, start if value is None else value, games or 0,
                    changes.get(pk, 0.0)) for pk, s, f, p, nick, club, city, value, games in people])


@dataclass
class TournamentLine:
    tournament: int
    slug: str
    name: str
    day: dt.date
    games: int = 0
    wins: int = 0
    change: float = 0.0
    after: float | None = None


@dataclass
class RoleLine:
    role: str
    games: int = 0
    wins: int = 0

    @property
    def percent(self) -> int:
        return round(100 * self.wins / self.games) if self.games else 0


@dataclass
class PlayerHistory:
    player: Player
    rating: float | None
    games: int
    rank: int | None
    points: list[tuple[dt.date, float]]  # the rating after each rated game, in order (the chart)
    tournaments: list[TournamentLine] = field(default_factory=list)
    roles: list[RoleLine] = field(default_factory=list)


def player_history(player: Player) -> PlayerHistory:
    """A player's rating history (the chart's points), their tournaments (rated or not) and win rates per role
    (confirmed games; none of a tournament whose standings are hidden): five queries."""
    own = PlayerRating.objects.filter(player=player).first()
    rank = None
    if own is not None:
        rank = PlayerRating.objects.filter(rating__gt=own.rating).count() + 1
    changes = list(RatingChange.objects.filter(player=player).order_by("position", "game_id")
                   .values_list("tournament_id", "day", "won", "before", "after"))
    lines: dict[int, TournamentLine] = {}
    for tid, slug, name, starts, created in (
            Tournament.objects.filter(participants__player=player, participants__status=ParticipantStatus.ACCEPTED)
            .distinct()
            .values_list("pk", "slug", "name", "starts", "created")):
        lines[tid] = TournamentLine(tid, slug, name, starts or created.date())
    roles: dict[str, RoleLine] = defaultdict(lambda: RoleLine(""))
    for tid, role, side, winner in (
            GameSeat.objects.filter(seat__participant__player=player, game__state=GameState.CONFIRMED,
                                    game__table__round__stage__tournament__standings_hidden=False)
            .values_list("game__table__round__stage__tournament_id", "role", "side", "game__winner")):
        won = bool(winner) and effective_side(role, side) == winner
        line = roles.setdefault(role or "civilian", RoleLine(role or "civilian"))
        line.games, line.wins = line.games + 1, line.wins + won
        if tid in lines:
            lines[tid].games, lines[tid].wins = lines[tid].games + 1, lines[tid].wins + won
    for tid, _day, _won, before, after in changes:
        if tid in lines:
            lines[tid].change += after - before
            lines[tid].after = after
    return PlayerHistory(
        player, own.rating if own else None, own.games if own else 0, rank,
        [(day, after) for _tid, day, _won, _before, after in changes],
        sorted(lines.values(), key=lambda line: (line.day, line.tournament), reverse=True),
        sorted(roles.values(), key=lambda line: (-line.games, line.role)))
