from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = _("Tournaments")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import background

        background.connect()
        background.start_for_runserver()
