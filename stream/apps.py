from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StreamConfig(AppConfig):
    name = "stream"
    verbose_name = _("Stream overlay")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games.services import stream as table_side

        from .services import overlays, triggers

        triggers.connect()
        if overlays.is_streamed not in table_side.streamed_by:  # the table screen offers "Speaking"
            table_side.streamed_by.append(overlays.is_streamed)
