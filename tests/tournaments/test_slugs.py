"""Slugs and file names: ``import_tournament --slug`` takes only what the web form takes (``cup.2025``
broke the home page and /p/ for everyone, ``../escaped`` sent a backup outside its directory, a newline went
into a file name); the services refuse a bad slug whoever calls; every file name written or offered for
download is made of safe characters (``tournaments.filenames``)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.test import Client
from django.utils import translation

from exchange.backup import backup_all
from exchange.files import import_text
from scoring.errors import InvalidTournament
from tests.conftest import PASSWORD
from tournaments.filenames import attachment, safe_filename
from tournaments.models import Participant, Player, Stage, Tournament
from tournaments.services.setup import create_tournament

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "tests" / "scoring" / "data" / "fiim-example.json"
BAD_SLUGS = ["cup.2025", "../escaped", "a\nb", "cup\n", "", " ", "x" * 65, "кубок", 'a"b', "a/b"]
SAFE_NAME = re.compile(r"^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)?$")


def counts() -> list[int]:
    return [model.objects.count() for model in (Tournament, Player, Participant, Stage)]


def run_command(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_tournament", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", BAD_SLUGS, ids=repr)
def test_the_command_refuses_a_slug_the_web_form_refuses(slug: str) -> None:
    before = counts()
    status, out, err = run_command(str(EXAMPLE), "--slug", slug)
    assert (status, out) == (2, "")
    assert err.startswith("--slug: The address "), err
    assert counts() == before


@pytest.mark.django_db
def test_the_message_says_what_a_slug_may_hold() -> None:
    _status, _out, err = run_command(str(EXAMPLE), "--slug", "cup.2025")
    assert err == ("--slug: The address 'cup.2025': Enter a valid “slug” consisting of letters, numbers, "
                   "underscores or hyphens.\n")


@pytest.mark.django_db
def test_a_good_slug_imports() -> None:
    status, out, _err = run_command(str(EXAMPLE), "--slug", "cup_2025-spring")
    assert (status, out.strip()) == (0, "cup_2025-spring")
    status, _out, err = run_command(str(EXAMPLE), "--slug", "cup_2025-spring")
    assert status == 2 and "exists already" in err


def test_the_command_process_exits_2(tmp_path: Path) -> None:
    """As a process: exit 2 with the message, no traceback, before any database is opened."""
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'none.sqlite3'}"}
    env.pop("REDIS_URL", None)
    result = subprocess.run([sys.executable, "manage.py", "import_tournament", str(EXAMPLE), "--slug", "../escaped"],
                            cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("--slug: The address '../escaped'") and "Traceback" not in result.stderr


@pytest.mark.django_db
@pytest.mark.parametrize("slug", BAD_SLUGS, ids=repr)
def test_the_import_service_refuses_a_bad_slug(slug: str) -> None:
    before = counts()
    with translation.override("en"), pytest.raises(InvalidTournament, match="address"):
        import_text(EXAMPLE.read_text(encoding="utf-8"), slug=slug)
    assert counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["cup.2025", "../escaped", "a\nb"], ids=repr)
def test_creating_a_tournament_refuses_a_bad_slug(slug: str, organizer: Any) -> None:
    details = Tournament(slug=slug, name="Cup", ruleset="fiim")
    with pytest.raises(ValidationError):
        create_tournament(details, {}, [], organizer)
    assert Tournament.objects.count() == 0


# --- file names -----------------------------------------------------------------------------------


@pytest.mark.parametrize("parts", [
    ("../escaped", "20250315-140000.json"), ("a\nb", "results.csv"), ('a"b; filename=x.exe', "q.1.csv"),
    ("cup.2025", "results.xlsx"), ("", ""), ("..", "..", ".json"), ("/etc/passwd",), ("Кубок", "results.pdf"),
    ("x" * 500, "final.csv"),
])
def test_safe_names_hold_safe_characters_only(parts: tuple[str, ...]) -> None:
    name = safe_filename(*parts)
    assert SAFE_NAME.match(name), name
    assert len(name) <= 170
    assert attachment(*parts) == f'attachment; filename="{name}"'


def test_safe_names_keep_good_names() -> None:
    assert safe_filename("cup_2025", "qualifying.csv") == "cup_2025-qualifying.csv"
    assert safe_filename("cup-results-not-for-publication.pdf") == "cup-results-not-for-publication.pdf"
    assert safe_filename("../escaped", "20250315-140000.json") == "escaped-20250315-140000.json"


@pytest.mark.django_db(transaction=True)
def test_backups_stay_in_their_directory_under_any_stored_slug(tmp_path: Path) -> None:
    """Slugs stored before they were checked: each backup is written inside DIR, under a safe name, none lost."""
    text = EXAMPLE.read_text(encoding="utf-8")
    stored = ["../escaped", "a\nb", "cup.2025", "cup-2025"]
    for n, slug in enumerate(stored):
        tournament = import_text(text, slug=f"t{n}")
        Tournament.objects.filter(pk=tournament.pk).update(slug=slug)
    directory = tmp_path / "backups" / "inner"
    run = backup_all(directory)
    assert run.failed == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backups"]
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == ["inner"]
    names = sorted(p.name for p in directory.iterdir() if p.suffix == ".json")
    assert len(names) == 4 and all(SAFE_NAME.match(name) for name in names), names
    assert all(path.parent == directory for path in run.written)
    for path in run.written:
        if path.suffix == ".json":
            assert json.loads(path.read_text(encoding="utf-8"))["format"] == "mafia-tournament/1"


@pytest.mark.django_db
def test_the_export_download_is_named_safely(organizer: Any) -> None:
    data = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    data["stages"][0]["id"] = "q.1"
    tournament = import_text(json.dumps(data), slug="cup_2025", organizers=[organizer])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.login(username=organizer.username, password=PASSWORD)
    export = client.get(f"/t/{tournament.slug}/export/")
    assert export.status_code == 200
    assert export["Content-Disposition"] == 'attachment; filename="cup_2025.json"'
    results = client.get(f"/t/{tournament.slug}/results/q.1.csv")
    assert results.status_code == 200
    assert results["Content-Disposition"] == 'attachment; filename="cup_2025-q-1.csv"'
