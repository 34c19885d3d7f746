"""The judges of a tournament (one of them may be the chief judge) and the tables they host.

Organizers are ``Tournament.organizers``. A judge is assigned to a table number either for one
round or for every round of a stage (``round`` empty).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Round, Stage, Tournament


class Judge(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="judges")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="judging")
    chief = models.BooleanField(_("chief judge"), default=False)
    # The organizer's ranking of the judges, 1 the best (optional): "Allocate" seats the best ranked first.
    rank = models.PositiveSmallIntegerField(_("rank"), null=True, blank=True)

    class Meta:
        db_table = "games_judge"  # the tables of before the judges had an app of their own
        verbose_name = _("judge")
        verbose_name_plural = _("judges")
        ordering = ["tournament", "-chief", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="judge_once_per_tournament"),
            models.UniqueConstraint(fields=["tournament"], condition=Q(chief=True), name="one_chief_judge"),
        ]

    def __str__(self) -> str:  # the name the judge is known by at the venue; the login where none is given
        return self.user.get_full_name() or self.user.get_username()


class JudgeAssignment(models.Model):
    """``judge`` hosts table ``table`` in ``round``, or in every round of ``stage`` when no round."""

    judge = models.ForeignKey(Judge, on_delete=models.CASCADE, related_name="assignments")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    table = models.PositiveIntegerField(_("table"))

    class Meta:
        db_table = "games_judgeassignment"
        verbose_name = _("judge's table")
        verbose_name_plural = _("judges' tables")
        ordering = ["stage", "round", "table"]
        constraints = [
            models.UniqueConstraint(fields=["judge", "stage", "round", "table"], name="assignment_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.judge}: {self.stage} {self.round or ''} {self.table}"


class PrivateLink(models.Model):
    """A judge's private link for one tournament (``/t/<slug>/j/<token>/``, as Tabbycat's private URLs): whoever
    opens it is signed in as the judge, for this tournament only, until the organizer revokes it. One link in
    force a judge; a revoked one is kept (who made it, when it stopped)."""

    judge = models.ForeignKey(Judge, on_delete=models.CASCADE, related_name="links")
    token = models.CharField(_("token"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        db_table = "games_privatelink"
        verbose_name = _("private link")
        verbose_name_plural = _("private links")
        ordering = ["judge", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["judge"], condition=Q(revoked_at__isnull=True), name="one_link_in_force"),
        ]

    def __str__(self) -> str:
        return f"{self.judge}: {'revoked' if self.revoked_at else 'in force'}"
