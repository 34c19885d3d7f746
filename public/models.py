"""A tournament's results version: what public pages, their ETags and their cache depend on."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class ResultsVersion(models.Model):
    """Bumped after every committed change of a tournament's public data (``public.versioning``).

    Also records who published the standings last (the hidden → published transition).
    """

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="results_version")
    version = models.PositiveBigIntegerField(_("version"), default=1)
    updated = models.DateTimeField(_("updated"), auto_now=True)
    standings_changed_at = models.DateTimeField(_("standings visibility changed at"), null=True, blank=True)
    standings_changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("results version")
        verbose_name_plural = _("results versions")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.version}"


class VenueScreen(models.Model):
    """What the hall's projector shows besides the seating and the standings (``/p/SLUG/screen/``): the
    organizer's announcements, a round timer and how long each slide stays. A change bumps the results version
    (``public.screen``), so the screen's cached fragment is rendered again and every screen shows it at its next
    poll."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="venue_screen")
    announcements = models.TextField(_("announcements"), blank=True,
                                     help_text=_("One announcement a paragraph (an empty line between two)."))
    seconds_per_slide = models.PositiveSmallIntegerField(_("seconds per slide"), default=15)
    timer_label = models.CharField(_("timer's title"), max_length=100, blank=True)
    timer_ends_at = models.DateTimeField(_("timer ends at"), null=True, blank=True)  # running
    timer_left = models.PositiveIntegerField(_("seconds left (paused)"), null=True, blank=True)  # paused
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("venue screen")
        verbose_name_plural = _("venue screens")

    def items(self) -> list[str]:
        return [part.strip() for part in self.announcements.replace("\r\n", "\n").split("\n\n") if part.strip()]
