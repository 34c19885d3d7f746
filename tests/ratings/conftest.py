"""A season of the four examples (one a month, each ruleset), its ratings computed as on the site."""

from __future__ import annotations

from typing import Any

import pytest

EXAMPLES = {"tomsk": "2025-01-10", "kostroma": "2025-02-10", "fiim": "2025-03-10", "zvezdy": "2025-04-10"}


@pytest.fixture
def season(import_file: Any, django_capture_on_commit_callbacks: Any) -> list[Any]:
    """The four examples as one season, one a month (levels: club, open, championship, open), their standings
    shown (zvezdy's example hides them)."""
    levels = {"tomsk": "club", "kostroma": "open", "fiim": "championship", "zvezdy": "open"}
    with django_capture_on_commit_callbacks(execute=True):
        return [import_file(f"{name}-example.json", f"{name}-rated", starts=day, ends=day, level=levels[name],
                            standings_hidden=False)
                for name, day in EXAMPLES.items()]
