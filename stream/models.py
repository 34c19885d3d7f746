"""The stream overlay's settings for one tournament (docs/stream-overlay.md)."""

from __future__ import annotations

from django.core.validators import MaxValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

MAX_DELAY_SECONDS = 900  # 15 minutes: more than any stream's delay


class StreamOverlay(models.Model):
    """A tournament's overlay for OBS: one secret link a table number (``/t/SLUG/stream/<token>/<n>/``), the roles
    shown to the stream or not, and how many seconds the stream runs behind the table. A new token revokes every
    link given out before."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="stream_overlay")
    token = models.CharField(_("token"), max_length=64, unique=True)
    show_roles = models.BooleanField(_("show the roles to the stream"), default=False)
    delay_seconds = models.PositiveIntegerField(_("delay, seconds"), default=0,
                                                validators=[MaxValueValidator(MAX_DELAY_SECONDS)])
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        db_table = "games_streamoverlay"  # the table of before the overlay had an app of its own
        verbose_name = _("stream overlay")
        verbose_name_plural = _("stream overlays")

    def __str__(self) -> str:
        return f"{self.tournament}: {self.delay_seconds} s"
