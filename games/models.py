"""A game's protocol: the result of one table of a round, and each seat's facts (RULES.md §1)."""

from __future__ import annotations

from decimal import Decimal

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Seat, Table


class Side(models.TextChoices):
    RED = "red", _("red")
    BLACK = "black", _("black")
    MANIAC = "maniac", _("maniac")


class Role(models.TextChoices):
    CIVILIAN = "civilian", _("civilian")
    SHERIFF = "sheriff", _("sheriff")
    DOCTOR = "doctor", _("doctor")
    MAFIA = "mafia", _("mafia")
    DON = "don", _("don")
    MANIAC = "maniac", _("maniac")
    GHOST = "ghost", _("ghost")
    MUSICIAN = "musician", _("musician")
    ARTIST = "artist", _("artist")
    THIEF = "thief", _("thief")
    SCREENWRITER = "screenwriter", _("screenwriter")


class Game(models.Model):
    """The protocol of one table; ``winner`` blank means the game has no result yet."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="game")
    winner = models.CharField(_("winner"), max_length=10, choices=Side.choices, blank=True)
    first_killed = models.PositiveSmallIntegerField(
        _("killed in the first night"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(12)],
    )
    best_move = models.JSONField(_("best move"), default=list, blank=True)
    circles = models.JSONField(_("speech circles"), default=list, blank=True)
    mafia_missed_three_nights = models.BooleanField(_("mafia missed three nights"), default=False)
    judge = models.CharField(_("judge"), max_length=100, null=True, blank=True)
    notes = models.TextField(_("notes"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return str(self.table)


class GameSeat(models.Model):
    """What happened to the player of one seat in a game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="result")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices)
    side = models.CharField(_("side"), max_length=10, choices=Side.choices, blank=True)
    fouls = models.PositiveSmallIntegerField(_("fouls"), default=0, validators=[MaxValueValidator(4)])
    removed = models.BooleanField(_("removed"), default=False)
    extra = models.DecimalField(_("extra points"), max_digits=10, decimal_places=6, default=Decimal(0))
    best = models.BooleanField(_("named best"), default=False)
    days_survived = models.PositiveSmallIntegerField(
        _("days survived"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    subjective = models.DecimalField(
        _("subjective points"), max_digits=10, decimal_places=6, null=True, blank=True
    )

    class Meta:
        verbose_name = _("seat in a game")
        verbose_name_plural = _("seats in a game")
        ordering = ["game", "seat__number"]

    def __str__(self) -> str:
        return f"{self.seat}: {self.get_role_display()}"


class ProtestDecision(models.TextChoices):
    PENDING = "pending", _("pending")
    UPHELD = "upheld", _("upheld")
    REJECTED = "rejected", _("rejected")


class Protest(models.Model):
    """A protest about a game, recorded on its protocol; the chief judge decides."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="protests")
    seat = models.PositiveSmallIntegerField(
        _("seat"), validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    text = models.TextField(_("text"))
    lodged_at = models.CharField(_("lodged at"), max_length=40, null=True, blank=True)
    decision = models.CharField(
        _("decision"), max_length=10, choices=ProtestDecision.choices, null=True, blank=True
    )
    decided_by = models.CharField(_("decided by"), max_length=100, null=True, blank=True)
    other = models.JSONField(_("other fields"), default=dict, blank=True)

    class Meta:
        verbose_name = _("protest")
        verbose_name_plural = _("protests")
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.seat}"
