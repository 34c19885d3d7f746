"""The organizer's overlay (docs/stream-overlay.md): turning it on and off, its secret link, the roles shown or not
and the stream's delay."""

from __future__ import annotations

import secrets
import time

from django.utils.translation import gettext as _

from base.after_commit import after_commit
from tournaments.models import Tournament

from ..models import MAX_DELAY_SECONDS, StreamOverlay
from . import delay, triggers


class StreamError(ValueError):
    """A setting the overlay cannot take; the message names it."""


def overlay_of(tournament: Tournament) -> StreamOverlay | None:
    return StreamOverlay.objects.filter(tournament=tournament).first()


def is_streamed(tournament: Tournament) -> bool:
    """The table screen offers "Speaking" (``games.services.stream.streamed``)."""
    return StreamOverlay.objects.filter(tournament=tournament).exists()


def open_overlay(tournament: Tournament) -> StreamOverlay:
    overlay, _created = StreamOverlay.objects.get_or_create(tournament=tournament,
                                                           defaults={"token": secrets.token_urlsafe(24)})
    return overlay


def overlay_for_token(slug: str, token: str) -> StreamOverlay | None:
    return StreamOverlay.objects.select_related("tournament").filter(tournament__slug=slug, token=token).first()


def new_link(overlay: StreamOverlay) -> StreamOverlay:
    """A new token: every overlay link given out before answers 404 (and its socket closes within a ticket's time)."""
    overlay.token = secrets.token_urlsafe(24)
    overlay.save(update_fields=["token", "updated"])
    return overlay


def change_settings(overlay: StreamOverlay, show_roles: bool, delay_text: str) -> StreamOverlay:
    try:
        seconds = int(delay_text.strip() or "0")
    except ValueError:
        raise StreamError(_("The delay is a whole number of seconds, from 0 to %(most)s.")
                          % {"most": MAX_DELAY_SECONDS}) from None
    if not 0 <= seconds <= MAX_DELAY_SECONDS:
        raise StreamError(_("The delay is a whole number of seconds, from 0 to %(most)s.")
                          % {"most": MAX_DELAY_SECONDS})
    hiding = overlay.show_roles and not show_roles
    if seconds > overlay.delay_seconds:
        delay.hold_for_longer_delay(overlay.tournament_id, overlay.delay_seconds, seconds, time.time())
    overlay.show_roles, overlay.delay_seconds = show_roles, seconds
    overlay.save(update_fields=["show_roles", "delay_seconds", "updated"])
    after_commit(lambda: triggers.enqueue_settings_changed(overlay.tournament_id, hiding))
    return overlay


def turn_off(overlay: StreamOverlay) -> None:
    """No overlay any more: its links answer 404, the judges' screens lose "Speaking"; the kept frames expire."""
    overlay.delete()
