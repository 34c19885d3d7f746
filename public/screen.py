"""The venue screen (the hall's projector): its slides from the public data, and the organizer's announcements and
round timer. Every change of the screen's own settings bumps the results version, so the screen's cached fragment
is rendered again and every projector shows it at its next poll (docs/venue-screen.md)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.models.people import normal_key

from .models import VenueScreen
from .places import Place, places, published_rounds
from .snapshot import Snapshot
from .versioning import bump

# The most a slide of a 1920×1080 screen holds in type readable from 10 m: the browser then sizes each
# slide's type to fill the screen (static/js/venue-screen.js), and a list is split into slides of even sizes
# (7 tables: 3, 2 and 2, never 3, 3 and a lonely 1).
TABLES_PER_SLIDE = 3  # a full name and the player's number side by side, three columns
NAMES_PER_SLIDE = 24  # the alphabetical list, in two columns of 12: a full name, its table and seat
ROWS_PER_SLIDE = 12  # standings
LONGEST_TIMER_MINUTES = 600


class ScreenError(ValueError):
    """A setting the screen cannot take, said in the organizer's words."""


def screen_of(tournament: Tournament) -> VenueScreen:
    """The tournament's screen settings (the defaults, unsaved, until the organizer changes one)."""
    found = VenueScreen.objects.filter(tournament=tournament).first()
    return found or VenueScreen(tournament=tournament)


@transaction.atomic
def change(tournament: Tournament, **values: Any) -> VenueScreen:
    screen, _created = VenueScreen.objects.select_for_update().get_or_create(tournament=tournament)
    for name, value in values.items():
        setattr(screen, name, value)
    screen.save()
    bump(tournament.pk)
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


def pause_timer(tournament: Tournament) -> VenueScreen:
    screen = screen_of(tournament)
    if screen.timer_ends_at is None:
        raise ScreenError(_("The timer is not running."))
    left = max(0, round((screen.timer_ends_at - timezone.now()).total_seconds()))
    return change(tournament, timer_ends_at=None, timer_left=left)


def resume_timer(tournament: Tournament) -> VenueScreen:
    screen = screen_of(tournament)
    if screen.timer_left is None:
        raise ScreenError(_("The timer is not paused."))
    return change(tournament, timer_ends_at=timezone.now() + dt.timedelta(seconds=screen.timer_left),
                  timer_left=None)


def stop_timer(tournament: Tournament) -> VenueScreen:
    return change(tournament, timer_ends_at=None, timer_left=None, timer_label="")


@dataclass
class Slide:
    kind: str  # "tables", "alphabetical", "standings", "announcement"
    title: str
    items: list[Any] = field(default_factory=list)
    page: int = 1
    pages: int = 1


def paged(kind: str, title: str, items: list[Any], size: int) -> list[Slide]:
    """``items`` on as few slides of at most ``size`` as they need, the slides as even as can be (the first ones
    one longer)."""
    count = max(1, -(-len(items) // size))
    base, extra = divmod(len(items), count)
    chunks, start = [], 0
    for n in range(count):
        end = start + base + (1 if n < extra else 0)
        chunks.append(items[start:end])
        start = end
    return [Slide(kind, title, chunk, n, len(chunks)) for n, chunk in enumerate(chunks, start=1)]


def slides(snapshot: Snapshot, screen: VenueScreen) -> list[Slide]:
    """The next round's seating by table and alphabetically (the round being played when none is published
    after it), the standings of the stage with results unless they are hidden, then each announcement."""
    out: list[Slide] = []
    current, following = snapshot.current_rounds()
    shown = following or current
    if shown is not None:
        round_ = next(r for r in published_rounds(snapshot.tournament)
                      if r.stage_id == shown.stage.pk and r.number == shown.number)
        found = places([round_])
        title = _("%(stage)s, round %(number)s") % {"stage": str(round_.stage), "number": round_.number}
        tables: dict[int, list[Place]] = {}
        for place in found:
            if place.table is not None:
                tables.setdefault(place.table, []).append(place)
        ordered = [(number, sorted(seats, key=lambda p: p.seat or 0)) for number, seats in sorted(tables.items())]
        out += paged("tables", title, ordered, TABLES_PER_SLIDE)
        alphabetical = sorted(found, key=lambda p: (normal_key(p.name), p.player))
        out += paged("alphabetical", title, alphabetical, NAMES_PER_SLIDE)
    stage = snapshot.default_stage()
    if stage is not None and not snapshot.tournament.standings_hidden:
        standings = snapshot.standings(stage.ext_id)
        rows = [(row.rank, row.name, row.points, row.player in standings.advance)
                for row in standings.rows if row.rank is not None]
        if rows:
            out += paged("standings", _("Standings: %(stage)s") % {"stage": str(stage)}, rows, ROWS_PER_SLIDE)
    out += [Slide("announcement", _("Announcement"), [text]) for text in screen.items()]
    return out
