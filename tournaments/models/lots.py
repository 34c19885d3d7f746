"""A drawing of lots for a tie at a cut: the audit of what ``Stage.lots`` holds (docs/rules/tournament.md).

``Stage.lots`` stays the one list the standings read; a draw adds its players there in the drawn order,
and a cancelled draw takes them out again. The record keeps who drew, when, how, and who cancelled it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Stage


class DrawMethod(models.TextChoices):
    APP = "app", _("drawn by the app")
    PHYSICAL = "physical", _("drawn in the hall, recorded by the organizer")


class LotDraw(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="lot_draws")
    # The tied players' ids in the file, in the drawn order (first ranks highest).
    players = models.JSONField(_("order drawn"))
    method = models.CharField(_("method"), max_length=10, choices=DrawMethod.choices)
    note = models.CharField(_("note"), max_length=200, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"))
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                 related_name="+")
    # The name as shown and exported: it outlives the account and travels in the file.
    drawn_by_name = models.CharField(_("drawn by"), max_length=150, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    cancelled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+")
    cancelled_by_name = models.CharField(_("cancelled by"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("drawing of lots")
        verbose_name_plural = _("drawings of lots")
        ordering = ["stage", "drawn_at", "id"]

    def __str__(self) -> str:
        return f"{self.stage_id}: {', '.join(self.players)}"

    @property
    def active(self) -> bool:
        return self.cancelled_at is None
