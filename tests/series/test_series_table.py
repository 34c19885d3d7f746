"""The series standings from the database: each tournament's final places (``scoring.places`` over the standings
``scoring`` computes), when a tournament counts, weights, and the fixed number of queries."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from exchange.reading import to_model
from scoring.places import final_places
from scoring.standings import compute_standings
from series.models import Series, SeriesTournament
from series.services import series_table
from tests.series.conftest import share_players

pytestmark = pytest.mark.django_db

F1 = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def places(tournament: Any) -> dict[int, int]:
    """Player pk → place, computed here straight from scoring."""
    model = to_model(tournament)
    people = dict(tournament.participants.values_list("ext_id", "player_id"))
    return {people[p.player]: p.place for p in final_places(model, lambda s: compute_standings(model, s))}


def expected_points(pair: tuple[Any, Any], weights: tuple[Fraction, Fraction] = (Fraction(1), Fraction(1))) -> \
        dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for tournament, weight in zip(pair, weights, strict=True):
        for player, place in places(tournament).items():
            out[player] = out.get(player, Fraction(0)) + (F1[place - 1] * weight if place <= 10 else 0)
    return out


def test_points_are_the_table_for_each_final_place(league: Series, pair: tuple[Any, Any]) -> None:
    table = series_table(league)
    assert [c.counts for c in table.columns] == [True, True]
    got = {r.player: r.points for r in table.rows}
    assert got == {p: v for p, v in expected_points(pair).items()}
    assert table.rows[0].points == max(got.values())
    assert all(r.played == 2 for r in table.rows)  # the same twenty people in both


def test_a_weight_multiplies_a_tournament(league: Series, pair: tuple[Any, Any]) -> None:
    SeriesTournament.objects.filter(series=league, tournament=pair[1]).update(weight=Decimal("1.5"))
    got = {r.player: r.points for r in series_table(league).rows}
    assert got == expected_points(pair, (Fraction(1), Fraction(3, 2)))


def test_a_tournament_counts_once_its_results_are_final(league: Series, pair: tuple[Any, Any],
                                                         django_capture_on_commit_callbacks: Any) -> None:
    """Reopened (the last stage not closed, its final's planned rounds not all played): not counted; closed
    again: counted. The change bumps the results version, so no cached copy hides it."""
    last = pair[1].stages.order_by("-order").first()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        last.closed = False
        last.planned_rounds = 5
        last.save()
    table = series_table(league)
    assert [c.counts for c in table.columns] == [True, False]
    assert {r.played for r in table.rows} == {1}
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        last.closed = True
        last.save()
    assert [c.counts for c in series_table(league).columns] == [True, True]


def test_a_final_played_to_its_planned_rounds_counts_without_closing(
        league: Series, pair: tuple[Any, Any], django_capture_on_commit_callbacks: Any) -> None:
    last = pair[0].stages.order_by("-order").first()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        last.closed = False
        last.planned_rounds = last.rounds.count()
        last.save()
    assert series_table(league).columns[0].counts


def test_hidden_standings_do_not_count(league: Series, pair: tuple[Any, Any],
                                       django_capture_on_commit_callbacks: Any) -> None:
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        pair[0].standings_hidden = True
        pair[0].save()
    table = series_table(league)
    assert [c.counts for c in table.columns] == [False, True]


def test_best_of_and_the_chain_from_the_series(league: Series, pair: tuple[Any, Any]) -> None:
    league.best_of = 1
    league.tiebreaks = ["firsts", "place_sum"]
    league.save()
    table = series_table(league)
    best = expected_points(pair)
    for row in table.rows:
        assert sum(r.counted for r in row.results.values()) == 1
        assert row.points == max(r.points for r in row.results.values()) <= best[row.player]
        assert set(row.tiebreaks) == {"firsts", "place_sum"}
    assert [r.rank for r in table.rows] == sorted(r.rank for r in table.rows)


def test_queries_do_not_grow_with_the_tournaments(league: Series, pair: tuple[Any, Any], generated: Any,
                                                  client: Any) -> None:
    """Once each tournament's places are cached under its results version: the same queries for 2 tournaments
    as for 4."""
    client.get(f"/s/{league.slug}/")  # reads and caches the places

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/s/{league.slug}/").status_code == 200
        return len(queries)

    two = count()
    for slug in ("spring", "summer"):
        more = generated(slug, players=20, rounds=2, stages=2)
        share_players(pair[0], more)
        SeriesTournament.objects.create(series=league, tournament=more, order=9)
    client.get(f"/s/{league.slug}/")
    assert count() == two
    assert len(series_table(league).columns) == 4
