"""The facts a game log implies, derived as the judge's screen derives them (games/services/facts.py):
who left the table when, the first kill, the days each seat survived, and whether the mafia missed three
nights in a row (docs/rules/game.md). Pure: a whole-game document (a platform's, the judge's log) feeds it.

Phases count days and nights: day N is 2N − 1, night N is 2N (``model.LogEvent``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .model import LogEvent

DEPARTURES = ("voted_out", "killed", "removed")


@dataclass(frozen=True)
class Departure:
    """How a seat left: ``kind`` one of ``DEPARTURES``; ``number`` the day (voted out, removed) or the night
    (killed) it happened on."""

    kind: str
    number: int


def day_or_night(phase: int) -> int:
    """The N of day N or night N."""
    return (phase + 1) // 2


def departures(log: Iterable[LogEvent]) -> dict[int, Departure]:
    """Seat → its departure; a seat's first departure counts (a later one in the log is a judge's slip)."""
    left: dict[int, Departure] = {}
    for event in log:
        if event.kind in DEPARTURES and event.seat is not None and event.seat not in left:
            left[event.seat] = Departure(event.kind, day_or_night(event.phase))
    return left


def first_killed(log: Iterable[LogEvent]) -> int | None:
    """The seat killed on night 1 (the lowest if two were), else None."""
    killed = [e.seat for e in log if e.kind == "killed" and e.phase == 2 and e.seat is not None]
    return min(killed) if killed else None


def last_day(log: Iterable[LogEvent]) -> int:
    """The last day the game reached (a game's night N is followed by day N + 1 only if the log shows it)."""
    return max((day_or_night(e.phase) for e in log), default=1)


def days_survived(log: Iterable[LogEvent], seats: Iterable[int]) -> dict[int, int]:
    """Seat → days survived: a player voted out, removed or killed on day/night N survived N days; the others
    every day the game reached."""
    events = tuple(log)
    left, reached = departures(events), last_day(events)
    return {seat: left[seat].number if seat in left else reached for seat in seats}


def mafia_missed_three_nights(log: Iterable[LogEvent]) -> bool:
    """Three nights in a row without a kill while the same players sat at the table (nobody left by day in
    between): the regulation's three missed nights. Only the nights the log reaches count."""
    events = tuple(log)
    if not events:
        return False
    last_phase = max(e.phase for e in events)
    killed_nights = {e.phase for e in events if e.kind == "killed"}
    day_departures = {e.phase for e in events if e.kind in ("voted_out", "removed")}
    misses = 0
    for phase in range(1, last_phase + 1):
        if phase % 2:  # a day: a departure changes who sits at the table
            if phase in day_departures:
                misses = 0
        elif phase in killed_nights:
            misses = 0
        else:
            misses += 1
            if misses == 3:
                return True
    return False
