"""Byes and their limits (docs/rules/zvezdy.md; "Byes" in docs/rules/seating-methods.md and docs/seating.md)."""

from __future__ import annotations

import pytest

from scoring.seating import ByeLimitError, SeatingError, SeatingHistory, SeatingRequest, bye_feasibility, plan
from tests.scoring.seating.helpers import ids


def test_47_players_over_8_rounds_cannot_keep_one_bye_each() -> None:
    msg = bye_feasibility(47, 10, 8, 1)
    assert msg is not None
    assert "56 byes" in msg and "Add 3 guest(s)" in msg and "at most 6 round(s)" in msg


def test_feasible_shapes_pass() -> None:
    assert bye_feasibility(47, 10, 6, 1) is None
    assert bye_feasibility(50, 10, 8, 1) is None
    assert bye_feasibility(47, 10, 8, None) is None
    assert bye_feasibility(5, 10, 1, None) is not None


def test_the_bye_limit_is_enforced_when_planning() -> None:
    players = ids(13)
    with pytest.raises(ByeLimitError, match="add 3 guest"):
        plan(SeatingRequest(players, 10, "random", rounds=5, max_byes=1))
    rounds = plan(SeatingRequest(players, 10, "random", rounds=4, max_byes=1))
    byes = [p for r in rounds for p in r.byes]
    assert len(byes) == len(set(byes)) == 12


def test_bye_limit_counts_the_history() -> None:
    players = ids(12)
    history = SeatingHistory((), {p: 1 for p in players[:11]})
    with pytest.raises(ByeLimitError):
        plan(SeatingRequest(players, 10, "balanced", history, max_byes=1))
    assert issubclass(ByeLimitError, SeatingError) and issubclass(SeatingError, ValueError)


def test_swiss_bye_limit_skips_the_bottom_player_who_had_one() -> None:
    order = ids(11)
    history = SeatingHistory((), {order[-1]: 1})
    (rnd,) = plan(SeatingRequest(ids(11), 10, "swiss_zvezdy", history, order=order, max_byes=1))
    assert rnd.byes == (order[-2],)


@pytest.mark.parametrize("method", ["random", "balanced"])
def test_guests_sit_out_before_any_registered_player(method: str) -> None:
    """tomsk 4.1: with 22 players of whom 2 are guests at tables of 10, the 2 byes are the guests', round after
    round, whatever their byes so far: a registered player never loses a game to a guest."""
    players = ids(22)
    guests = frozenset(players[-2:])
    history = SeatingHistory((), {p: 1 for p in guests})
    rounds = plan(SeatingRequest(players, 10, method, history, rounds=3, guests=guests, effort=0.2))
    assert [set(r.byes) for r in rounds] == [set(guests)] * 3


def test_a_registered_player_sits_out_only_when_every_guest_does() -> None:
    players = ids(23)
    guests = frozenset(players[:2])
    for seed in range(5):
        (planned,) = plan(SeatingRequest(players, 10, "random", guests=guests, seed=seed))
        assert guests <= set(planned.byes) and len(planned.byes) == 3


def test_swiss_byes_take_the_guests_first_even_at_the_top_of_the_order() -> None:
    players = ids(21)
    guests = frozenset(players[:1])  # ranked first, yet a guest
    (planned,) = plan(SeatingRequest(players, 10, "swiss_tens", order=tuple(players), guests=guests))
    assert set(planned.byes) == set(guests)
