"""Pairs of participants the organizer keeps apart when seating (relatives, a couple)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament
from .people import Participant


class KeepApart(models.Model):
    """One unordered pair, stored with ``first_id < second_id`` (a constraint), so a pair is
    recorded once in either order and never with oneself."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="keep_apart")
    first = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+",
                               verbose_name=_("kept apart from"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("pair kept apart")
        verbose_name_plural = _("pairs kept apart")
        ordering = ["tournament", "first", "second"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "first", "second"], name="keep_apart_unique"),
            models.CheckConstraint(condition=models.Q(first__lt=models.F("second")), name="keep_apart_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.first_id} ≠ {self.second_id}"
