"""The Elo step of scoring.rating worked by hand (docs/rating.md)."""

from __future__ import annotations

import pytest

from scoring.rating import RatedGame, RatedSeat, apply, expected, rate_game, rate_round


def seats(red: list[int], black: list[int], maniac: list[int] = ()) -> tuple[RatedSeat, ...]:  # type: ignore[assignment]
    return (tuple(RatedSeat(p, "red") for p in red) + tuple(RatedSeat(p, "black") for p in black)
            + tuple(RatedSeat(p, "maniac") for p in maniac))


def test_equal_sides_split_k_in_half() -> None:
    game = RatedGame(1, "red", seats(list(range(1, 8)), [8, 9, 10]), 20.0, 20.0)
    changes = rate_game({}, game)
    assert [c.after for c in changes] == [1510.0] * 7 + [1490.0] * 3
    assert all(c.won for c in changes[:7]) and not any(c.won for c in changes[7:])


def test_one_game_worked_by_hand() -> None:
    # Red: seven players at 1500 (average 1500). Black: 1600, 1550, 1450 (average 1533.33...).
    # E(red) = 1 / (1 + 10^((1533.33 - 1500) / 400)) = 1 / (1 + 10^0.083333) = 1 / (1 + 1.211528) = 0.452176
    # Red wins with K = 20: each red player gains 20 * (1 - 0.452176) = 10.956478;
    # each black player loses K * E(black) = 20 * 0.547824 = 10.956478.
    ratings = {8: 1600.0, 9: 1550.0, 10: 1450.0}
    changes = rate_game(ratings, RatedGame(7, "red", seats(list(range(1, 8)), [8, 9, 10]), 20.0, 20.0))
    assert expected(1500.0, 1533.0 + 1 / 3) == pytest.approx(0.452176, abs=1e-6)
    assert changes[0].after == pytest.approx(1510.956478, abs=1e-6)
    assert [round(c.after, 6) for c in changes[7:]] == [1589.043522, 1539.043522, 1439.043522]


def test_black_wins_with_its_own_k() -> None:
    changes = rate_game({}, RatedGame(1, "black", seats([1, 2, 3, 4, 5, 6, 7], [8, 9, 10]), 10.0, 30.0))
    assert changes[0].after == 1495.0  # red loses K_red * E(red) = 10 * 0.5
    assert changes[9].after == 1515.0  # black gains K_black * (1 - E(black)) = 30 * 0.5


def test_a_maniac_is_a_side_alone_with_blacks_k() -> None:
    # tomsk: the maniac won alone against red and black together (average 1500 both): E = 0.5.
    changes = rate_game({}, RatedGame(1, "maniac", seats([1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11], [12]), 20.0, 30.0))
    by_player = {c.player: c for c in changes}
    assert by_player[12].won and by_player[12].after == 1515.0
    assert by_player[1].after == 1490.0 and by_player[9].after == 1485.0


def test_a_game_without_two_sides_rates_nobody() -> None:
    assert rate_game({}, RatedGame(1, "maniac", seats([1, 2], [3]), 20.0, 20.0)) == []


def test_a_round_starts_from_the_ratings_before_it() -> None:
    games = [RatedGame(1, "red", seats([1], [2]), 20.0, 20.0), RatedGame(2, "black", seats([3], [4]), 20.0, 20.0)]
    ratings = {1: 1600.0}
    changes = rate_round(ratings, games)
    apply(ratings, changes)
    assert ratings[1] == pytest.approx(1600 + 20 * (1 - expected(1600, 1500)))
    assert ratings[4] == 1510.0 and ratings[3] == 1490.0
