"""A tournament's hall screen: the organizer's announcements, how long each slide stays, the round timer."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class VenueScreen(models.Model):
    """What the hall's projector shows besides the seating and the standings (``/p/SLUG/screen/``): the
    organizer's announcements, a round timer and how long each slide stays. A committed change bumps the
    results version (``public.versioning`` watches this app), so the screen's cached fragment is rendered again and
    every screen shows it at its next poll."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="venue_screen")
    announcements = models.TextField(_("announcements"), blank=True,
                                     help_text=_("One announcement a paragraph (an empty line between two)."))
    seconds_per_slide = models.PositiveSmallIntegerField(_("seconds per slide"), default=15)
    timer_label = models.CharField(_("timer's title"), max_length=100, blank=True)
    timer_ends_at = models.DateTimeField(_("timer ends at"), null=True, blank=True)  # running
    timer_left = models.PositiveIntegerField(_("seconds left (paused)"), null=True, blank=True)  # paused
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        db_table = "public_venuescreen"  # its table from when the model was public's: the rows stay where they are
        verbose_name = _("venue screen")
        verbose_name_plural = _("venue screens")

    def items(self) -> list[str]:
        return [part.strip() for part in self.announcements.replace("\r\n", "\n").split("\n\n") if part.strip()]
