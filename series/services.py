"""Every change of a series, each under ``transaction.atomic`` with the series row locked, and the series
standings as the pages and exports show them (docs/series.md)."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Player, Tournament

from .models import Series, SeriesTournament
from .places import TournamentPlaces, tournament_places
from .standings import Placing, SeriesRow, series_standings

if TYPE_CHECKING:
    from base.users import User


class SeriesError(UserError):
    """A change of a series its state or the user's rights forbid."""


@transaction.atomic
def create_series(series: Series, user: User) -> Series:
    series.save()
    series.organizers.add(user)
    return series


@transaction.atomic
def add_tournament(series: Series, tournament: Tournament, user: User) -> SeriesTournament:
    """Only a tournament the user organizes: a series cannot take another organizer's results without them."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    if not tournament.is_organizer(user):
        raise SeriesError(_("You do not organize the tournament “%(name)s”.") % {"name": tournament.name})
    if series.entries.filter(tournament=tournament).exists():
        raise SeriesError(_("The tournament “%(name)s” is in the series already.") % {"name": tournament.name})
    last = series.entries.aggregate(last=Max("order"))["last"] or 0
    return SeriesTournament.objects.create(series=series, tournament=tournament, order=last + 1)


@transaction.atomic
def remove_tournament(series: Series, entry_pk: int) -> None:
    series = Series.objects.select_for_update().get(pk=series.pk)
    if not series.entries.filter(pk=entry_pk).delete()[0]:
        raise SeriesError(_("That tournament is not in the series (any more)."))


@transaction.atomic
def set_entries(series: Series, values: dict[int, tuple[Decimal, int]]) -> None:
    """Each entry's weight and order (by the entry's pk); entries of other series are refused."""
    series = Series.objects.select_for_update().get(pk=series.pk)
    entries = {e.pk: e for e in series.entries.all()}
    unknown = set(values) - set(entries)
    if unknown:
        raise SeriesError(_("That tournament is not in the series (any more)."))
    for pk, (weight, order) in values.items():
        entries[pk].weight, entries[pk].order = weight, order
    SeriesTournament.objects.bulk_update([entries[pk] for pk in values], ["weight", "order"])


@dataclass(frozen=True)
class Column:
    """A tournament of the series as a column: counted once its results are final and published."""

    entry: SeriesTournament
    places: TournamentPlaces

    @property
    def tournament(self) -> Tournament:
        return self.entry.tournament

    @property
    def counts(self) -> bool:
        return self.places.over and not self.tournament.standings_hidden


@dataclass(frozen=True)
class SeriesTable:
    series: Series
    columns: list[Column]
    rows: list[SeriesRow]
    players: dict[int, Player]

    @property
    def counted(self) -> list[Column]:
        return [c for c in self.columns if c.counts]


def series_table(series: Series) -> SeriesTable:
    """The standings of a series in a fixed number of queries whatever its tournaments: the entries with their
    tournaments and results versions (one), the places from the cache (those of a new version read once), the
    players (one)."""
    entries = list(series.entries.select_related("tournament__results_version").order_by("order", "pk"))
    places = tournament_places(e.tournament for e in entries)
    columns = [Column(e, places[e.tournament_id]) for e in entries]
    placings = [Placing(player, c.tournament.pk, place, c.places.players)
                for c in columns if c.counts for player, place in c.places.places.items()]
    rows = series_standings(placings, series.rules({c.tournament.pk: Fraction(c.entry.weight) for c in columns}))
    players = Player.objects.in_bulk([r.player for r in rows])
    rows.sort(key=lambda r: (r.rank, players[r.player].full_name.casefold(), r.player))  # shared ranks by name
    return SeriesTable(series, columns, rows, players)


@transaction.atomic
def update_series(series: Series) -> Series:
    """The settings as the organizer's form gives them (its instance, validated)."""
    Series.objects.select_for_update().filter(pk=series.pk).first()
    series.save()
    return series
