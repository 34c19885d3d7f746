"""What the load benchmarks share: a fresh PostgreSQL database, gunicorn under the production
profile with the Redis cache (its keys under a prefix of their own), HTTP clients on loopback,
and the latency figures (requests per second, p50/p95/p99, errors)."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import subprocess
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# As the TLS-terminating reverse proxy would send them (the production profile redirects plain HTTP).
HEADERS = {"X-Forwarded-Proto": "https", "Host": "127.0.0.1", "Accept-Language": "ru"}
# What a phone's browser adds: it takes brotli and gzip (the answers' size on the wire is what it reads).
PHONE = {"Accept-Encoding": "gzip, deflate, br"}
REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def production_env(server_url: str, database: str) -> dict[str, str]:
    """The production profile's environment for this run, applied to this process too (the
    benchmark loads its tournaments and checks results in-process, through the app's services)."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings_production",
           "SECRET_KEY": secrets.token_urlsafe(50), "REDIS_URL": REDIS_URL,
           "CACHE_KEY_PREFIX": f"bench-{secrets.token_hex(4)}", "ALLOWED_HOSTS": "127.0.0.1",
           "DATABASE_URL": f"{server_url}/{database}"}
    os.environ.update(env)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return env


def recreate_database(server_url: str, name: str) -> None:
    import psycopg2

    conn = psycopg2.connect(f"{server_url}/postgres")
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        cur.execute(f'CREATE DATABASE "{name}"')
    conn.close()


def drop_database(server_url: str, name: str) -> None:
    import psycopg2

    conn = psycopg2.connect(f"{server_url}/postgres")
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    conn.close()


def manage(env: dict[str, str], *args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, check=True,
                   stdout=subprocess.DEVNULL)


def static_is_current() -> bool:
    """Whether ``collectstatic``'s manifest is newer than every file of ``static/`` (it takes half a
    minute on a busy machine: each file is hashed and compressed)."""
    manifest = ROOT / "staticfiles" / "staticfiles.json"
    if not manifest.exists():
        return False
    newest = max((p.stat().st_mtime for p in (ROOT / "static").rglob("*") if p.is_file()), default=0.0)
    return manifest.stat().st_mtime > newest


def setup_django() -> None:
    import django

    django.setup()


def start_gunicorn(env: dict[str, str], workers: int, port: int, app: str = "mafia_tournament.wsgi",
                   ready: str = "/p/", nice: int = 0) -> subprocess.Popen[bytes]:
    """gunicorn serving ``app`` (the floor: ``floor:app``, from bench/) with these sync workers, at this
    niceness (``nice``: the scheduler gives other processes the cores first)."""
    server = subprocess.Popen(
        [*(["nice", "-n", str(nice)] if nice else []), sys.executable, "-m", "gunicorn", app, "--workers", str(workers),
         *(["--chdir", str(ROOT / "bench")] if app.startswith("floor") else []),
         "--bind", f"127.0.0.1:{port}", "--log-level", "warning", "--timeout", "120",
         *(["--access-logfile", os.environ["BENCH_ACCESS_LOG"], "--access-logformat", "%(m)s %(U)s %(s)s %(L)s"]
           if os.environ.get("BENCH_ACCESS_LOG") else [])],
        cwd=ROOT, env=env,
    )
    wait_until_up(port, server, ready)
    return server


# The background workers of the README's large-event lines (docs/background.md): one a queue, the documents' under
# nice 10 as the public pool (DOCUMENTS_NICE: another niceness, to compare).
DOCUMENTS_NICE = int(os.environ.get("DOCUMENTS_NICE", "10"))
WORKERS = (("stream", "0.1", 0), ("seating", "0.5", 0), ("documents", "0.5", DOCUMENTS_NICE), ("notices", "0.5", 0))


def start_workers(env: dict[str, str], queues: tuple[str, ...] = ()) -> list[subprocess.Popen[bytes]]:
    """``manage.py db_worker`` processes, one a queue (``queues``: only those), as the README runs them."""
    return [subprocess.Popen(
        [*(["nice", "-n", str(nice)] if nice else []), sys.executable, "manage.py", "db_worker", "--queue-name", queue,
         "--interval", interval, "--no-reload", "--no-startup-delay", "--verbosity", "0"],
        cwd=ROOT, env=env) for queue, interval, nice in WORKERS if not queues or queue in queues]


def stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    server.wait(timeout=30)


def wait_until_up(port: int, server: subprocess.Popen[bytes], ready: str = "/p/", timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("gunicorn stopped before answering")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", ready, headers=HEADERS)
            if conn.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.3)
    raise SystemExit("gunicorn did not answer in time")


