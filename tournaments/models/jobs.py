"""Seating computed in the background: a job row carries its progress for the organizer's page."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..labels import SeatingMethod
from .event import Stage
from .rounds import Round


class JobState(models.TextChoices):
    """``pending`` → ``running`` → ``done`` or ``failed``; the organizer may move ``pending`` or
    ``running`` to ``cancelled`` (the thread sees it at its next progress report and stores nothing);
    a job that stopped reporting (a server restarted) is moved to ``failed`` as stale."""

    PENDING = "pending", _("waiting")
    RUNNING = "running", _("running")
    DONE = "done", _("done")
    FAILED = "failed", _("failed")
    CANCELLED = "cancelled", _("cancelled")


ACTIVE_STATES = (JobState.PENDING, JobState.RUNNING)


class SeatingJob(models.Model):
    """Seat the next ``rounds`` rounds of a stage, or seat a draft ``round`` again."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="seating_jobs")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    method = models.CharField(_("seating method"), max_length=20, choices=SeatingMethod.choices)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=1)
    tables = models.PositiveSmallIntegerField(_("tables"), null=True, blank=True)
    seed = models.BigIntegerField(_("seed"))
    state = models.CharField(_("state"), max_length=10, choices=JobState.choices, default=JobState.PENDING)
    progress = models.FloatField(_("progress"), default=0.0)
    message = models.TextField(_("message"), blank=True)
    first_number = models.PositiveIntegerField(_("first round seated"), null=True, blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created = models.DateTimeField(_("created"), auto_now_add=True)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("seating job")
        verbose_name_plural = _("seating jobs")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.stage} · {self.method} · {self.state}"

    @property
    def finished(self) -> bool:
        return self.state in (JobState.DONE, JobState.FAILED, JobState.CANCELLED)

    @property
    def percent(self) -> int:
        return round(100 * min(max(self.progress, 0.0), 1.0))
