"""The table's side of the stream overlay (the overlay itself is the ``stream`` app, above this one;
docs/stream-overlay.md): who speaks now, which the judge marks on the table screen while the tournament is streamed.

The mark is not part of the protocol (no version, no history): a cache entry a game, by day only. The ``stream`` app
says whether a tournament is streamed (``streamed_by``) and, told by ``speaker_marked``, shows the new speaker.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.cache import cache
from django.dispatch import Signal
from django.utils.translation import gettext as _

from tournaments.models import Tournament

from ..models import Game, GameState

log = logging.getLogger(__name__)

SPEAKER_SECONDS = 3 * 3600
SPEAKER = "stream:speaker:{game}"
DEPARTURES = ("voted_out", "killed", "removed")

# The stream app's answer to "is this tournament streamed?", registered when it starts: the table screen offers
# "Speaking" only then.
streamed_by: list[Callable[[Tournament], bool]] = []
# Sent with ``game`` after the judge marked (or unmarked) the speaker; the stream app shows it.
speaker_marked = Signal()


class StreamError(ValueError):
    """A speaker the table cannot take now; the message says why."""


def streamed(tournament: Tournament) -> bool:
    return any(check(tournament) for check in streamed_by)


def speaker_mark(game: Game) -> tuple[int, int] | None:
    """(seat, length of the game log when marked) of the speaker the judge marked during this day, or None (a mark of
    an earlier day is forgotten)."""
    try:
        value = cache.get(SPEAKER.format(game=game.pk))
    except Exception:  # the cache (Redis) is down: the judge's screen and the frame go on without the speaker
        log.exception("reading the speaker of game %s failed", game.pk)
        return None
    if not value:
        return None
    seat, phase, logged = (int(part) for part in str(value).split(":"))
    return (seat, logged) if phase == game.phase else None


def speaker(game: Game) -> int | None:
    """Who speaks now: the seat marked, unless it left the table after the mark (a player voted out or killed
    before the mark is giving their last word)."""
    mark = speaker_mark(game)
    if mark is None:
        return None
    seat, logged = mark
    left_since = any(e.get("seat") == seat and e["kind"] in DEPARTURES for e in list(game.log)[logged:])
    return None if left_since else seat


def set_speaker(game: Game, seat: int) -> int | None:
    """The judge marks who speaks now (the same seat again: nobody); returns who speaks. By day only, while the
    protocol is being recorded."""
    if game.state != GameState.DRAFT:
        raise StreamError(_("The protocol is no longer being recorded."))
    if not game.seats.filter(seat__number=seat).exists():
        raise StreamError(_("There is no seat %(n)s at this table.") % {"n": seat})
    if game.phase % 2 == 0:
        raise StreamError(_("Players speak by day: switch the day/night first."))
    key = SPEAKER.format(game=game.pk)
    now = None if speaker(game) == seat else seat
    try:
        if now is None:
            cache.delete(key)
        else:
            cache.set(key, f"{now}:{game.phase}:{len(game.log)}", SPEAKER_SECONDS)
    except Exception:
        log.exception("marking the speaker of game %s failed", game.pk)
        raise StreamError(_("The stream cannot be reached now; the protocol is not affected.")) from None
    speaker_marked.send(sender=Game, game=game)
    return now
