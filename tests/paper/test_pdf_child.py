"""With ``PDF_NICENESS`` (the production profile) WeasyPrint runs in a child process at a low CPU priority, so a
long build does not take a core from every other request (bench/public_load.py's flood phase)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any
from unittest import mock

import pytest

from paper.pdf import html_to_pdf
from tests.paper.conftest import pdf_pages

pytestmark = pytest.mark.django_db


def test_the_child_process_renders_the_same_pdf(settings: Any) -> None:
    html = "<html><body><h1>Итоги турнира</h1><p>Иванов Иван — 3,5</p></body></html>"
    settings.PDF_NICENESS = 19
    with mock.patch("paper.pdf.subprocess.run", wraps=subprocess.run) as run:
        data = html_to_pdf(html)
    assert run.call_count == 1 and run.call_args.args[0][-2:] == ["paper.pdf_worker", "19"]
    assert "Итоги турнира" in pdf_pages(data)[0] and "Иванов Иван" in pdf_pages(data)[0]
    settings.PDF_NICENESS = 0
    with mock.patch("paper.pdf.subprocess.run") as run:
        assert "Итоги турнира" in pdf_pages(html_to_pdf(html))[0]
    assert run.call_count == 0


def test_a_failing_child_is_an_error_not_a_broken_file(settings: Any) -> None:
    settings.PDF_NICENESS = 19
    failed = subprocess.CompletedProcess([], 1, b"", b"Traceback: pango is missing")
    with mock.patch("paper.pdf.subprocess.run", return_value=failed), pytest.raises(RuntimeError, match="pango"):
        html_to_pdf("<p>x</p>")


def test_results_pdf_through_the_child(client: Any, generated: Any, settings: Any) -> None:
    settings.PDF_NICENESS = 10
    generated("child", players=20, rounds=2, standings_hidden=False)
    response = client.get("/t/child/results.pdf")
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    assert "Player 1" in " ".join(pdf_pages(response.content))


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's idle scheduling class")
def test_at_the_lowest_niceness_the_child_takes_only_what_every_other_process_leaves() -> None:
    """Nice 19 and the idle class: below the public pool's workers, which run under nice 10 themselves."""
    probe = ("import os; from paper.pdf_worker import lower_priority; lower_priority({n}); "
             "print(os.nice(0) - {base}, os.sched_getscheduler(0) == os.SCHED_IDLE)")
    base = os.nice(0)
    for niceness, idle in ((19, True), (10, False)):
        shown = subprocess.run([sys.executable, "-c", probe.format(n=niceness, base=base)], capture_output=True,
                               text=True, check=True).stdout.split()
        assert shown == [str(min(niceness, 19 - base)), str(idle)], niceness
