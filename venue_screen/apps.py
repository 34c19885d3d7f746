from __future__ import annotations

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class VenueScreenConfig(AppConfig):
    """The hall's projector (docs/venue-screen.md): its state (announcements, seconds per slide, the round timer)
    and the organizer's page that sets it; the projector's page itself is a public page (``public``)."""

    name = "venue_screen"
    verbose_name = _("Hall screen")
