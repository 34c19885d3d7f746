from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CheckinConfig(AppConfig):
    """Check-in at the venue (docs/check-in.md): sessions, the marks, the volunteer's and the door's pages."""

    name = "checkin"
    verbose_name = _("Check-in")
    default_auto_field = "django.db.models.BigAutoField"
