"""Check-in at the venue (docs/check-in.md): a session the organizer opens for the day or for a round of a stage,
one mark a participant (present or not, when, by whom or by the player at the door), and the absences a
session's missing players were marked with (who, when; reversible)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.models import Participant, Round, Stage, Tournament


class CheckInState(models.TextChoices):
    OPEN = "open", pgettext_lazy("check-in", "open")
    CLOSED = "closed", pgettext_lazy("check-in", "closed")


class MarkSource(models.TextChoices):
    ORGANIZER = "organizer", _("organizer")
    VOLUNTEER = "volunteer", _("volunteer's link")
    SELF = "self", _("the player at the door")


class CheckIn(models.Model):
    """A check-in session: for the day (no stage), or for round ``round_number`` of ``stage``, which need not be
    seated yet. Its two tokens open the volunteer's page and the door's QR page; a new token revokes the old
    one, and neither works once the session is closed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="check_ins")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    round_number = models.PositiveIntegerField(_("round"), null=True, blank=True)
    state = models.CharField(_("state"), max_length=10, choices=CheckInState.choices, default=CheckInState.OPEN)
    opened_at = models.DateTimeField(_("opened at"), auto_now_add=True)
    opened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    volunteer_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    door_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    class Meta:
        db_table = "running_checkin"  # the tables of before check-in had an app of its own
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        ordering = ["tournament", "-opened_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(stage__isnull=True, round_number__isnull=True)
                                   | Q(stage__isnull=False, round_number__isnull=False), name="checkin_stage_round"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.stage_id or '-'}/{self.round_number or '-'} {self.state}"

    @property
    def is_open(self) -> bool:
        return self.state == CheckInState.OPEN


class CheckInMark(models.Model):
    """Whether a participant is here, for one session: one row each, updated in place, so two phones ticking
    different players never touch the same row and the same tick twice changes nothing."""

    check_in = models.ForeignKey(CheckIn, on_delete=models.CASCADE, related_name="marks")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    present = models.BooleanField(_("present"), default=False)
    at = models.DateTimeField(_("at"))
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+")
    source = models.CharField(_("source"), max_length=10, choices=MarkSource.choices)

    class Meta:
        db_table = "running_checkinmark"
        verbose_name = _("check-in mark")
        verbose_name_plural = _("check-in marks")
        constraints = [
            models.UniqueConstraint(fields=["check_in", "participant"], name="checkin_mark_once"),
        ]

    def __str__(self) -> str:
        return f"{self.participant_id}: {'present' if self.present else 'missing'}"


class NoShow(models.Model):
    """A missing player marked absent from a round through a session (an ``Absence`` of the round), kept with who
    and when; restoring it (``restored_at``) removes the absence again."""

    check_in = models.ForeignKey(CheckIn, on_delete=models.CASCADE, related_name="no_shows")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    participant = models.ForeignKey(Participant, on_delete=models.CASCADE, related_name="+")
    marked_at = models.DateTimeField(_("marked at"))
    marked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    restored_at = models.DateTimeField(_("restored at"), null=True, blank=True)
    restored_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")

    class Meta:
        db_table = "running_noshow"
        verbose_name = _("no-show")
        verbose_name_plural = _("no-shows")
        ordering = ["round", "marked_at", "id"]

    def __str__(self) -> str:
        return f"{self.participant_id} in round {self.round_id}"
