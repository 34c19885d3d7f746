from __future__ import annotations

from django.apps import AppConfig


class RunningConfig(AppConfig):
    """Running a tournament from its results: seating the next round from the history, closing a stage from
    its standings, and the organizer's stage, round and standings pages (docs/architecture.md)."""

    name = "running"

    def ready(self) -> None:
        from running.services import seating_plans

        seating_plans.install()
