from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PaperConfig(AppConfig):
    name = "paper"
    verbose_name = _("Printed documents and exports")
