"""What player and game pages read from the snapshot: one seat scored alone equals the stage's
scoring, and the per-stage totals equal the standings' rows."""

from __future__ import annotations

from typing import Any

import pytest

from public.snapshot import Snapshot

pytestmark = pytest.mark.django_db


def test_one_seat_scored_alone_equals_the_stage_scoring(generated: Any) -> None:
    tournament = generated("snap", players=30, rounds=3, stages=2, standings_hidden=False)
    snapshot = Snapshot(tournament)
    for stage in snapshot.model.stages:
        seats = snapshot.scoring.scored_seats(stage)
        assert seats
        for s in seats:
            assert snapshot.scored_seat(stage.id, s.round, s.game.table, s.seat.player) == s
    assert snapshot.scored_seat("s1", 99, 1, "p0001") is None


def test_totals_equal_the_standings_rows(generated: Any) -> None:
    tournament = generated("snap", players=30, rounds=3, stages=2, standings_hidden=False)
    snapshot = Snapshot(tournament)
    for stage in ("s1", "s2"):
        totals = snapshot.totals(stage)
        rows = snapshot.standings(stage).rows
        assert set(totals) == {r.player for r in rows}
        for r in rows:
            t = totals[r.player]
            assert (t["rank"], t["points"], t["eligible"], t["tally"]["games"], t["tally"]["wins"]) == (
                r.rank, r.points, r.eligible, r.tally.games, r.tally.wins)
        assert Snapshot(tournament).totals(stage) == totals  # from the cache now
