"""Benchmark: ``python -m scoring`` on a generated 1,000-player, 12-round ``fiim`` file.

Prints, for each command, the best of N whole processes (wall clock and CPU time), then the work of
``standings`` after its imports, phase by phase (best of N in one process). Run from the repository root:
``python bench/cli.py [--runs N] [--file PATH]`` (the file is written there first, ``/tmp/big.json`` by default).
The load average is printed: the machine's other work slows every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scoring import fileio  # noqa: E402
from scoring.generate import generate  # noqa: E402

T = TypeVar("T")


def commands(path: str) -> dict[str, list[str]]:
    return {
        "python -c pass": ["-c", "pass"],
        "validate": ["-m", "scoring", "validate", path],
        "standings": ["-m", "scoring", "standings", path, "--stage", "s1"],
        "standings --format text": ["-m", "scoring", "standings", path, "--stage", "s1", "--format", "text"],
        "advance": ["-m", "scoring", "advance", path, "--stage", "s1"],
        "seating-report": ["-m", "scoring", "seating-report", path],
        "seat --method random": ["-m", "scoring", "seat", path, "--stage", "s1", "--method", "random"],
        "seat --method swiss_tens": ["-m", "scoring", "seat", path, "--stage", "s1", "--method", "swiss_tens"],
    }


def whole_process(args: list[str], runs: int) -> tuple[float, float]:
    """The best wall-clock and CPU times of ``runs`` processes, in seconds."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # compiled modules are kept, as in any checkout after its first run
    wall = cpu = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, check=True)
        wall = min(wall, time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = min(cpu, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return wall, cpu


def best(runs: int, work: Callable[[], T]) -> tuple[float, T]:
    elapsed = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        result = work()
        elapsed = min(elapsed, time.perf_counter() - start)
    return elapsed, result


def phases(path: str, runs: int) -> list[tuple[str, float]]:
    """The standings command's work after its imports, as ``python -m scoring standings`` does it."""
    from scoring.standings import compute_standings, standings_json
    from scoring.validation import validate

    out = []
    elapsed, text = best(runs, lambda: fileio.read_file(path))
    out.append(("read the file", elapsed))
    elapsed, data = best(runs, lambda: fileio.read_json(text))
    out.append(("parse the JSON (read_json)", elapsed))
    elapsed, _ = best(runs, lambda: fileio.schema_problems(data) + fileio.blank_name_problems(data))
    out.append(("schema (jsonschema-rs) and blank names", elapsed))
    elapsed, tournament = best(runs, lambda: fileio.from_json(data))
    out.append(("build the model (from_json)", elapsed))
    elapsed, _ = best(runs, lambda: validate(tournament))
    out.append(("rules check (validate)", elapsed))
    elapsed, standings = best(runs, lambda: compute_standings(tournament, "s1"))
    out.append(("compute_standings", elapsed))
    elapsed, _ = best(runs, lambda: json.dumps(standings_json(standings), ensure_ascii=False, indent=1))
    out.append(("write the JSON", elapsed))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--file", default="/tmp/big.json")
    args = parser.parse_args()
    Path(args.file).write_text(json.dumps(fileio.dump(generate("fiim", players=1000, rounds=12, seed=7))))
    for name, command in commands(args.file).items():
        wall, cpu = whole_process(command, args.runs)
        print(f"{name:26} wall {wall * 1000:5.0f} ms   CPU {cpu * 1000:5.0f} ms")
    print()
    rows = phases(args.file, args.runs)
    for name, elapsed in rows:
        print(f"{name:40} {elapsed * 1000:6.1f} ms")
    print(f"{'all of it':40} {sum(e for _, e in rows) * 1000:6.1f} ms")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
