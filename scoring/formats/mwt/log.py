"""A game's log as MWT holds it, both ways: what of our log its leaves and checks keep, the leaves written from
it, and the facts a read log implies.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ...gamelog import day_or_night, days_survived, first_killed, mafia_missed_three_nights
from ...model import Game, LogEvent, Seat, Side
from .codes import CHECKS, KILLED, KIND_ORDER, LEAVE_KINDS, REMOVED, TABLE, VOTED_OUT


def kept_log(game: Game) -> tuple[LogEvent, ...]:
    """What of a game's log MWT's leaves and checks hold: each seat's first departure (voted out by day, killed
    at night, removed), the votes that voted a seat out, one don's and one sheriff's check a night."""
    events: list[LogEvent] = []
    left: set[int] = set()
    for event in game.log:
        if event.kind in LEAVE_KINDS.values() and event.seat is not None and event.seat not in left:
            left.add(event.seat)
            n = day_or_night(event.phase)
            phase = 2 * n - 1 if event.kind == "voted_out" else 2 * n if event.kind == "killed" else event.phase
            events.append(LogEvent(event.kind, phase, event.seat))
    voted = {(e.phase, e.seat) for e in events if e.kind == "voted_out"}
    votes: dict[tuple[int, int], int] = {}
    for event in game.log:
        key = (event.phase, event.seat or 0)
        if event.kind == "votes" and key in voted and event.count:
            votes[key] = event.count
    events += [LogEvent("votes", phase, seat, count) for (phase, seat), count in votes.items()]
    for kind, _ in CHECKS:
        nights: set[int] = set()
        for event in game.log:
            if event.kind == kind and event.seat is not None and event.phase % 2 == 0 and event.phase not in nights:
                nights.add(event.phase)
                events.append(LogEvent(kind, event.phase, event.seat))
    return tuple(sorted(events, key=lambda e: (e.phase, KIND_ORDER[e.kind], e.seat or 0)))


def derived(game: Game, log: tuple[LogEvent, ...], seats: tuple[Seat, ...]) -> Game:
    """The facts a log implies, as the reader sets them: first kill (unless given), three missed nights (a red
    win only), days survived."""
    missed = bool(log) and game.winner is Side.RED and mafia_missed_three_nights(log)
    survived = days_survived(log, [s.seat for s in seats]) if log else {}
    return replace(game, log=log, mafia_missed_three_nights=missed,
                   first_killed=game.first_killed if game.first_killed is not None else first_killed(log),
                   seats=tuple(replace(s, days_survived=survived.get(s.seat)) for s in seats))


def leaves(log: tuple[LogEvent, ...], seats: list[Seat]) -> list[dict[str, Any]]:
    """MWT's ``leaves`` from a kept log and the removals without a time, ordered and counted as
    include/mwt_game.php counts them (players before, leaving along, the game's last)."""
    votes = {(e.phase, e.seat): e.count or 0 for e in log if e.kind == "votes"}
    out: list[dict[str, Any]] = []
    timed = set()
    for event in log:
        if event.kind not in LEAVE_KINDS.values() or event.seat is None:
            continue
        timed.add(event.seat)
        n = day_or_night(event.phase)
        day = event.phase % 2 == 1
        kind = VOTED_OUT if event.kind == "voted_out" else KILLED if event.kind == "killed" else REMOVED
        out.append({"leave_type": kind, "votes_count": votes.get((event.phase, event.seat), 0),
                    "nights_before_count": n - 1 if day else n, "days_before_count": n, "p_num": event.seat})
    out.sort(key=lambda leave: (leave["nights_before_count"], leave["days_before_count"], leave["leave_type"]))
    out += [{"leave_type": REMOVED, "votes_count": 0, "p_num": s.seat} for s in seats
            if s.removed and s.seat not in timed]
    for index, leave in enumerate(out):
        leave["players_before_count"] = TABLE - index
        leave["game_ended"] = int(index == len(out) - 1)
        together = [other for other in out if other["leave_type"] == VOTED_OUT == leave["leave_type"]
                    and other.get("days_before_count") == leave.get("days_before_count")]
        leave["leave_along_count"] = len(together) or 1
    return out
