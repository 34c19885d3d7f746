"""A game's protocol: the result of one table of a round, and each seat's facts (docs/rules/game.md)."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.fields import ExactNumberField
from tournaments.labels import ProtestDecision, Role, Side
from tournaments.models import Seat, Table


class GameState(models.TextChoices):
    """``draft`` counts for nothing; ``submitted`` and ``confirmed`` count in the standings."""

    DRAFT = "draft", _("draft")
    SUBMITTED = "submitted", _("submitted")
    CONFIRMED = "confirmed", _("confirmed")


class Left(models.TextChoices):
    """How a player left the table: voted out on day N, killed on night N, removed on day N."""

    VOTED = "voted", _("voted out")
    KILLED = "killed", _("killed")
    REMOVED = "removed", _("removed")


class Game(models.Model):
    """The protocol of one table; ``winner`` blank means the game has no result yet.

    ``version`` grows by one with every change; an edit based on an older version is refused.
    ``phase`` is the judge's day/night counter: day N is ``2N - 1``, night N is ``2N``.
    """

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
    # The judge's game log (optional), as the file's ``log``: [{"kind", "phase", "seat"?, "count"?}, ...].
    log = models.JSONField(_("game log"), default=list, blank=True)
    mafia_missed_three_nights = models.BooleanField(_("mafia missed three nights"), default=False)
    # The win awarded rather than played out, as the file's ``awarded``: {"reason", "seats"?}; empty: played out.
    awarded = models.JSONField(_("win awarded"), default=dict, blank=True)
    judge = models.CharField(_("judge"), max_length=100, null=True, blank=True)
    notes = models.TextField(_("notes"), null=True, blank=True)
    state = models.CharField(_("state"), max_length=10, choices=GameState.choices, default=GameState.DRAFT)
    version = models.PositiveIntegerField(_("version"), default=1)
    phase = models.PositiveSmallIntegerField(_("phase"), default=1, validators=[MinValueValidator(1)])
    ended_at = models.DateTimeField(_("game ended at"), null=True, blank=True)
    changed_at = models.DateTimeField(_("changed at"), null=True, blank=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    submitted_at = models.DateTimeField(_("submitted at"), null=True, blank=True)
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reopen_reason = models.TextField(_("reason for reopening"), blank=True)
    # The chief judge's comment when a submitted protocol is sent back to its judge (a draft again); shown to the
    # judge until the protocol is submitted again.
    sent_back_comment = models.TextField(_("sent back with the comment"), blank=True)
    # The reason of a version is the chief judge's reason for reopening: any length (simple-history's default
    # column holds 100 characters, and a longer reason failed the save after passing every check).
    history = HistoricalRecords(excluded_fields=["changed_at"], history_change_reason_field=models.TextField(null=True))

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return str(self.table)


class GameSeat(models.Model):
    """What happened to the player of one seat in a game."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="result")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, blank=True)
    side = models.CharField(_("side"), max_length=10, choices=Side.choices, blank=True)
    fouls = models.PositiveSmallIntegerField(_("fouls"), default=0, validators=[MaxValueValidator(4)])
    removed = models.BooleanField(_("removed"), default=False)
    extra = ExactNumberField(_("extra points"), default=0)
    best = models.BooleanField(_("named best"), default=False)
    days_survived = models.PositiveSmallIntegerField(
        _("days survived"), null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(12)]
    )
    subjective = ExactNumberField(_("subjective points"), null=True, blank=True)
    foul_reasons = models.JSONField(_("fouls with their reasons"), default=list, blank=True)
    removal_reason = models.CharField(_("reason for removal"), max_length=30, blank=True)
    # Verbal warnings apart from the remarks (the file's ``warnings`` is their count), each by its reason's code.
    warning_reasons = models.JSONField(_("verbal warnings with their reasons"), default=list, blank=True)
    left = models.CharField(_("left the table"), max_length=10, choices=Left.choices, blank=True)
    left_number = models.PositiveSmallIntegerField(_("on day/night"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("seat in a game")
        verbose_name_plural = _("seats in a game")
        ordering = ["game", "seat__number"]

    def __str__(self) -> str:
        return f"{self.seat}: {self.get_role_display()}"


class Protest(models.Model):
    """A protest about a game, recorded on its protocol; the chief judge decides, finally.

    ``lodged_at``, ``decision`` and ``decided_by`` are the tournament file's fields (kept as written,
    so a file round-trips); no decision or ``pending`` means not decided yet.
    """

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
    # Recorded by the web (a file's protest has none of these): who lodged it and when, the chief
    # judge who accepted it after the ruleset's window, and the decision's author, time and reason.
    recorded_at = models.DateTimeField(_("recorded at"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    late_accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("accepted after the window by"),
    )
    reason = models.TextField(_("reason for the decision"), blank=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decider = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("protest")
        verbose_name_plural = _("protests")
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"{self.game}: {self.seat}"
