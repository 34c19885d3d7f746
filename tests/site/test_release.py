"""The release's digest (base/release.py): a change to what the site computes or prints with (Python, a template, a
translation, a requirement) is another release, and the shared cache's keys of a tournament's model, its figures
and its documents name it, so a deploy never serves what the release before computed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from base.release import ROOT, digest_of, release

pytestmark = pytest.mark.django_db


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A small copy of a checkout: an app with code, a template and a translation, the requirements, and folders
    that are not the site (tests, docs)."""
    root = tmp_path / "site"
    (root / "scoring").mkdir(parents=True)
    (root / "scoring" / "__init__.py").write_text("")
    (root / "scoring" / "tally.py").write_text("POINTS = 1\n")
    (root / "paper" / "templates").mkdir(parents=True)
    (root / "paper" / "__init__.py").write_text("")
    (root / "paper" / "templates" / "results.html").write_text("<h1>{{ name }}</h1>\n")
    (root / "locale" / "ru").mkdir(parents=True)
    (root / "locale" / "ru" / "django.po").write_text('msgid "Points"\nmsgstr "Баллы"\n')
    (root / "requirements.txt").write_text("weasyprint==70.0\n")
    for elsewhere in ("tests", "docs"):
        (root / elsewhere).mkdir()
        (root / elsewhere / "notes.py").write_text("x = 1\n")
    (root / "tests" / "__init__.py").write_text("")
    return root


@pytest.mark.parametrize(("path", "text"), [
    ("scoring/tally.py", "POINTS = 2\n"),  # a computation
    ("paper/templates/results.html", "<h1>{{ name|upper }}</h1>\n"),  # a document's template
    ("locale/ru/django.po", 'msgid "Points"\nmsgstr "Очки"\n'),  # a word
    ("requirements.txt", "weasyprint==71.0\n"),  # a library
    ("scoring/new_rule.py", "X = 1\n"),  # a new module
])
def test_a_change_to_what_the_site_runs_is_another_release(site: Path, path: str, text: str) -> None:
    before = digest_of(site)
    assert digest_of(site) == before  # the same sources, the same digest
    (site / path).write_text(text)
    assert digest_of(site) != before


def test_tests_docs_backups_and_bytecode_are_not_the_release(site: Path) -> None:
    """Only the site's packages, templates and translations: the backup loop of the README writes tournaments'
    files into ``backups/`` beside the code every ten minutes, and a worker started after one must be the same
    release as the others."""
    before = digest_of(site)
    (site / "tests" / "notes.py").write_text("x = 2\n")
    (site / "docs" / "notes.py").write_text("x = 2\n")
    (site / "backups").mkdir()
    (site / "backups" / "open-cup-20250315-140000.json").write_text("{}")
    (site / "venv" / "lib").mkdir(parents=True)
    (site / "venv" / "lib" / "site.py").write_text("x = 1\n")
    (site / "scoring" / "__pycache__").mkdir()
    (site / "scoring" / "__pycache__" / "tally.cpython-311.pyc").write_bytes(b"\0")
    assert digest_of(site) == before
    shutil.rmtree(site / "tests")
    assert digest_of(site) == before


def test_two_processes_of_one_checkout_are_one_release() -> None:
    """Each process reads its release as it starts (the settings import it): a web worker, the documents' worker
    and this test agree."""
    code = "import django; django.setup(); from base.release import RELEASE; print(RELEASE)"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings", "PYTHONPATH": str(ROOT)}
    seen = {subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                           check=True, timeout=60).stdout.strip() for _process in range(2)}
    assert seen == {release()}


def test_the_model_the_figures_and_the_documents_are_kept_under_this_release(make_tournament: Any) -> None:
    from paper.documents import document_key, document_state_keys
    from public.model_cache import building_lock, built_key, model_key
    from series.places import places_key
    from tournaments.models import Tournament

    made = make_tournament("kostroma")
    tournament = Tournament.objects.select_related("results_version").get(pk=made.pk)
    assert release() == digest_of(ROOT) and len(release()) == 12
    assert f".{release()}:" in model_key(tournament)
    assert f".{release()}:" in document_key(tournament, "pdf:0:ru")
    assert all(f":{release()}:" in key for key in document_state_keys(tournament, "pdf:0:ru"))
    assert f":{release()}:" in building_lock(tournament) and f":{release()}:" in built_key(tournament)
    assert places_key(tournament).startswith(f"series-places:{release()}:")
