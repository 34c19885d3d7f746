from __future__ import annotations

from django.apps import AppConfig


class SiteConfig(AppConfig):
    """The project itself as the last installed app: once every app is ready, it connects what a save sets off
    (``reactions.py``), the one place that knows every app."""

    name = "mafia_tournament"
    verbose_name = "site"

    def ready(self) -> None:
        from . import reactions

        reactions.connect()
