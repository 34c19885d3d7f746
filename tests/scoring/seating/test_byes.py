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
