"""The tournament-day load bench (bench/public_load.py --day-only) at a tiny size, so that it keeps
working: gunicorn under the production profile on a database of its own, judges entering and the
chief judge confirming two tables through the API while spectators refresh the public pages.
It must end with its check passed (protocols confirmed, games and standings equal to the truth)
and no error. Needs PostgreSQL (``DATABASE_URL``) and Redis (``REDIS_URL``); skipped otherwise."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.nginx_run import NGINX

ROOT = Path(__file__).resolve().parents[2]
DATABASE_URL = os.environ.get("DATABASE_URL", "")
REDIS_URL = os.environ.get("REDIS_URL", "").strip() or "redis://127.0.0.1:6379/0"


def server_url() -> str | None:
    """The PostgreSQL server of ``DATABASE_URL`` without its database, or None when it is not PostgreSQL."""
    if not DATABASE_URL.startswith(("postgres://", "postgresql://")):
        return None
    return DATABASE_URL.rsplit("/", 1)[0]


def redis_problem() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as error:
        return f"Redis is unreachable at {REDIS_URL}: {error}"
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def drop(server: str, name: str) -> None:
    import psycopg2

    conn = psycopg2.connect(f"{server}/postgres")
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    conn.close()


def test_the_tournament_day_bench_runs_checks_and_has_no_error(tmp_path: Path) -> None:
    server = server_url()
    if server is None:
        pytest.skip("the bench needs PostgreSQL: DATABASE_URL is not a postgres:// URL")
    if problem := redis_problem():
        pytest.skip(problem)
    database = f"bench_smoke_{uuid.uuid4().hex[:10]}"
    figures = tmp_path / "day.json"
    env = {k: v for k, v in os.environ.items()
           if k not in {"DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL",
                        "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(REDIS_URL=REDIS_URL, BENCH_POSTGRES=server)
    command = [sys.executable, "bench/public_load.py", "--day-only", "--reuse-static", "--players", "20",
               "--rounds", "2", "--day-window", "1", "--think", "0.2", "--clients", "4", "--workers", "2",
               "--staff-workers", "1", "--day-timeout", "60", "--port", str(free_port()),
               "--staff-port", str(free_port()), "--database", database, "--json", str(figures)]
    if NGINX is not None:  # through the shipped nginx files, their cache in front, as at an event
        command.append("--proxy")
    try:
        run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    finally:
        drop(server, database)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "matched" in run.stdout
    day: dict[str, Any] = json.loads(figures.read_text())
    assert day["checked"] and not day["problems"]
    # as deploy/nginx/ splits them: the judges on a staff pool of their own, the readers on a public pool under nice
    assert day["setup"] == {"public_workers": 2, "staff_workers": 1, "public_nice": 10, "warmed": True}
    assert "warmed: the" in run.stdout
    assert ("nginx (deploy/nginx/" in run.stdout) is (NGINX is not None)
    assert day["tables"] == day["confirmed"] == 2
    assert day["errors"] == 0 and day["conflicts"] == 0
    # Each table: the judge's GET, one or three PUTs and the submit; the chief's GET and confirm.
    assert day["judges"]["all"]["requests"] >= 2 * 5
    assert day["spectators"]["all"]["requests"] > 0
    assert set(day["statuses"]) <= {"200", "304"}
