"""A Polemica game's votes, shots and checks and our judge's log, both ways (as GameUtils reads them), and the
small translations both directions share: player ids, bonus scores, roles kept, the best move.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ... import gamelog
from ...model import Game, LogEvent, Role, Seat, Side
from .codes import BLACK_CODES, CODE_OF_ROLE, DON_CHECK, NIGHT_STAGES, SHERIFF_CHECK, UNDATED_DAY, UNDATED_TYPE


@dataclass(frozen=True)
class Moment:
    """A Polemica ``Stage``: ``type`` on ``day``; the night stages belong to night ``day``."""

    type: str
    day: int

    @property
    def phase(self) -> int | None:
        """Our log's phase, or None for a moment before day 1 (unknown)."""
        if self.day < 1:
            return None
        return 2 * self.day if self.type in NIGHT_STAGES else 2 * self.day - 1

    @classmethod
    def at(cls, phase: int | None) -> Moment:
        if phase is None or phase < 1:
            return cls(UNDATED_TYPE, UNDATED_DAY)
        day = gamelog.day_or_night(phase)
        return cls("speech", day) if phase % 2 else cls("shooting", day)

    def document(self) -> dict[str, Any]:
        return {"type": self.type, "day": self.day}


@dataclass(frozen=True)
class Vote:
    day: int
    num: int | None  # 0: a nomination; 1, 2…: the voting rounds; None: a vote to lift the tied players
    voter: int
    candidate: int | None


@dataclass
class Play:
    """What of a Polemica game our log is made from: the seats' roles (codes), the votes, shots and checks, and
    the seats removed (disqualified, or by fouls) with the moment when known."""

    roles: dict[int, int]
    votes: list[Vote] = field(default_factory=list)
    shots: list[tuple[int, int, int]] = field(default_factory=list)  # night, shooter, victim
    checks: list[tuple[int, int, int]] = field(default_factory=list)  # night, role code, checked seat
    removals: dict[int, Moment] = field(default_factory=dict)
    zero_voting: bool = False  # GameUtils.getFinalVotes: with zeroVoting set, day 1's single leader stays
    voting_day: int | None = None  # the day whose vote is still under way (stage "voting"): no result yet


def log_of(play: Play) -> tuple[tuple[LogEvent, ...], list[str]]:
    """Our log from a Polemica game, day by day and night by night as GameUtils reads it: nominations are the
    round-0 votes, each voting round gives each candidate's count, the last round's single leader is voted out
    (the tied ones when more than half of that round voted to lift them), and a night's shot kills when every
    black player at the table shot the same seat. Also the notes of what the log cannot hold."""
    notes: list[str] = []
    removal_phase = {seat: moment.phase for seat, moment in play.removals.items()}
    phases = [2 * v.day - 1 for v in play.votes] + [2 * s[0] for s in play.shots] + [2 * c[0] for c in play.checks]
    phases += [p for p in removal_phase.values() if p is not None]
    alive = set(play.roles)
    log: list[LogEvent] = []
    for phase in range(1, max(phases, default=0) + 1):
        number = gamelog.day_or_night(phase)
        removed = sorted(seat for seat, p in removal_phase.items() if p == phase)
        if phase % 2:
            day = [v for v in play.votes if v.day == number]
            nominated: list[int] = []
            for vote in day:
                if vote.num == 0 and vote.candidate is not None and vote.candidate not in nominated:
                    nominated.append(vote.candidate)
            log += [LogEvent("nominated", phase, seat) for seat in nominated]
            tallies: list[dict[int, int]] = []
            for num in sorted({v.num for v in day if v.num is not None and v.num > 0}):
                tally: dict[int, int] = {}
                for vote in day:
                    if vote.num == num and vote.candidate is not None:
                        tally[vote.candidate] = tally.get(vote.candidate, 0) + 1
                tallies.append(tally)
                log += [LogEvent("votes", phase, seat, count) for seat, count in tally.items()]
            last_size = sum(1 for v in day if v.num is not None and v.num > 0 and v.num == max_num(day))
            lifts = sum(1 for v in day if v.num is None and v.candidate is not None)
            if lifts:
                notes.append(f"day {number}: {lifts} of {last_size} voted to lift the tied players "
                             f"(our log has no lift vote)")
            out = [] if play.voting_day == number else voted_out(tallies, last_size, lifts,
                                                                 number == 1 and play.zero_voting)
            for seat in out:
                if seat in alive:
                    log.append(LogEvent("voted_out", phase, seat))
                    alive.discard(seat)
        else:
            shots = [s for s in play.shots if s[0] == number]
            if shots:
                victims = {s[2] for s in shots}
                blacks = [s for s in alive if play.roles.get(s) in BLACK_CODES and s not in removed]
                if len(victims) == 1 and len(blacks) <= len(shots):
                    victim = victims.pop()
                    if victim in alive:
                        log.append(LogEvent("killed", phase, victim))
                        alive.discard(victim)
                    else:
                        notes.append(f"night {number}: a shot at seat {victim}, who had left the table")
            for _, role, seat in (c for c in play.checks if c[0] == number):
                kind = {DON_CHECK: "don_check", SHERIFF_CHECK: "sheriff_check"}.get(role)
                if kind is None:
                    notes.append(f"night {number}: a check by role code {role} (only the don and the sheriff check)")
                else:
                    log.append(LogEvent(kind, phase, seat))
        for seat in removed:
            if seat in alive:
                log.append(LogEvent("removed", phase, seat))
                alive.discard(seat)
    return tuple(log), notes


