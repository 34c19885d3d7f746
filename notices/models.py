"""Notifications (docs/notifications.md): a row per message handed to a channel (or waiting, or failed), so the
organizer sees who has been told what and when; the organizer's broadcasts; the judges' Telegram chats; the bot's
reading position in getUpdates."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from entries.models import Entry
from tournaments.models import Round, Tournament


class Channel(models.TextChoices):
    EMAIL = "email", _("e-mail")
    TELEGRAM = "telegram", "Telegram"


class Kind(models.TextChoices):
    SEAT = "seat", _("seat in a round")
    BYE = "bye", _("a bye in a round")
    WITHDRAWN = "withdrawn", _("round withdrawn")
    PROTEST = "protest", _("protest decided")
    SENT_BACK = "sent_back", _("protocol sent back")
    FINAL = "final", _("results final")
    BROADCAST = "broadcast", _("organizer's message")


class Audience(models.TextChoices):
    EVERYONE = "everyone", _("everyone (players and judges)")
    PLAYERS = "players", _("the players")
    JUDGES = "judges", _("the judges")


class Broadcast(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="broadcasts")
    audience = models.CharField(_("to"), max_length=10, choices=Audience.choices, default=Audience.EVERYONE)
    text = models.TextField(_("message"))
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created = models.DateTimeField(_("sent"), auto_now_add=True)

    class Meta:
        verbose_name = _("broadcast")
        verbose_name_plural = _("broadcasts")
        ordering = ["-created", "-id"]

    def __str__(self) -> str:
        return self.text[:50]


class Message(models.Model):
    """One message to one person on one channel. ``handed_at``: when the channel took it (the SMTP server
    accepted it, the Bot API answered ok); ``error`` and ``attempts``: the last failure and how many tries;
    ``given_up``: no more tries. ``facts`` keep what a seat message said (table, seat, start), so that after a
    re-seat only those whose seat changed are told again."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="messages")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="messages")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True,
                             related_name="+")
    name = models.CharField(_("to"), max_length=200)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices)
    address = models.CharField(_("address"), max_length=254)
    kind = models.CharField(_("about"), max_length=10, choices=Kind.choices)
    language = models.CharField(_("language"), max_length=5, default="ru")
    subject = models.CharField(_("subject"), max_length=200)
    text = models.TextField(_("text"))
    round = models.ForeignKey(Round, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    broadcast = models.ForeignKey(Broadcast, on_delete=models.CASCADE, null=True, blank=True,
                                  related_name="messages")
    facts = models.JSONField(default=dict, blank=True)
    created = models.DateTimeField(_("queued"), auto_now_add=True)
    handed_at = models.DateTimeField(_("handed to the channel"), null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    error = models.TextField(_("last failure"), blank=True)
    given_up = models.BooleanField(_("given up"), default=False)

    class Meta:
        verbose_name = _("message")
        verbose_name_plural = _("messages")
        ordering = ["-created", "-id"]
        indexes = [models.Index(fields=["tournament", "created"], name="message_tournament"),
                   models.Index(fields=["round", "entry"], name="message_round_entry")]

    def __str__(self) -> str:
        return f"{self.name}: {self.subject}"


class JudgeChat(models.Model):
    """A judge's (a user's) Telegram chat, linked by the same bot's deep link as a player's (docs/notifications.md)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="telegram_chat")
    chat_id = models.BigIntegerField(null=True, blank=True)
    link_token = models.CharField(max_length=64, unique=True)
    language = models.CharField(max_length=5, default="ru")
    linked_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return str(self.user)


class BotState(models.Model):
    """The next update id to ask getUpdates for (the polling command's position), one row."""

    offset = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return str(self.offset)
