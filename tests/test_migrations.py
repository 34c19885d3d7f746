"""The migrations are the schema: the test database is built from the models without them (``--no-migrations``,
pyproject.toml), so these two tests hold the migrations to the models instead.

- No model change lacks its migration (``makemigrations --check``).
- An empty database migrated from the first migration to the last, in a real process as on a server, has the very
  schema the tests run on: the same tables, columns (type, null) and constraints (``tests/schema_dump.py``). A
  migration that fails on an empty database, or leaves a column or an index the models no longer have, fails here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from tests.schema_dump import schema

ROOT = Path(__file__).resolve().parent.parent
# Django's auth migration 0001 creates the link tables of users, groups and permissions with the project's
# DEFAULT_AUTO_FIELD (a bigint id, as we set it), while the models made without migrations take the auth app's own
# (an int id). Both work alike; it is Django's, not ours, and no migration of ours can change it.
DJANGO_AUTH_LINKS = ("auth_group_permissions", "auth_user_groups", "auth_user_user_permissions")


def test_no_model_change_lacks_its_migration() -> None:
    """In a process of its own: this one runs with the migrations switched off (pytest-django's
    ``--no-migrations`` hides them, so here every model would look new)."""
    run = subprocess.run([sys.executable, "manage.py", "makemigrations", "--check", "--dry-run"], cwd=ROOT,
                         env=child_env(os.environ.get("DATABASE_URL", "")), capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, f"a model changed without its migration: run manage.py makemigrations\n{run.stdout}"


def child_env(database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="mafia_tournament.settings")
    return env


@contextmanager
def empty_database(tmp_path: Path) -> Iterator[str]:
    """A new empty database of the test database's kind (PostgreSQL: on the same server), dropped afterwards."""
    settings = connection.settings_dict
    if connection.vendor != "postgresql":
        yield f"sqlite:///{tmp_path / 'migrated.sqlite3'}"
        return
    import psycopg2

    name = f"migrate_check_{uuid.uuid4().hex[:12]}"
    server = psycopg2.connect(dbname="postgres", host=settings["HOST"] or "127.0.0.1", port=settings["PORT"] or 5432,
                              user=settings["USER"] or "postgres", password=settings["PASSWORD"] or "")
    server.autocommit = True
    try:
        with server.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{name}"')
        user = settings["USER"] or "postgres"
        password = f":{settings['PASSWORD']}" if settings["PASSWORD"] else ""
        yield f"postgres://{user}{password}@{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}/{name}"
    finally:
        with server.cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        server.close()


@pytest.mark.django_db
def test_an_empty_database_migrates_to_the_schema_the_tests_run_on(tmp_path: Path) -> None:
    with empty_database(tmp_path) as url:
        env = child_env(url)
        run = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr[-3000:]
        dumped = subprocess.run([sys.executable, "-m", "tests.schema_dump"], cwd=ROOT, env=env,
                                capture_output=True, text=True, timeout=120)
        assert dumped.returncode == 0, dumped.stderr[-3000:]
    migrated = json.loads(dumped.stdout)
    built = json.loads(json.dumps(schema(connection)))
    for table in DJANGO_AUTH_LINKS:  # the one known difference, Django's own: see DJANGO_AUTH_LINKS
        if migrated[table]["columns"]["id"] == ["BigAutoField", False] and built[table]["columns"]["id"] == [
                "AutoField", False]:
            migrated[table]["columns"]["id"] = built[table]["columns"]["id"]
    assert migrated.keys() == built.keys()
    different = {table: {"migrated": migrated[table], "models": built[table]}
                 for table in built if migrated[table] != built[table]}
    assert not different, json.dumps(different, ensure_ascii=False, indent=1)[:4000]
