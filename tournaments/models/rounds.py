"""Rounds of a stage: tables with seats, byes, absences and penalties."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from ..fields import ExactNumberField
from ..labels import SeatingMethod
from .event import Stage
from .people import Participant


class RoundState(models.TextChoices):
    """A round's seating is ``draft`` (editable) until published; unpublishing is explicit."""

    DRAFT = "draft", _("draft")
    PUBLISHED = "published", _("published")


class RoundQuerySet(models.QuerySet["Round"]):
    def published(self) -> RoundQuerySet:
        """The rounds players and spectators see (and the standings count)."""
        return self.filter(state=RoundState.PUBLISHED)


class TableQuerySet(models.QuerySet["Table"]):
    def published(self) -> TableQuerySet:
        """The tables of published rounds."""
        return self.filter(round__state=RoundState.PUBLISHED)


class SeatQuerySet(models.QuerySet["Seat"]):
    def published(self) -> SeatQuerySet:
        """The seats of published rounds."""
        return self.filter(round__state=RoundState.PUBLISHED)


class Round(models.Model):
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("number"), validators=[MinValueValidator(1)])
    seating = models.CharField(_("seating method"), max_length=20, choices=SeatingMethod.choices, blank=True)
    state = models.CharField(_("state"), max_length=10, choices=RoundState.choices, default=RoundState.DRAFT)
    seed = models.BigIntegerField(_("seed"), null=True, blank=True)
    tables_chosen = models.PositiveSmallIntegerField(
        _("tables chosen"), null=True, blank=True,
        help_text=_("The number of tables the organizer asked for; blank: as many full tables as the players fill."))
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True,
                                     help_text=_("The scheduled start, shown in the public program."))
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    objects = RoundQuerySet.as_manager()

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["stage", "number"]
        constraints = [models.UniqueConstraint(fields=["stage", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.stage} · {self.number}"

    @property
    def is_published(self) -> bool:
        return self.state == RoundState.PUBLISHED


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("table"), validators=[MinValueValidator(1)])

    objects = TableQuerySet.as_manager()

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")]

    def __str__(self) -> str:
        return f"{self.round} · {self.number}"


class Seat(models.Model):
    """One player in one seat; ``round`` is repeated so a player sits once per round (a constraint)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveIntegerField(_("seat"), validators=[MinValueValidator(1), MaxValueValidator(12)])
    # RESTRICT, not PROTECT: a participant who played cannot be deleted alone, but deleting the whole
    # tournament (which deletes both) is allowed.
    participant = models.ForeignKey(Participant, on_delete=models.RESTRICT, related_name="seats")

    objects = SeatQuerySet.as_manager()

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["round", "participant"], name="seat_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.table} · {self.number}"


class Bye(models.Model):
    """A player who could not be seated this round (the ruleset's bye points)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    participant = models.ForeignKey(Participant, on_delete=models.RESTRICT, related_name="byes")

    class Meta:
        verbose_name = _("bye")
        verbose_name_plural = _("byes")
        ordering = ["round", "id"]
        constraints = [models.UniqueConstraint(fields=["round", "participant"], name="bye_once_per_round")]

    def __str__(self) -> str:
        return f"{self.round}: {self.participant}"


class Absence(models.Model):
    """A player of the stage who missed the round (the ruleset's absence points)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="absences")
    participant = models.ForeignKey(Participant, on_delete=models.RESTRICT, related_name="absences")

    class Meta:
        verbose_name = _("absence")
        verbose_name_plural = _("absences")
        ordering = ["round", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "participant"], name="absence_once_per_round")
        ]

    def __str__(self) -> str:
        return f"{self.round}: {self.participant}"


class Penalty(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="penalties")
    participant = models.ForeignKey(Participant, on_delete=models.RESTRICT, related_name="penalties")
    points = ExactNumberField(_("points"), default=0)
    reason = models.CharField(_("reason"), max_length=200, null=True, blank=True)

    class Meta:
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        ordering = ["round", "id"]

    def __str__(self) -> str:
        return f"{self.round}: {self.participant} {self.points}"
