"""One tap of the judge's table screen, as the phone sends it (``table.tap_from`` reads it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Tap:
    action: str
    seat: int | None = None
    reason: str = ""
    value: str = ""
    circle: int = 1
