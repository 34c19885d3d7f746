from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class JudgesConfig(AppConfig):
    """The tournament's judges: their accounts, tables and allocation, their private links
    (docs/judge-allocation.md)."""

    name = "judges"
    verbose_name = _("Judges")
    default_auto_field = "django.db.models.BigAutoField"
