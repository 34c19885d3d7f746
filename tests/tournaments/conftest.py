"""Seating jobs run inline in these tests."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def inline_seating_jobs(settings: Any) -> None:
    settings.SEATING_JOBS_INLINE = True
