"""Benchmark: standings of generated tournaments (1,000 and 10,000 players, 12 rounds).

Prints the best of 3 times to compute one stage's standings, the time to validate the
tournament, and the peak memory of the standings computation.
Run: ``python bench/standings.py`` (or ``make bench``).
"""

from __future__ import annotations

import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.generate import generate
from scoring.standings import compute_standings
from scoring.validation import validate


def measure(ruleset: str, players: int, rounds: int) -> None:
    t = generate(ruleset, players=players, rounds=rounds, seed=7)
    start = time.perf_counter()
    problems = validate(t)
    validated = time.perf_counter() - start
    assert not problems, problems[:3]
    timings = []
    for _ in range(3):
        start = time.perf_counter()
        standings = compute_standings(t, t.stages[0].id)
        timings.append(time.perf_counter() - start)
    elapsed = min(timings)
    # Memory is traced in a separate run: tracing slows Python several times over.
    tracemalloc.start()
    compute_standings(t, t.stages[0].id)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    games = sum(len(r.games) for r in t.stages[0].rounds)
    print(f"{ruleset:9} {players:6} players {rounds:3} rounds {games:6} games: standings {elapsed * 1000:8.1f} ms, "
          f"validate {validated * 1000:8.1f} ms, peak {peak / 2**20:6.1f} MiB, {len(standings.rows)} ranked")


if __name__ == "__main__":
    for ruleset in ("fiim", "zvezdy", "kostroma", "tomsk"):
        measure(ruleset, 1000, 12)
    measure("fiim", 10000, 12)
    measure("zvezdy", 10000, 12)
