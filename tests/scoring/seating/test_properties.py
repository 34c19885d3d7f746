"""Property tests: every plan is a valid set of rounds, whatever the shape and method."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seating import SeatingHistory, SeatingRequest, plan, report
from tests.scoring.seating.helpers import check_round, ids


@st.composite
def requests(draw: st.DrawFn) -> SeatingRequest:
    k = draw(st.integers(2, 12))
    n = draw(st.integers(k, 4 * k + k - 1))
    method = draw(st.sampled_from(["random", "balanced", "swiss_tens", "swiss_zvezdy", "swiss_zvezdy_spread"]))
    swiss = method.startswith("swiss")
    rounds = 1 if swiss else draw(st.integers(1, 4))
    players = ids(n)
    history_rounds = []
    for _ in range(draw(st.integers(0, 2))):
        perm = list(draw(st.permutations(players)))
        history_rounds.append(tuple(tuple(perm[i : i + k]) for i in range(0, n - n % k, k)))
    order = tuple(draw(st.permutations(players))) if swiss else None
    tables = draw(st.one_of(st.none(), st.integers(1, n // k)))
    return SeatingRequest(
        players, k, method, SeatingHistory(tuple(history_rounds)), rounds=rounds,
        seed=draw(st.integers(0, 1000)), tables=tables, order=order, effort=0.01,
    )


@settings(max_examples=60, deadline=None)
@given(requests())
def test_every_player_once_per_round_and_seats_1_to_k(req: SeatingRequest) -> None:
    rounds = plan(req)
    assert len(rounds) == req.rounds
    g = req.tables or len(req.players) // req.table_size
    for rnd in rounds:
        check_round(rnd, req.players, req.table_size)
        assert len(rnd.tables) == g
    rep = report([r.tables for r in rounds], table_size=req.table_size)
    for row in rep["players"].values():
        assert all(1 <= int(s) <= req.table_size for s in row["seats"])
    assert rep["q"] >= rep["lower_bound"]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([3, 4, 5, 7, 8, 11, 16]), st.integers(2, 31), st.integers(2, 16))
def test_field_construction_meets_the_bound_whenever_it_applies(g: int, k: int, rounds: int) -> None:
    from scoring.seating.bounds import shape_bound
    from scoring.seating.construct import algebraic_offsets, cyclic_rounds

    made = algebraic_offsets(g, k, rounds)
    if made is None:
        return
    f, xor = made
    tables = cyclic_rounds(list(range(g * k)), g, k, f, xor)
    rep = report([[tuple(str(p) for p in t) for t in rnd] for rnd in tables])
    assert rep["q"] == shape_bound(g * k, k, rounds)
    assert rep["max_meetings"] <= 2


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 24), st.integers(2, 23), st.integers(2, 23))
def test_every_exact_block_meets_the_bound(g: int, k: int, rounds: int) -> None:
    from scoring.seating.bounds import shape_bound
    from scoring.seating.construct import exact_block, exact_horizon

    block = exact_block(g, k, rounds)
    if block is None:
        assert rounds > exact_horizon(g, k) or exact_horizon(g, k) == 0 or rounds < 2
        return
    assert rounds <= exact_horizon(g, k)
    for tables in block:
        assert len(tables) == g and all(len(t) == k for t in tables)
        assert sorted(p for t in tables for p in t) == list(range(g * k))
    rep = report([[tuple(str(p) for p in t) for t in rnd] for rnd in block])
    assert rep["q"] == shape_bound(g * k, k, rounds)
    assert rep["max_meetings"] <= 2
