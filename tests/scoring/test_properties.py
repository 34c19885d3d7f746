"""Invariants on generated tournaments (hypothesis): ranking shape, sums, round trips, order."""

from __future__ import annotations

import random
from dataclasses import replace
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import fileio
from scoring.generate import generate
from scoring.model import Tournament
from scoring.standings import compute_standings, standings_json
from scoring.validation import ruleset_for

tournaments = st.builds(
    generate,
    ruleset_id=st.sampled_from(["tomsk", "kostroma", "fiim", "zvezdy"]),
    players=st.integers(min_value=10, max_value=40),
    rounds=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=10**6),
    stages=st.integers(min_value=1, max_value=3),
    guests=st.integers(min_value=0, max_value=3),
)
SETTINGS = settings(max_examples=40, deadline=None)


@SETTINGS
@given(tournaments)
def test_ranks_are_a_competition_ranking_in_points_order(t: Tournament) -> None:
    for stage in t.stages:
        rows = compute_standings(t, stage.id).rows
        for index, row in enumerate(rows):
            if index == 0:
                assert row.rank == 1
            else:
                previous = rows[index - 1]
                assert row.points <= previous.points
                assert row.rank in (previous.rank, index + 1)
                assert row.rank >= previous.rank


@SETTINGS
@given(tournaments)
def test_a_players_total_is_the_sum_of_its_parts(t: Tournament) -> None:
    ruleset, _ = ruleset_for(t)
    p = ruleset.params
    for stage in t.stages:
        for row in compute_standings(t, stage.id).rows:
            tally = row.tally
            seats_total = Fraction(0)
            for scored in tally.seats:
                parts = scored.points.parts()
                assert sum(parts.values(), Fraction(0)) == scored.points.total
                seats_total += scored.points.total * scored.multiplier
            assert tally.game_points == seats_total
            assert tally.bye_points == p.bye_points * tally.byes
            assert tally.absence_points == p.absence_points * tally.absences
            assert row.points == tally.game_points + tally.bye_points + tally.absence_points + tally.penalty_points
            assert tally.games == len(tally.seats) and tally.wins <= tally.games


@SETTINGS
@given(tournaments)
def test_load_dump_round_trip(t: Tournament) -> None:
    dumped = fileio.dump(t)
    assert fileio.load(dumped) == t
    assert fileio.dump(fileio.load(dumped)) == dumped


def shuffled(t: Tournament, seed: int) -> Tournament:
    rng = random.Random(seed)

    def mix(items: tuple[object, ...]) -> tuple[object, ...]:
        out = list(items)
        rng.shuffle(out)
        return tuple(out)

    stages = tuple(
        replace(stage, rounds=mix(tuple(  # type: ignore[arg-type]
            replace(round_, games=mix(tuple(replace(game, seats=mix(game.seats)) for game in round_.games)))
            for round_ in stage.rounds)))
        for stage in t.stages)
    return replace(t, players=mix(t.players), stages=stages)  # type: ignore[arg-type]


@SETTINGS
@given(tournaments, st.integers(min_value=0, max_value=1000))
def test_standings_do_not_depend_on_the_order_of_the_file(t: Tournament, seed: int) -> None:
    other = shuffled(t, seed)
    for stage in t.stages:
        assert standings_json(compute_standings(other, stage.id)) == standings_json(compute_standings(t, stage.id))


@SETTINGS
@given(tournaments)
def test_guests_are_never_ranked_and_advancement_follows_the_standings(t: Tournament) -> None:
    guests = {player.id for player in t.players if player.guest}
    for stage in t.stages:
        standings = compute_standings(t, stage.id)
        ranked = [row.player for row in standings.rows]
        assert not guests & set(ranked)
        assert [p for p in ranked if p in set(standings.advance)] == list(standings.advance)
        assert not guests & set(standings.winners or ())
