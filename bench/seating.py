"""Seating benchmark: repeats against the bound and plain random, seats, time.

Run from the repository root: `python bench/seating.py [--quick] [--shapes 70/10/4,96/12/8]`.
For each shape (players/table size/rounds): `balanced` planned as one block and one round at a
time from the history, against `random` (median of 20 seeds). q = sum over pairs of C(m, 2),
the figure the pigeonhole bound limits; max = the most any pair met; seat = repeated seat
numbers; early = least..most early seats (1-3) a player got; tables = returns to a table.
Then `balanced` as one block for seeds 1-5 of 70/10/7 and 200/10/10, Q and time each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.seating import PlannedRound, SeatingHistory, SeatingRequest, plan, report, shape_bound

SHAPES = [(70, 10, 4), (70, 10, 7), (96, 12, 8), (200, 10, 10), (1000, 10, 12)]
SEED_SHAPES = [(70, 10, 7), (200, 10, 10)]  # the goal: <= 450 and <= 10 for every seed


def players(n: int) -> tuple[str, ...]:
    return tuple(f"p{i:04d}" for i in range(n))


def block(n: int, k: int, rounds: int, method: str, seed: int) -> list[PlannedRound]:
    return plan(SeatingRequest(players(n), k, method, rounds=rounds, seed=seed))


def one_at_a_time(n: int, k: int, rounds: int, seed: int) -> list[PlannedRound]:
    done: list[PlannedRound] = []
    for r in range(rounds):
        history = SeatingHistory(tuple(x.tables for x in done))
        done.extend(plan(SeatingRequest(players(n), k, "balanced", history, seed=seed + r)))
    return done


def figures(rounds: list[PlannedRound], k: int) -> dict[str, Any]:
    return report([r.tables for r in rounds], table_size=k)


def line(label: str, rep: dict[str, Any], seconds: float | None) -> str:
    spread = rep["seat_spread"]
    assert isinstance(spread, dict)
    early = spread["early"]
    took = "" if seconds is None else f"  {seconds:6.2f} s"
    return (
        f"  {label:<22} q {rep['q']:>5}  max {rep['max_meetings']}  pairs>=2 {rep['pairs_met_twice_or_more']:>5}"
        f"  seat {rep['same_seat_repeats']:>5}  early {early['min']}..{early['max']}"
        f"  tables {rep['table_repeats']:>5}{took}"
    )


def shape(text: str) -> tuple[int, int, int]:
    """``70/10/4``: players, table size, rounds."""
    n, k, rounds = (int(x) for x in text.split("/"))
    return n, k, rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="5 random seeds, no round-at-a-time runs")
    parser.add_argument("--shapes", help="comma-separated n/k/rounds, e.g. 70/10/4,96/12/8")
    args = parser.parse_args()
    shapes = SHAPES
    if args.shapes:
        shapes = [shape(s) for s in args.shapes.split(",")]
    seeds = 5 if args.quick else 20
    for n, k, rounds in shapes:
        bound = shape_bound(n, k, rounds)
        reps = [figures(block(n, k, rounds, "random", s), k) for s in range(seeds)]
        q_med = statistics.median(int(r["q"]) for r in reps)
        max_med = statistics.median(int(r["max_meetings"]) for r in reps)
        seat_med = statistics.median(int(r["same_seat_repeats"]) for r in reps)
        print(f"{n}/{k}/{rounds}: lower bound q {bound}; random (median of {seeds}) q {q_med:g}, "
              f"max {max_med:g}, seat {seat_med:g}")
        start = time.perf_counter()
        rep = figures(block(n, k, rounds, "balanced", 0), k)
        took = time.perf_counter() - start
        over = f"{100 * (int(rep['q']) - bound) / bound:+.1f}% vs bound" if bound else ""
        print(line("balanced, block", rep, took), over)
        if not args.quick:
            start = time.perf_counter()
            rep = figures(one_at_a_time(n, k, rounds, 0), k)
            took = time.perf_counter() - start
            over = f"{100 * (int(rep['q']) - bound) / bound:+.1f}% vs bound" if bound else ""
            print(line("balanced, round by round", rep, took), over)
        sys.stdout.flush()
    by_seed(SEED_SHAPES, range(1, 6))


def by_seed(shapes: list[tuple[int, int, int]], seeds: range) -> None:
    """Q and time of `balanced` as one block, seed by seed."""
    for n, k, rounds in shapes:
        cells = []
        for seed in seeds:
            start = time.perf_counter()
            rep = figures(block(n, k, rounds, "balanced", seed), k)
            cells.append(f"seed {seed}: q {rep['q']} max {rep['max_meetings']} {time.perf_counter() - start:.2f} s")
        print(f"{n}/{k}/{rounds} balanced block (bound {shape_bound(n, k, rounds)}): " + "; ".join(cells))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
