"""The fuzz suite: generated bad values through every way data gets in — the tournament file (the
import service, the browser, the command, ``python -m scoring``), the participants' CSV list, every form and
every API write. Each test fails on any server error, any traceback on a command line, or any half-saved row,
and records how many inputs it tried (``fuzz_inputs``; the total is printed after the run)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# Each example is one input; ``deadline=None``: the first request of a test warms caches and templates.
FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=list(HealthCheck), database=None)

NASTY_TEXT = ["", " ", "   ", "0", "-1", "1", "13", "999", "-999999", "10" * 16, "1" + "0" * 30, "1e400", "NaN",
              "Infinity", "-0", "0.5", "1.333", "1,5", "true", "null", "None", "[]", "{}", "x" * 5000,
              "<script>alert(1)</script>", "=1+1", "=HYPERLINK(\"http://x\",\"y\")", "@SUM(A1)", "\t=1",
              "Ёжик «Полночь»", "🎲" * 10, "\u202e", "\ud800", "\x00", "a\nb", "../../etc/passwd", "%s%s%n",
              "2025-02-30", "2025-13-01", "31.12.2025 25:61", "99:99", "don", "red", "black", "accept", "reject",
              "publish", "close", "reopen", "confirm", "submit"]


class Counter:
    def __init__(self, record: Any) -> None:
        self.count = 0
        self.record = record

    def __call__(self) -> None:
        self.count += 1


@pytest.fixture
def fuzz_inputs(record_property: Any) -> Iterator[Counter]:
    """Call it once per input tried; the count goes to the test's report."""
    counter = Counter(record_property)
    yield counter
    record_property("fuzz_inputs", counter.count)


