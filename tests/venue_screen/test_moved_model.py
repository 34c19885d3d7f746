"""The hall screen's model moved from ``public`` to ``venue_screen`` keeping its table: a database with screens
migrates forward with every row kept, read through the new app, its content type (and permissions) following, and
back (tests/test_migrations.py holds the migrated schema to the models)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_migrations import ROOT, child_env, empty_database


@pytest.mark.django_db
def test_a_database_from_before_the_move_keeps_its_screens(tmp_path: Path) -> None:
    with empty_database(tmp_path) as url:
        run = subprocess.run([sys.executable, "-m", "tests.venue_screen.migrate_probe"], cwd=ROOT,
                             env=child_env(url), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    found = json.loads(run.stdout.strip().splitlines()[-1])
    assert found["after"] == ["Финал в 16:00.", 20, "До финала"]
    assert found["content_type_kept"] and found["permission"] == "venue_screen"
    assert found["public_types_left"] == 0
    assert found["back"] == ["Финал в 16:00.", 20, "До финала"]
    assert found["back_type"] == "public"
