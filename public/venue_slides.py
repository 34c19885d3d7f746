"""The venue screen's slides (the hall's projector): the next round's seating by table and by name, the standings
and the organizer's announcements (``venue_screen``), from the public data (docs/venue-screen.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from tournaments.models.people import normal_key
from venue_screen.models import VenueScreen

from .seats import Place, places, published_rounds
from .snapshot import Snapshot

# The most a slide of a 1920×1080 screen holds in type readable from 10 m: the browser then sizes each
# slide's type to fill the screen (static/js/venue-screen.js), and a list is split into slides of even sizes
# (7 tables: 3, 2 and 2, never 3, 3 and a lonely 1).
TABLES_PER_SLIDE = 3  # a full name and the player's number side by side, three columns
NAMES_PER_SLIDE = 24  # the alphabetical list, in two columns of 12: a full name, its table and seat
ROWS_PER_SLIDE = 12  # standings


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
        standings = snapshot.table_standings(stage.ext_id)
        rows = [(row.rank, row.name, row.points, row.player in standings.advance)
                for row in standings.rows if row.rank is not None]
        if rows:
            out += paged("standings", _("Standings: %(stage)s") % {"stage": str(stage)}, rows, ROWS_PER_SLIDE)
    out += [Slide("announcement", _("Announcement"), [text]) for text in screen.items()]
    return out
