"""The hall screen's state, changed by the organizer: the announcements with the seconds each slide stays, and
the round timer (start, pause, resume, stop). Each change is saved under the screen's row lock; once it commits,
the results version moves (``public.versioning`` watches this app), so every projector shows it at its next poll
(docs/venue-screen.md)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Tournament

from .models import VenueScreen

LONGEST_TIMER_MINUTES = 600


class ScreenError(UserError):
    """A setting the screen cannot take, said in the organizer's words."""


def screen_of(tournament: Tournament) -> VenueScreen:
    """The tournament's screen settings (the defaults, unsaved, until the organizer changes one)."""
    found = VenueScreen.objects.filter(tournament=tournament).first()
    return found or VenueScreen(tournament=tournament)


def locked(tournament: Tournament) -> VenueScreen:
    """The screen's row, locked until the transaction ends (made the first time)."""
    screen, _created = VenueScreen.objects.select_for_update().get_or_create(tournament=tournament)
    return screen


@transaction.atomic
def change(tournament: Tournament, **values: Any) -> VenueScreen:
    screen = locked(tournament)
    for name, value in values.items():
        setattr(screen, name, value)
    screen.save()
    return screen


def set_announcements(tournament: Tournament, text: str, seconds_per_slide: int) -> VenueScreen:
    if not 5 <= seconds_per_slide <= 120:
        raise ScreenError(_("A slide stays from 5 to 120 seconds."))
    if "\x00" in text:
        raise ScreenError(_("The announcements contain a NUL character, which cannot be stored."))
    return change(tournament, announcements=text.strip(), seconds_per_slide=seconds_per_slide)


def start_timer(tournament: Tournament, minutes: float, label: str) -> VenueScreen:
    if not 0 < minutes <= LONGEST_TIMER_MINUTES:
        raise ScreenError(_("The timer takes from a few seconds to %(n)s minutes.") % {"n": LONGEST_TIMER_MINUTES})
    label = label.strip()
    most = VenueScreen._meta.get_field("timer_label").max_length or 0
    if "\x00" in label:
        raise ScreenError(_("The timer's title contains a NUL character, which cannot be stored."))
    if len(label) > most:
        raise ScreenError(_("The timer's title is at most %(most)s characters; this one has %(length)s.")
                          % {"most": most, "length": len(label)})
    ends = timezone.now() + dt.timedelta(seconds=round(minutes * 60))
    return change(tournament, timer_label=label, timer_ends_at=ends, timer_left=None)


@transaction.atomic
def pause_timer(tournament: Tournament) -> VenueScreen:
    screen = locked(tournament)  # read under the lock: two pauses at once pause once
    if screen.timer_ends_at is None:
        raise ScreenError(_("The timer is not running."))
    left = max(0, round((screen.timer_ends_at - timezone.now()).total_seconds()))
    return change(tournament, timer_ends_at=None, timer_left=left)


@transaction.atomic
def resume_timer(tournament: Tournament) -> VenueScreen:
    screen = locked(tournament)
    if screen.timer_left is None:
        raise ScreenError(_("The timer is not paused."))
    return change(tournament, timer_ends_at=timezone.now() + dt.timedelta(seconds=screen.timer_left),
                  timer_left=None)


def stop_timer(tournament: Tournament) -> VenueScreen:
    return change(tournament, timer_ends_at=None, timer_left=None, timer_label="")
