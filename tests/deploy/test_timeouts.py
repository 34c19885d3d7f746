"""The timeouts agree: a document's build is stopped before the web worker would be, and nginx waits
longer than gunicorn; the README's large-event commands start a worker for every queue."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings

from tournaments.background import QUEUES

ROOT = Path(__file__).resolve().parents[2]


def large_event_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Running a large event", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [line.split("#", 1)[0].strip() for line in block.splitlines() if line.strip()]


def test_gunicorn_outlives_a_build_and_nginx_outlives_gunicorn() -> None:
    gunicorn = [line for line in large_event_commands() if "gunicorn " in line]
    assert len(gunicorn) == 2
    timeouts = {int(re.search(r"--timeout (\d+)", line).group(1)) for line in gunicorn}  # type: ignore[union-attr]
    assert len(timeouts) == 1
    (timeout,) = timeouts
    assert timeout > settings.DOCUMENT_BUILD_SECONDS
    nginx = (ROOT / "deploy/nginx/locations.conf").read_text(encoding="utf-8")
    waits = [int(seconds) for seconds in re.findall(r"proxy_read_timeout (\d+)s;", nginx)]
    assert waits and all(wait > timeout for wait in waits)


def test_every_queue_has_its_worker_in_the_readme() -> None:
    workers = [line for line in large_event_commands() if "db_worker" in line]
    named = {re.search(r"--queue-name (\S+)", line).group(1) for line in workers}  # type: ignore[union-attr]
    assert named == set(QUEUES)
    assert settings.TASKS["default"]["QUEUES"] == list(QUEUES)
