"""Players (a registry across tournaments), teams and a tournament's participants."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .event import Tournament

ext_id_validator = RegexValidator(
    r"^[A-Za-z0-9_.-]{1,64}$", _("Use 1 to 64 Latin letters, digits, '_', '.' or '-'.")
)


def normal_key(text: str) -> str:
    """A name or nickname as the registry compares them (docs/registry.md): case folded, ё read as е, spaces
    collapsed."""
    return " ".join(text.casefold().replace("ё", "е").split())


class PlayerQuerySet(models.QuerySet["Player"]):
    def bulk_create(self, objs: Iterable[Player], *args: Any, **kwargs: Any) -> list[Player]:
        """As Django's, with the matching keys filled in (``save`` is not called for these rows)."""
        rows = list(objs)
        for row in rows:
            row.fill_keys()
        return super().bulk_create(rows, *args, **kwargs)


class Player(models.Model):
    """A person, across tournaments. The phone is private: only organizers and the admin see it."""

    surname = models.CharField(_("surname"), max_length=100)
    first_name = models.CharField(_("first name"), max_length=100, blank=True)
    patronymic = models.CharField(_("patronymic"), max_length=100, blank=True)
    nickname = models.CharField(_("nickname"), max_length=100, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    club = models.CharField(_("club"), max_length=100, blank=True)
    birth_date = models.DateField(_("birth date"), null=True, blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # The person's account on the site, where the organizer links it: how a judge (a user) is known to be the
    # same person as a participant (kostroma 3.1: the commission's members are not participants).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="players",
        verbose_name=_("user account"),
    )
    # The full name and the nickname as the registry compares them (``normal_key``), kept with the row so that a
    # whole list is matched by one indexed query (services/registry.py); ``save`` and ``bulk_create`` fill them.
    name_key = models.CharField(max_length=310, blank=True, db_index=True, editable=False)
    nickname_key = models.CharField(max_length=100, blank=True, db_index=True, editable=False)

    objects = PlayerQuerySet.as_manager()

    class Meta:
        verbose_name = _("player")
        verbose_name_plural = _("players")
        ordering = ["surname", "first_name", "patronymic", "id"]
        permissions = [("merge_player", _("Can merge two players who are one person"))]

    def __str__(self) -> str:
        return self.full_name

    def fill_keys(self) -> None:
        self.name_key = normal_key(self.full_name)
        self.nickname_key = normal_key(self.nickname)

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.fill_keys()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, "name_key", "nickname_key"}
        super().save(*args, **kwargs)

    @property
    def full_name(self) -> str:
        return " ".join(part for part in (self.surname, self.first_name, self.patronymic) if part)

    @property
    def display_name(self) -> str:
        return f"{self.full_name} «{self.nickname}»" if self.nickname else self.full_name


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    ext_id = models.CharField(_("id in the tournament file"), max_length=64, validators=[ext_id_validator])
    name = models.CharField(_("name"), max_length=100)

    class Meta:
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        ordering = ["tournament", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "ext_id"], name="team_ext_id_unique"),
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique"),
        ]

    def __str__(self) -> str:
        return self.name


class ParticipantStatus(models.TextChoices):
    """An application is ``applied`` until the organizer accepts or rejects it."""

    APPLIED = "applied", _("applied")
    ACCEPTED = "accepted", _("accepted")
    REJECTED = "rejected", _("rejected")


class Participant(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="participants")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="participations")
    ext_id = models.CharField(_("id in the tournament file"), max_length=64, validators=[ext_id_validator])
    number = models.PositiveIntegerField(_("number"), null=True, blank=True)
    team = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="members", verbose_name=_("team")
    )
    guest = models.BooleanField(_("guest"), default=False, help_text=_("Plays, but is never ranked."))
    status = models.CharField(
        _("status"), max_length=10, choices=ParticipantStatus.choices, default=ParticipantStatus.ACCEPTED
    )
    registered = models.DateTimeField(_("registered"), auto_now_add=True)
    disqualified_at = models.DateTimeField(_("disqualified at"), null=True, blank=True)
    disqualified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("disqualified by"),
    )
    disqualification_reason = models.TextField(_("reason for disqualification"), blank=True)
    # Who changed what and why (a disqualification and its reversal keep their reasons here, of any length).
    history = HistoricalRecords(excluded_fields=["registered"], history_change_reason_field=models.TextField(null=True))

    class Meta:
        verbose_name = _("participant")
        verbose_name_plural = _("participants")
        ordering = ["tournament", "number", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "ext_id"], name="participant_ext_id_unique"),
            models.UniqueConstraint(fields=["tournament", "number"], name="participant_number_unique"),
            models.UniqueConstraint(fields=["tournament", "player"], name="participant_player_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.number or '–'}. {self.player.full_name}"
