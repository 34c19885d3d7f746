"""Load test of the public pages as a large event serves them (README "Running a large event").

Loads a generated 1,000-player, 12-round ``fiim`` tournament into a dedicated PostgreSQL database
(through the import service), serves it with gunicorn (several workers) under the production
profile (``mafia_tournament.settings_production``: DEBUG off, WhiteNoise, the shared Redis
cache), and drives the standings, seating and player pages and the standings API with concurrent
clients on loopback (threads of the standard library's ``http.client``), one bounded phase per
page kind and one mixed phase. Prints requests per second, p50/p95/p99 latency and errors.

    .venv/bin/python bench/public_load.py [--workers 4] [--clients 16] [--seconds 10]

The requests carry ``X-Forwarded-Proto: https`` as the TLS-terminating reverse proxy would.
Needs PostgreSQL (``--server-url``, default ``postgres://postgres@127.0.0.1:5432``) and Redis
(``REDIS_URL``, default ``redis://127.0.0.1:6379/0``); its cache keys get a prefix of their own,
deleted at the end, and the database ``--database`` (default ``mafia_bench``) is created anew.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SLUG = "bench-1000"
STAGE = "s1"


def recreate_database(server_url: str, name: str) -> None:
    import psycopg2

    conn = psycopg2.connect(f"{server_url}/postgres")
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cur.execute(f'CREATE DATABASE "{name}"')
    conn.close()


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def load_tournament(players: int, rounds: int) -> float:
    """Generate, dump and import the tournament in this process (Django set up from ``os.environ``)."""
    import django

    django.setup()
    from scoring import fileio
    from scoring.generate import generate
    from tournaments.services.files import import_text

    started = time.perf_counter()
    data = fileio.dump(generate("fiim", players=players, rounds=rounds, seed=11))
    data["tournament"] = {"name": f"Benchmark open ({players} players)", "standings_hidden": False}
    import_text(json.dumps(data), slug=SLUG)
    return time.perf_counter() - started


def wait_until_up(port: int, server: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn stopped before answering")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/p/", headers=HEADERS)
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer in time")


HEADERS = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1", "Accept-Language": "ru"}


def urls_by_kind(players: int, rounds: int) -> dict[str, list[str]]:
    rng = random.Random(5)
    return {
        "standings": [f"/p/{SLUG}/standings/{STAGE}/"],
        "seating": [f"/p/{SLUG}/seating/{STAGE}/{n}/" for n in range(1, rounds + 1)],
        "player": [f"/p/{SLUG}/players/p{n:04d}/" for n in rng.sample(range(1, players + 1), min(200, players))],
        "api standings": [f"/api/tournaments/{SLUG}/standings/?stage={STAGE}"],
    }


def get(conn: http.client.HTTPConnection, url: str) -> tuple[int, int]:
    conn.request("GET", url, headers=HEADERS)
    response = conn.getresponse()
    body = response.read()
    return response.status, len(body)


def phase(port: int, urls: list[str], clients: int, seconds: float) -> dict[str, Any]:
    """``clients`` threads, each with its own connection, requesting ``urls`` until the deadline."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def client(index: int) -> None:
        rng = random.Random(index)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        bad: list[str] = []
        while time.perf_counter() < deadline:
            url = rng.choice(urls)
            started = time.perf_counter()
            try:
                status, _size = get(conn, url)
                if status != 200:
                    bad.append(f"{status} {url}")
            except (OSError, http.client.HTTPException) as error:
                bad.append(f"{type(error).__name__} {url}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - started)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    return summary(latencies, errors, elapsed)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * len(sorted_values)) - 1))
    return sorted_values[index]


def summary(latencies: list[float], errors: list[str], elapsed: float) -> dict[str, Any]:
    ordered = sorted(latencies)
    return {
        "requests": len(ordered) + len(errors), "rps": (len(ordered) + len(errors)) / elapsed,
        "p50": percentile(ordered, 0.50) * 1000, "p95": percentile(ordered, 0.95) * 1000,
        "p99": percentile(ordered, 0.99) * 1000, "errors": len(errors), "error_sample": errors[:3],
    }


def cold(port: int, urls: dict[str, list[str]]) -> dict[str, tuple[float, int]]:
    """The first request of one URL per kind: an empty cache, the page rendered from the database."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    out = {}
    for kind, some in urls.items():
        started = time.perf_counter()
        status, size = get(conn, some[0])
        if status != 200:
            raise SystemExit(f"{some[0]} answered {status}")
        out[kind] = ((time.perf_counter() - started) * 1000, size)
    conn.close()
    return out


def warm(port: int, urls: dict[str, list[str]], clients: int) -> None:
    every = [u for some in urls.values() for u in some]
    chunks = [every[i::clients] for i in range(clients)]

    def run(chunk: list[str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for url in chunk:
            get(conn, url)
        conn.close()

    threads = [threading.Thread(target=run, args=(c,), daemon=True) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def delete_cache_keys(redis_url: str, prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--server-url", default=os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432"))
    parser.add_argument("--database", default="mafia_bench")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop gunicorn and clean up on kill too

    redis_url = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    prefix = f"bench-{secrets.token_hex(4)}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings_production",
           "SECRET_KEY": secrets.token_urlsafe(50), "REDIS_URL": redis_url, "CACHE_KEY_PREFIX": prefix,
           "ALLOWED_HOSTS": "127.0.0.1", "DATABASE_URL": f"{args.server_url}/{args.database}"}
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))

    recreate_database(args.server_url, args.database)
    manage(env, "migrate", "--noinput")
    manage(env, "collectstatic", "--noinput")
    seconds_to_load = load_tournament(args.players, args.rounds)
    print(f"loaded {args.players} players x {args.rounds} rounds into {args.database} in {seconds_to_load:.1f} s")

    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "mafia_tournament.wsgi", "--workers", str(args.workers),
         "--bind", f"127.0.0.1:{args.port}", "--log-level", "warning", "--timeout", "120"],
        cwd=ROOT, env=env,
    )
    try:
        wait_until_up(args.port, server)
        urls = urls_by_kind(args.players, args.rounds)
        first = cold(args.port, urls)
        warm(args.port, urls, args.clients)
        print(f"gunicorn {args.workers} sync workers, {args.clients} concurrent clients, "
              f"{args.seconds:.0f} s per phase, loopback, production profile, Redis cache")
        print("cold (first request, empty cache): " + ", ".join(
            f"{kind} {ms:.0f} ms ({size // 1024} KiB)" for kind, (ms, size) in first.items()))
        print(f"{'phase':<15}{'requests':>9}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}")
        phases = [*urls.items(), ("mixed", [u for some in urls.values() for u in some])]
        for kind, some in phases:
            r = phase(args.port, some, args.clients, args.seconds)
            print(f"{kind:<15}{r['requests']:>9}{r['rps']:>9.0f}{r['p50']:>9.1f}{r['p95']:>9.1f}"
                  f"{r['p99']:>9.1f}{r['errors']:>8}" + (f"  {r['error_sample']}" if r["errors"] else ""))
        median_size = statistics.median(size for _ms, size in first.values())
        print(f"median page size {median_size / 1024:.0f} KiB")
    finally:
        server.terminate()
        server.wait(timeout=30)
        delete_cache_keys(redis_url, prefix)


if __name__ == "__main__":
    sys.stdout.reconfigure(line_buffering=True)  # type: ignore[union-attr]
    main()
