"""A player's entry in a tournament: how they came (registered themselves or by the organizer), where they stand
(on the waiting list, a participant, withdrawn), their private link and their contact.

The contact (e-mail, Telegram, language, unsubscribed) and the tokens live here, beside the participant, so that a
notifier finds who to tell and how from a participant alone: ``Entry.objects.filter(
participant__in=...)``."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Participant, Tournament


def new_token() -> str:
    """A private link's token: 32 random URL-safe characters (as the judges' and the check-in's links)."""
    return secrets.token_urlsafe(24)


class ComingNames(models.TextChoices):
    """How the public "who is coming" list names the players."""

    FULL = "full", _("full name and nickname")
    SHORT = "short", _("first name, the surname's initial and nickname")
    NICKNAME = "nickname", _("nickname only (the first name where there is none)")
    COUNT = "count", _("no names, only how many")


class SelfRegistration(models.Model):
    """The organizer's settings of the public registration form of one tournament: open between ``opens`` and
    ``closes`` (both set by the organizer; without ``opens`` the form is closed)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="self_registration")
    opens = models.DateTimeField(_("registration opens"), null=True, blank=True)
    closes = models.DateTimeField(_("registration closes"), null=True, blank=True)
    coming_names = models.CharField(_("names on the list of who is coming"), max_length=10,
                                    choices=ComingNames.choices, default=ComingNames.SHORT)

    class Meta:
        verbose_name = _("online registration")
        verbose_name_plural = _("online registrations")

    def __str__(self) -> str:
        return str(self.tournament)


class EntryState(models.TextChoices):
    WAITING = "waiting", _("on the waiting list")
    ENTERED = "entered", _("registered")
    WITHDRAWN = "withdrawn", _("withdrawn")


class Language(models.TextChoices):
    RU = "ru", "Русский"
    EN = "en", "English"


class Entry(models.Model):
    """One person's place in one tournament. ``details`` keeps the person as they typed them (surname,
    first_name, patronymic, nickname, club, city, birth_date as ISO): a waiting person is not in the registry
    until promoted (then ``tournaments.services.people.add_player`` makes them a participant under the
    regulation's rules); after a withdrawal it still names them on the waiting list's record."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    participant = models.OneToOneField(Participant, on_delete=models.SET_NULL, null=True, blank=True,
                                       related_name="entry")
    state = models.CharField(_("state"), max_length=10, choices=EntryState.choices, default=EntryState.ENTERED)
    details = models.JSONField(_("details as typed"), default=dict, blank=True)
    self_registered = models.BooleanField(_("registered online"), default=False)
    # the private link /p/SLUG/me/TOKEN/: a new token revokes the old (it answers 404)
    token = models.CharField(max_length=64, unique=True, default=new_token)
    token_issued = models.DateTimeField(_("link issued"), auto_now_add=True)
    # the contact a notifier uses
    email = models.EmailField(_("e-mail"), blank=True)
    telegram = models.CharField(_("Telegram"), max_length=64, blank=True, help_text=_("The user name, as typed."))
    telegram_chat_id = models.BigIntegerField(_("Telegram chat"), null=True, blank=True)
    # the start parameter of the bot's deep link (t.me/BOT?start=TOKEN) that links the chat to this entry
    telegram_link_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    language = models.CharField(_("language"), max_length=5, choices=Language.choices, default=Language.RU)
    unsubscribed_at = models.DateTimeField(_("unsubscribed"), null=True, blank=True)
    consent_at = models.DateTimeField(_("agreed to the rules"), null=True, blank=True)
    created = models.DateTimeField(_("created"), auto_now_add=True)
    # the waiting list: in the order of ``waiting_since``; a promotion says when and whose withdrawal made room
    waiting_since = models.DateTimeField(_("waiting since"), null=True, blank=True)
    promoted_at = models.DateTimeField(_("promoted"), null=True, blank=True)
    promoted_after = models.ForeignKey("self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                       verbose_name=_("promoted after the withdrawal of"))
    promotion_problem = models.TextField(_("why the promotion was refused"), blank=True)
    withdrawn_at = models.DateTimeField(_("withdrawn"), null=True, blank=True)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                     related_name="+", verbose_name=_("withdrawn by"))

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "created", "id"]
        indexes = [models.Index(fields=["tournament", "state", "waiting_since"], name="entry_waiting")]

    def __str__(self) -> str:
        return self.name

    def detail(self, name: str) -> str:
        value: Any = self.details.get(name) if isinstance(self.details, dict) else None
        return value if isinstance(value, str) else ""

    @property
    def name(self) -> str:
        if self.participant is not None:
            return self.participant.player.full_name
        return " ".join(part for part in (self.detail("surname"), self.detail("first_name"),
                                          self.detail("patronymic")) if part)

    @property
    def nickname(self) -> str:
        return self.participant.player.nickname if self.participant is not None else self.detail("nickname")

    @property
    def first_name(self) -> str:
        return self.participant.player.first_name if self.participant is not None else self.detail("first_name")

    @property
    def surname(self) -> str:
        return self.participant.player.surname if self.participant is not None else self.detail("surname")
