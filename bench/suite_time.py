"""How long CI takes: ``bash .ci/run`` on a fresh clone of a commit, timed, with the tests counted.

    python bench/suite_time.py                 # this checkout's HEAD, the machine as it is
    python bench/suite_time.py --commit 72c059e --busy 1   # an older commit, one core kept busy meanwhile

Each run clones the commit into a new folder (a fresh ``.venv`` too: pip's own cache makes the install fast, as on
CI), runs ``.ci/run`` there and prints one line: the wall time, the tests' own time as pytest reports it, how many
passed, were skipped, deselected and their subtests, the CPU time its own processes used (PostgreSQL's aside), the
load average before and after, and how busy the cores were (from ``/proc/stat``). ``--busy N`` starts N processes
that spin for the whole run: the "loaded machine" of bench/README.md ("The test suite"). The clone is removed
afterwards unless ``--keep``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def spin() -> None:
    while True:
        pass


def cpu_times() -> tuple[int, int]:
    """(busy, total) jiffies of all cores since boot."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle and iowait
    return sum(fields) - idle, sum(fields)


def counts(log: str) -> str:
    summary = [line for line in log.splitlines() if re.search(r"\d+ passed", line)]
    return summary[-1].strip("= ") if summary else "no summary line"


def run_once(commit: str, busy: int, keep: bool) -> int:
    folder = Path(tempfile.mkdtemp(prefix="suite-time-"))
    subprocess.run(["git", "clone", "-q", str(ROOT), str(folder)], check=True)
    subprocess.run(["git", "checkout", "-q", commit], cwd=folder, check=True)
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(busy)]
    for process in spinners:
        process.start()
    load_before = os.getloadavg()[0]
    busy_before, total_before = cpu_times()
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(["bash", ".ci/run"], cwd=folder, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic() - started
    # the CPU of the run's own processes (install, lint, tests, browsers, servers; not PostgreSQL's): its work,
    # which the machine's load changes far less than the wall time
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    busy_after, total_after = cpu_times()
    load_after = os.getloadavg()[0]
    for process in spinners:
        process.kill()
    log = done.stdout + done.stderr
    (Path(tempfile.gettempdir()) / f"suite-time-{commit[:12]}-{int(started)}.log").write_text(log)
    tests = re.search(r"in ([\d.]+)s", counts(log))
    print(f"{commit[:12]} busy={busy} exit={done.returncode} wall={wall / 60:.1f} min "
          f"tests={float(tests.group(1)) / 60 if tests else float('nan'):.1f} min cpu={cpu / 60:.1f} min | "
          f"{counts(log)} | "
          f"load {load_before:.1f} -> {load_after:.1f} | cores busy "
          f"{100 * (busy_after - busy_before) / max(1, total_after - total_before):.0f}%", flush=True)
    if not keep:
        shutil.rmtree(folder, ignore_errors=True)
    return done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--commit", default="HEAD", help="the commit to time (default: HEAD)")
    parser.add_argument("--busy", type=int, default=0, help="processes that keep a core busy during the run")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the clone (its path is printed)")
    args = parser.parse_args()
    commit = subprocess.run(["git", "rev-parse", args.commit], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    status = 0
    for _ in range(args.repeat):
        status = run_once(commit, args.busy, args.keep) or status
    return status


if __name__ == "__main__":
    sys.exit(main())
