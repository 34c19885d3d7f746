"""The facts a game log implies, derived as the judge's screen derives them (games/services/facts.py):
who left the table when, the first kill, the days each seat survived, and whether the mafia missed three
nights in a row (docs/rules/game.md). Pure: a whole-game document (a platform's, the judge's log) feeds it.
With the log kept, the judge's screen also derives from it who the night's shots kill (``night_victims``) and
who the day's votes send out (``vote_result``).

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


def night_victims(night: Iterable[LogEvent], black: Iterable[int], maniacs: Iterable[int] = ()) -> list[int]:
    """Who the shots of one night kill [ours, docs/rules/game.md "The game log"]: the mafia's victim when every
    black player at the table (``black``) shot the same seat, a maniac's (``maniacs``) whoever they shot; a seat
    the doctor healed that night survives. Each shooter's last shot counts; a shot without ``by`` is every black
    player's. Fewer shots than black players, or shots at different seats: the mafia missed."""
    events, blacks, killers = tuple(night), set(black), set(maniacs)
    shots: dict[int, int] = {}
    for event in events:
        if event.kind != "shot" or event.seat is None:
            continue
        for shooter in (blacks if event.by is None else {event.by}):
            shots[shooter] = event.seat
    healed = {e.seat for e in events if e.kind == "heal"}
    victims: set[int] = set()
    targets = {shots[b] for b in blacks if b in shots}
    if blacks and len(targets) == 1 and all(b in shots for b in blacks):
        victims |= targets
    victims |= {shots[m] for m in killers if m in shots}
    return sorted(v for v in victims if v not in healed)


def vote_result(nominees: Iterable[int], votes: Iterable[tuple[int, int]], voters: int) -> int | None:
    """Who the day's votes send out [ours, docs/rules/game.md "The game log"]: the nominees in the order named,
    ``votes`` (seat, count) in the order recorded, ``voters`` the players at the table. The last nominee gets the
    votes the others did not, unless recorded; the most votes, alone, leave; one nominee leaves with more than half
    of the votes. A tie: the tied are voted on again (the votes recorded after it); lifting them all is the
    judge's tap. None while the votes do not decide."""
    candidates, counts = list(dict.fromkeys(nominees)), dict[int, int]()
    tied: list[int] = []
    outcome: int | None = None
    for seat, count in votes:
        if tied and seat in tied:  # the revote of the tied
            candidates, counts, tied = tied, {}, []
        if seat not in candidates:
            continue
        counts[seat] = count
        outcome, tied = _tally(candidates, counts, voters)
    return outcome


def _tally(candidates: list[int], counts: dict[int, int], voters: int) -> tuple[int | None, list[int]]:
    if any(c not in counts for c in candidates[:-1]):
        return None, []
    full = dict(counts)
    if candidates[-1] not in full:
        rest = voters - sum(counts.values())
        if rest < 0:
            return None, []
        full[candidates[-1]] = rest
    if len(candidates) == 1:
        return (candidates[0], []) if 2 * full[candidates[0]] > voters else (None, [])
    most = max(full.values())
    top = [c for c in candidates if full[c] == most]
    return (top[0], []) if len(top) == 1 else (None, top)
