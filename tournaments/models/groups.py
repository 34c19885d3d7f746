"""Groups of tables: the tables of a stage whose games feed one table of the next stage (tomsk's programme, 10)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Stage


class TableGroup(models.Model):
    """The games at ``tables`` (table numbers, in every round of ``stage``) send their per-game qualifiers to
    table ``feeds`` of the next stage. Closing the group (``running.services.groups``) seats that table while
    the rest of the stage goes on; ``closed_at`` set means closed and seated."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="table_groups")
    feeds = models.PositiveIntegerField(_("next stage's table"), validators=[MinValueValidator(1)])
    tables = models.JSONField(_("tables"), default=list)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")

    class Meta:
        verbose_name = _("group of tables")
        verbose_name_plural = _("groups of tables")
        ordering = ["stage", "feeds"]
        constraints = [models.UniqueConstraint(fields=["stage", "feeds"], name="table_group_feeds_unique")]

    def __str__(self) -> str:
        return f"{self.stage}: {self.tables} → {self.feeds}"
