"""The release's digest (base/release.py): a change to what the site computes or prints with (Python, a template, a
translation, a requirement) is another release, and the shared cache's keys of a tournament's model, its figures
and its documents name it, so a deploy never serves what the release before computed."""

from __future__ import annotations

import shutil
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
    (root / "scoring" / "tally.py").write_text("POINTS = 1\n")
    (root / "paper" / "templates").mkdir(parents=True)
    (root / "paper" / "templates" / "results.html").write_text("<h1>{{ name }}</h1>\n")
    (root / "locale" / "ru").mkdir(parents=True)
    (root / "locale" / "ru" / "django.po").write_text('msgid "Points"\nmsgstr "Баллы"\n')
    (root / "requirements.txt").write_text("weasyprint==70.0\n")
    for elsewhere in ("tests", "docs"):
        (root / elsewhere).mkdir()
        (root / elsewhere / "notes.py").write_text("x = 1\n")
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


def test_tests_docs_and_bytecode_are_not_the_release(site: Path) -> None:
    before = digest_of(site)
    (site / "tests" / "notes.py").write_text("x = 2\n")
    (site / "docs" / "notes.py").write_text("x = 2\n")
    (site / "scoring" / "__pycache__").mkdir()
    (site / "scoring" / "__pycache__" / "tally.cpython-311.pyc").write_bytes(b"\0")
    assert digest_of(site) == before
    shutil.rmtree(site / "tests")
    assert digest_of(site) == before


def test_the_model_the_figures_and_the_documents_are_kept_under_this_release(make_tournament: Any) -> None:
    from paper.documents import document_key
    from public.model_cache import model_key
    from tournaments.models import Tournament

    made = make_tournament("kostroma")
    tournament = Tournament.objects.select_related("results_version").get(pk=made.pk)
    assert release() == digest_of(ROOT) and len(release()) == 12
    assert f".{release()}:" in model_key(tournament)
    assert f".{release()}:" in document_key(tournament, "pdf:0:ru")