def max_num(day: Sequence[Vote]) -> int:
    return max((v.num for v in day if v.num is not None), default=0)


def voted_out(tallies: Sequence[Mapping[int, int]], last_size: int, lifts: int, zero_day: bool) -> list[int]:
    """GameUtils.getFinalVotes: the seats the day's last round voted out."""
    if not tallies or not tallies[-1]:
        return []
    last = tallies[-1]
    top = max(last.values())
    leaders = [seat for seat, count in last.items() if count == top]
    if len(leaders) > 1:
        return leaders if lifts > last_size - lifts else []
    return [] if zero_day else leaders


def play_of(game: Game, roles: Mapping[int, int], removed: Iterable[int]) -> tuple[Play, list[str]]:
    """The Polemica records that say what our game's log says; also what of the log they cannot hold.

    Our log counts votes but does not say who voted (nor who nominated): the voters are written from the seats
    at the table in seat order. A game without a log gives its first kill as the night-1 shots of every black
    seat and its removals undated."""
    play, lost = Play(dict(roles)), []
    undated = set(removed)
    if not game.log:
        if game.first_killed is not None and game.first_killed in roles:
            blacks = sorted(s for s, code in roles.items() if code in BLACK_CODES)
            play.shots = [(1, shooter, game.first_killed) for shooter in blacks if shooter != game.first_killed]
            if not play.shots:
                lost.append(f"first killed {game.first_killed} (no black player at the table to shoot)")
        play.removals = {seat: Moment.at(None) for seat in sorted(undated)}
        return play, lost
    events: dict[int, list[LogEvent]] = {}
    for event in game.log:
        if event.phase < 1 or event.seat is None or event.seat not in roles:
            lost.append(f"log {event.kind} {'' if event.seat is None else event.seat} in phase {event.phase} "
                        f"(not a seat of the table)".replace("  ", " "))
            continue
        events.setdefault(event.phase, []).append(event)
    alive = set(roles)
    for phase in range(1, max(events, default=0) + 1):
        here, number = events.get(phase, []), gamelog.day_or_night(phase)
        voters = sorted(alive)
        wrong = {"don_check", "sheriff_check", "heal", "killed"} if phase % 2 else {"nominated", "votes",
                                                                                    "voted_out"}
        for event in here:
            if event.kind == "heal":
                lost.append(f"night {number}: heal of seat {event.seat} (polemica has no doctor)")
            elif event.kind in wrong:
                lost.append(f"{'day' if phase % 2 else 'night'} {number}: {event.kind} {event.seat} "
                            f"(not a {'day' if phase % 2 else 'night'}'s record)")
        gone = [e.seat for e in here if e.kind == "removed" and e.seat is not None]
        if phase % 2:
            lost += day_votes(play, number, here, voters, alive)
        else:
            killed = [e.seat for e in here if e.kind == "killed" and e.seat is not None]
            if killed:
                blacks = sorted(s for s in alive if roles[s] in BLACK_CODES and s not in gone)
                if not blacks:
                    lost.append(f"night {number}: kill of seat {killed[0]} (no black player left to shoot)")
                play.shots += [(number, shooter, killed[0]) for shooter in blacks]
                alive.discard(killed[0])
                lost += [f"night {number}: a second kill, seat {seat} (a polemica night kills one)"
                         for seat in killed[1:]]
            checks = {"don_check": DON_CHECK, "sheriff_check": SHERIFF_CHECK}
            play.checks += [(number, checks[e.kind], e.seat) for e in here if e.kind in checks and e.seat is not None]
        for seat in gone:
            if seat not in play.removals:
                play.removals[seat] = Moment.at(phase)
                alive.discard(seat)
    for seat in sorted(undated - set(play.removals)):
        play.removals[seat] = Moment.at(None)
    return play, lost


