"""The series arithmetic by hand (docs/series.md): the points table, the scaling, the weights, best-N, each
tie-break and shared ranks. Pure: no database."""

from __future__ import annotations

from fractions import Fraction

import pytest

from series.standings import TIEBREAKS, Placing, Rules, place_points, series_standings

F1 = tuple(Fraction(p) for p in (25, 18, 15, 12, 10, 8, 6, 4, 2, 1))


def test_points_table_and_beyond_it() -> None:
    rules = Rules(F1)
    assert [place_points(rules, Placing(1, 1, place, 30)) for place in (1, 2, 10, 11, 30)] == [25, 18, 1, 0, 0]


def test_scaling_worked_example() -> None:
    """docs/series.md: reference 20; a tournament of 30 players placed, weight 1.5: 1st = 25 × 30/20 × 1.5 = 56.25,
    3rd = 15 × 30/20 × 1.5 = 33.75; a tournament of 10 players, weight 1: 2nd = 18 × 10/20 = 9."""
    rules = Rules(F1, reference=20, weights={7: Fraction(3, 2)})
    assert place_points(rules, Placing(1, 7, 1, 30)) == Fraction("56.25")
    assert place_points(rules, Placing(1, 7, 3, 30)) == Fraction("33.75")
    assert place_points(rules, Placing(1, 8, 2, 10)) == 9
    # exact, never a float: 12.5 × 7/20 = 4.375, a third stays a third
    assert place_points(Rules((Fraction("12.5"),), reference=20), Placing(1, 1, 1, 7)) == Fraction("4.375")
    assert place_points(Rules((Fraction(10),), reference=3), Placing(1, 1, 1, 1)) == Fraction(10, 3)


def test_sum_and_best_of() -> None:
    """Player 1: 1st, 10th, 2nd → 25 + 1 + 18; with the best 2: 43, the 10th place not counted."""
    placings = [Placing(1, 1, 1, 20), Placing(1, 2, 10, 20), Placing(1, 3, 2, 20),
                Placing(2, 1, 2, 20), Placing(2, 2, 1, 20)]
    every = series_standings(placings, Rules(F1))
    assert [(r.player, r.points, r.played) for r in every] == [(1, 44, 3), (2, 43, 2)]
    best = series_standings(placings, Rules(F1, best_of=2))
    assert [(r.player, r.points, r.rank) for r in best] == [(1, 43, 1), (2, 43, 1)]  # no chain: shared
    assert not best[0].results[2].counted and best[0].results[2].points == 1
    assert best[0].results[1].counted and best[0].results[3].counted


def test_best_of_drops_one_of_equal_results_only() -> None:
    placings = [Placing(1, t, 3, 20) for t in (1, 2, 3)]
    row = series_standings(placings, Rules(F1, best_of=2))[0]
    assert row.points == 30 and sum(r.counted for r in row.results.values()) == 2


def rank_of(placings: list[Placing], chain: tuple[str, ...], points: tuple[Fraction, ...] = (Fraction(0),)) -> \
        list[tuple[int, int]]:
    """(player, rank) with a points table that gives nothing: the chain alone decides."""
    return [(r.player, r.rank) for r in series_standings(placings, Rules(points, chain=chain))]


def test_each_tiebreak() -> None:
    # player 1: 1st, 5th; player 2: 2nd, 2nd, 2nd; player 3: 3rd, 3rd, 3rd, 4th
    placings = [Placing(1, 1, 1, 9), Placing(1, 2, 5, 9),
                Placing(2, 1, 2, 9), Placing(2, 2, 2, 9), Placing(2, 3, 2, 9),
                Placing(3, 1, 3, 9), Placing(3, 2, 3, 9), Placing(3, 3, 3, 9), Placing(3, 4, 4, 9)]
    assert rank_of(placings, ("firsts",)) == [(1, 1), (2, 2), (3, 2)]
    assert rank_of(placings, ("seconds",)) == [(2, 1), (1, 2), (3, 2)]
    assert rank_of(placings, ("thirds",)) == [(3, 1), (1, 2), (2, 2)]
    assert rank_of(placings, ("countback",)) == [(1, 1), (2, 2), (3, 3)]
    assert rank_of(placings, ("best_place",)) == [(1, 1), (2, 2), (3, 3)]
    assert rank_of(placings, ("played",)) == [(3, 1), (2, 2), (1, 3)]
    assert rank_of(placings, ("place_sum",)) == [(1, 1), (2, 1), (3, 3)]  # 6, 6, 13: 1 and 2 equal on the sum
    assert rank_of(placings, ("place_sum", "played")) == [(2, 1), (1, 2), (3, 3)]
    assert set(TIEBREAKS) == {"firsts", "seconds", "thirds", "countback", "best_place", "played", "place_sum"}


def test_place_sum_ties_share_a_rank() -> None:
    placings = [Placing(1, 1, 1, 9), Placing(1, 2, 5, 9), Placing(2, 1, 2, 9), Placing(2, 2, 4, 9)]
    assert rank_of(placings, ("place_sum",)) == [(1, 1), (2, 1)]


def test_countback_goes_down_the_places() -> None:
    """Equal on 1st places, then on 2nd places: more 3rd places wins."""
    placings = [Placing(1, 1, 1, 9), Placing(1, 2, 3, 9), Placing(2, 1, 1, 9), Placing(2, 2, 4, 9)]
    assert rank_of(placings, ("countback",)) == [(1, 1), (2, 2)]
    assert rank_of(placings, ("firsts",)) == [(1, 1), (2, 1)]


def test_the_chain_is_used_in_order_and_points_come_first() -> None:
    placings = [Placing(1, 1, 1, 9), Placing(2, 1, 2, 9), Placing(2, 2, 2, 9)]  # 25 vs 36 points
    rows = series_standings(placings, Rules(F1, chain=("firsts",)))
    assert [(r.player, r.rank, r.points) for r in rows] == [(2, 1, 36), (1, 2, 25)]
    assert rows[0].tiebreaks == {"firsts": 0} and rows[1].tiebreaks == {"firsts": 1}


@pytest.mark.parametrize("chain", [(), ("countback", "best_place", "played")])
def test_ranks_are_dense_from_one_with_gaps_after_ties(chain: tuple[str, ...]) -> None:
    placings = [Placing(p, 1, 1, 9) for p in (1, 2)] + [Placing(3, 1, 3, 9)]
    assert [r.rank for r in series_standings(placings, Rules(F1, chain=chain))] == [1, 1, 3]
