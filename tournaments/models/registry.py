"""The record of two registry entries found to be one person and merged (services/registry.py, docs/registry.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .people import Player


class PlayerMerge(models.Model):
    # The entry kept; a later merge of it into another moves its records there (services.registry.merge_players).
    kept = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="merges", verbose_name=_("kept player"))
    # The merged entry is deleted: its id and every detail it had (and the tournaments it played) are kept here.
    merged_id = models.PositiveIntegerField(_("merged player's id"))
    merged = models.JSONField(_("merged player's details"), default=dict)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    merged_at = models.DateTimeField(_("merged at"))
    merged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+", verbose_name=_("merged by"))
    # The name as shown: it outlives the account.
    merged_by_name = models.CharField(_("merged by"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("merge of players")
        verbose_name_plural = _("merges of players")
        ordering = ["kept", "-merged_at", "-id"]

    def __str__(self) -> str:
        return f"{self.merged_id} → {self.kept_id}"

    @property
    def merged_name(self) -> str:
        details = self.merged if isinstance(self.merged, dict) else {}
        name = " ".join(str(details.get(k) or "") for k in ("surname", "first_name", "patronymic")).split()
        return " ".join(name)
