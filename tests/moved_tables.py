"""Models moved from one app to another keep their tables and rows: an empty database (tests/test_migrations.py) is
migrated to the last migration before the move, given rows there through the models of that moment, migrated to
the end, and the rows are found through the models where they are now, with their content types (and so their
permissions) moved along. Each app's test (tests/stream, tests/checkin, tests/judges) says its rows and its look.

Run in a process of its own, as ``manage.py migrate`` runs on a server: the tests' own database has no migrations.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import tests.test_migrations as migrations_check

ROOT = Path(__file__).resolve().parent.parent

SCRIPT = """
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

call_command("migrate", {app!r}, {before!r}, verbosity=0, interactive=False)
apps = MigrationExecutor(connection).loader.project_state(({app!r}, {before!r})).apps
{given}
call_command("migrate", verbosity=0, interactive=False)
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
{found}
print("found")
"""


def rows_survive_the_move(tmp_path: Path, app: str, before: str, given: str, found: str) -> None:
    """``given`` runs with ``apps`` the models as of ``app``'s migration ``before``; ``found`` with today's models
    (imported there), asserting what it finds."""
    with migrations_check.empty_database(tmp_path) as url:
        script = SCRIPT.format(app=app, before=before, given=textwrap.dedent(given), found=textwrap.dedent(found))
        run = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=migrations_check.child_env(url),
                             capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "found" in run.stdout, run.stdout[-2000:] + run.stderr[-4000:]
