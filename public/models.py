"""A tournament's results version: what public pages, their ETags and their cache depend on."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class ResultsVersion(models.Model):
    """Bumped after every committed change of a tournament's public data (``public.versioning``).

    Also records who published the standings last (the hidden → published transition).
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="results_version")
    version = models.PositiveBigIntegerField(_("version"), default=1)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    standings_changed_at = models.DateTimeField(_("standings visibility changed at"), null=True, blank=True)
    standings_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("results version")
        verbose_name_plural = _("results versions")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.version}"