def get(conn: http.client.HTTPConnection, url: str, headers: dict[str, str] | None = None) -> tuple[int, int]:
    """A phone's request: the status and the body's size as sent (compressed when the server compressed it)."""
    conn.request("GET", url, headers={**HEADERS, **PHONE, **(headers or {})})
    response = conn.getresponse()
    body = response.read()
    return response.status, len(body)


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(q * len(sorted_values)) - 1))
    return sorted_values[index]


def summary(latencies: list[float], errors: list[str], elapsed: float) -> dict[str, Any]:
    """``latencies`` in seconds of the answered requests; ``errors`` one text per failed one."""
    ordered = sorted(latencies)
    return {
        "requests": len(ordered) + len(errors), "rps": (len(ordered) + len(errors)) / elapsed,
        "p50": percentile(ordered, 0.50) * 1000, "p95": percentile(ordered, 0.95) * 1000,
        "p99": percentile(ordered, 0.99) * 1000, "errors": len(errors), "error_sample": errors[:3],
    }


TABLE_HEADER = f"{'phase':<17}{'requests':>9}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}"


def table_row(name: str, r: dict[str, Any]) -> str:
    return (f"{name:<17}{r['requests']:>9}{r['rps']:>9.0f}{r['p50']:>9.1f}{r['p95']:>9.1f}{r['p99']:>9.1f}"
            f"{r['errors']:>8}" + (f"  {r['error_sample']}" if r["errors"] else ""))


def load_average() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} {five:.1f} {fifteen:.1f}"


def delete_cache_keys(prefix: str) -> None:
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    for key in client.scan_iter(match=f"{prefix}:*"):
        client.delete(key)


class Recorder:
    """Latencies and errors by kind of request, from many threads."""

    def __init__(self, order: tuple[str, ...] = ()) -> None:
        self.order = order  # the kinds in the order to print them (others after, by name)
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = defaultdict(list)
        self.errors: dict[str, list[str]] = defaultdict(list)
        self.statuses: dict[int, int] = defaultdict(int)
        self.conflicts = 0

    def ok(self, kind: str, seconds: float, status: int) -> None:
        with self.lock:
            self.latencies[kind].append(seconds)
            self.statuses[status] += 1

    def error(self, kind: str, text: str, status: int = 0) -> None:
        with self.lock:
            self.errors[kind].append(text)
            self.statuses[status] += 1
            self.conflicts += status == 409

    def figures(self, elapsed: float) -> dict[str, dict[str, Any]]:
        with self.lock:
            return self._figures(elapsed)

    def _figures(self, elapsed: float) -> dict[str, dict[str, Any]]:
        kinds = sorted(set(self.latencies) | set(self.errors),
                       key=lambda k: (self.order.index(k) if k in self.order else len(self.order), k))
        out = {kind: summary(self.latencies[kind], self.errors[kind], elapsed) for kind in kinds}
        out["all"] = summary([x for k in kinds for x in self.latencies[k]],
                             [x for k in kinds for x in self.errors[k]], elapsed)
        return out


class Client:
    """One HTTP connection to the server (reopened after a failure); JSON in and out."""

    def __init__(self, port: int, recorder: Recorder, token: str | None = None) -> None:
        self.port = port
        self.recorder = recorder
        self.headers = {**HEADERS, **({"Authorization": f"Token {token}"} if token else {})}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(self, kind: str, method: str, url: str, body: Any = None, headers: dict[str, str] | None = None,
             ok: tuple[int, ...] = (200,)) -> tuple[int, bytes, Any]:
        """The status, body and response; a status not in ``ok`` or a failure is recorded as an error."""
        data = None if body is None else json.dumps(body).encode()
        sent = {**self.headers, **(headers or {}), **({"Content-Type": "application/json"} if data else {})}
        started = time.perf_counter()
        try:
            self.conn.request(method, url, body=data, headers=sent)
            response = self.conn.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException) as error:
            self.conn.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.recorder.error(kind, f"{type(error).__name__} {method} {url}")
            return 0, b"", None
        if response.status in ok:
            self.recorder.ok(kind, time.perf_counter() - started, response.status)
        else:
            self.recorder.error(kind, f"{response.status} {method} {url} {content[:200]!r}", response.status)
        return response.status, content, response

    def json(self, kind: str, method: str, url: str, body: Any = None) -> dict[str, Any] | None:
        status, content, _response = self.call(kind, method, url, body)
        return json.loads(content) if status == 200 else None