def day_votes(play: Play, number: int, here: Sequence[LogEvent], voters: Sequence[int], alive: set[int]) -> list[str]:
    """One day's nominations and voting rounds as Polemica votes; a new round starts where a candidate's votes
    come again. Where the rounds do not vote out who the log says was voted out, a round of the whole table (and
    the lift of the tied) is added so that Polemica reads the same departure."""
    lost: list[str] = []
    if not voters:
        return lost
    nominated = [e.seat for e in here if e.kind == "nominated" and e.seat is not None]
    rounds: list[dict[int, int]] = []
    current: dict[int, int] = {}
    for event in here:
        if event.kind == "votes" and event.seat is not None:
            if event.seat in current:
                rounds.append(current)
                current = {}
            current[event.seat] = event.count or 0
    if current:
        rounds.append(current)
    rounds = [r for r in ({s: c for s, c in r.items() if c > 0} for r in rounds) if r]
    out: list[int] = []
    for event in here:
        if event.kind == "voted_out" and event.seat is not None and event.seat in alive and event.seat not in out:
            out.append(event.seat)
    total = sum(rounds[-1].values()) if rounds else 0
    lifts = 0
    if sorted(voted_out(rounds, total, 0, False)) != sorted(out):
        tied = voted_out(rounds, total, total, False)
        if len(out) > 1 and sorted(tied) == sorted(out):
            lifts = total // 2 + 1
        elif not out and number == 1:
            play.zero_voting = True  # day 1's leader stays: Polemica's zero voting (written "liftOnly")
        elif not out:
            lost.append(f"day {number}: votes {format_votes(rounds)} (no one was voted out; polemica would vote "
                        f"the leader out)")
            rounds = []
        else:
            lost.append(f"day {number}: seat{'s' if len(out) > 1 else ''} {', '.join(map(str, out))} voted out "
                        f"without the votes to show it (written as a vote of the whole table)")
            rounds.append({out[0]: len(voters)} if len(out) == 1 else {seat: 1 for seat in out})
            total = sum(rounds[-1].values())
            lifts = total // 2 + 1 if len(out) > 1 else 0
    play.votes += [Vote(number, 0, voters[i % len(voters)], seat) for i, seat in enumerate(nominated)]
    for num, tally in enumerate(rounds, start=1):
        turn = 0
        for seat, count in tally.items():
            for _ in range(count):
                play.votes.append(Vote(number, num, voters[turn % len(voters)], seat))
                turn += 1
    play.votes += [Vote(number, None, voters[i % len(voters)], out[0]) for i in range(lifts)]
    if nominated or rounds or lifts:  # Polemica's votes name their voters; ours are counts: say whose they are not
        lost.append(f"day {number}: who nominated and who voted (written from the seats at the table in seat order; "
                    f"the candidates and the counts are the log's)")
    for seat in out:
        alive.discard(seat)
    return lost


def format_votes(rounds: Sequence[Mapping[int, int]]) -> str:
    return "; ".join(", ".join(f"{seat}: {count}" for seat, count in r.items()) for r in rounds)


def name_id(username: str) -> str:
    """A stable player id for a player the document names without a Polemica user id."""
    return "polemica-name-" + hashlib.sha256(username.encode()).hexdigest()[:12]


def extra_of(scores: float) -> Fraction:
    """A Polemica bonus's scores (a double) as our points: the nearest fraction with a small denominator."""
    return Fraction(scores).limit_denominator(1000)


def kept_role(seat: Seat) -> Role:
    if seat.role in CODE_OF_ROLE:
        return seat.role
    return Role.MAFIA if seat.effective_side is Side.BLACK else Role.CIVILIAN


def best_move_of(mafs: Sequence[int], first_killed: int, seats: Iterable[int]) -> tuple[tuple[int, ...], list[int]]:
    """The first killed player's guess as our best move; the seats it cannot hold (own, off the table)."""
    at_table = set(seats)
    kept = [seat for seat in mafs if seat in at_table and seat != first_killed]
    return tuple(dict.fromkeys(kept)), [seat for seat in mafs if seat not in kept]
