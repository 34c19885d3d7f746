"""Polemica (polemicagame.com): whole games, as the platform's API sends them and takes them back
(docs/formats/polemica.md).

Learned from the public Kotlin client Vyasma-Mafia/polemica-library at commit
23aa7c1128fce6eb3e83ac555bb5f3e30501b991: ``model/game/*.kt`` (the game's DTOs: PolemicaGame, PolemicaPlayer,
Role, Position, PolemicaVote, PolemicaShot, PolemicaCheck, PolemicaGuess, PolemicaBonus, Foul, Stage,
PolemicaGameResult, ZeroVoting) and ``utils/GameUtils.kt`` (how a game's votes, shots and disqualifications
say who left the table: ``getKilled``, ``getFinalVotes``, ``getKickedFromTable``).

A Polemica game records who nominated and who voted for whom, every shot and every check; our game records
the judge's log (``LogEvent``). A game read becomes our game with its log, and the first kill, the days each
seat survived and the three missed nights are then derived from the log by ``scoring.gamelog``, as the
judge's screen derives them. A tournament is a JSON array of games (the client posts a competition's games
one ``PolemicaGame`` at a time and lists them as an array); a single game object is read as a one-game
tournament.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .. import gamelog
from ..model import (
    ZERO,
    Game,
    LogEvent,
    Player,
    Role,
    Round,
    Seat,
    Side,
    Stage,
    Tournament,
)
from ..rulesets import get_ruleset
from .base import Exported, FormatError, Imported, Platform, parse_json, register

SOURCE = ("github.com/Vyasma-Mafia/polemica-library @ 23aa7c1128fce6eb3e83ac555bb5f3e30501b991: "
          "src/main/kotlin/com/github/mafia/vyasma/polemica/library/model/game/*.kt, utils/GameUtils.kt")

# Role.kt: DON(0), MAFIA(1), PEACE(2), SHERIFF(3).
ROLE_OF_CODE: dict[int, Role] = {0: Role.DON, 1: Role.MAFIA, 2: Role.CIVILIAN, 3: Role.SHERIFF}
CODE_OF_ROLE: dict[Role, int] = {role: code for code, role in ROLE_OF_CODE.items()}
BLACK_CODES = frozenset({0, 1})  # RoleUtils.kt: don and mafia are black
DON_CHECK, SHERIFF_CHECK = 0, 3  # PolemicaCheck.role: whose check it is
# PolemicaGameResult.kt: RED_WIN(0), BLACK_WIN(1).
WINNER_OF_CODE: dict[int, Side] = {0: Side.RED, 1: Side.BLACK}
CODE_OF_WINNER: dict[Side, int] = {side: code for code, side in WINNER_OF_CODE.items()}
POSITIONS = range(1, 11)  # Position.kt: ONE(1) … TEN(10)

# Stage.kt's StageType values; a stage names a day, and these belong to the night that follows it (the night's
# shots and checks, and the move to the next day); "shooted" is the killed player's morning speech, by day.
STAGE_TYPES = frozenset({"dealing", "briefing", "comIntro", "speech", "voting", "voted", "shooting", "shooted",
                         "reSpeech", "lift", "checks", "toVoting", "toLift", "liftResult", "toDay", "toNight",
                         "donCheck", "comCheck", "guess", "comKill", "gameOver"})
NIGHT_STAGES = frozenset({"shooting", "checks", "donCheck", "comCheck", "toDay"})
ZERO_VOTING = frozenset({"respeech", "liftOnly", "none"})
ZERO_VOTING_WRITTEN = "liftOnly"  # on day 1 only a lift of the tied votes anyone out (GameUtils.getFinalVotes)

# PolemicaGame's and PolemicaPlayer's fields (both @JsonIgnoreProperties(ignoreUnknown = true)): those we read,
# those the DTO defines that our model does not hold.
GAME_READ = frozenset({"players", "checks", "shots", "votes", "bonuses", "result", "num", "table", "phase", "stage",
                       "zeroVoting", "referee"})
PLAYER_READ = frozenset({"position", "username", "role", "fouls", "guess", "player", "disqual", "techs"})
# Their presence marks a Polemica game (the DTO's non-null fields and the game's records).
GAME_MARKERS = frozenset({"master", "started", "scoringType", "version", "shots", "votes", "checks", "result",
                          "zeroVoting", "comKiller"})
# Classes without ignoreUnknown: Jackson refuses any other key in them.
VOTE_KEYS = frozenset({"day", "num", "voter", "candidate"})
SHOT_KEYS = frozenset({"night", "shooter", "victim"})
BONUS_KEYS = frozenset({"position", "text", "scores", "basic"})
GUESS_KEYS = frozenset({"civs", "mafs", "vice"})

# What export writes where our model has no value (the DTO's non-null fields), as the library's sample games do.
MASTER = 0
SCORING_TYPE = 1
VERSION = 4
NO_DATE = "1970-01-01"
UNDATED_TYPE, UNDATED_DAY = "dealing", 0  # a foul's or a removal's moment our model does not know
EXTRA_TEXT = "extra points"

USER_ID = re.compile(r"^polemica-([0-9]{1,18})$")


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


@dataclass
class Table:
    """One game as export writes it: our game reduced (``kept``), and its Polemica records."""

    stage: int
    round: int
    game: Game
    play: Play
    usernames: dict[int, str]  # seat → username
    users: dict[int, int]  # seat → Polemica user id


@dataclass
class Reduced:
    tournament: Tournament
    tables: list[Table]
    lost: list[str]


def reduce(t: Tournament) -> Reduced:
    """Our tournament reduced to what Polemica's games hold, the games' records, and what was lost."""
    lost: list[str] = []
    removal_at = get_ruleset(t.ruleset).foul_removal_at
    new_ids: dict[str, str] = {}
    usernames: dict[str, str] = {}
    for player in t.players:
        username = player.nickname or player.name
        match = USER_ID.match(player.id)
        new_ids[player.id] = player.id if match else name_id(username)
        usernames[player.id] = username
    if t.params:
        lost.append(f"ruleset parameters {', '.join(name for name, _ in t.params)} (polemica games hold none)")
    if t.info is not None:
        what = [name for name, value in (("name", t.info.name), ("city", t.info.city), ("venue", t.info.venue),
                                         ("start", t.info.starts), ("end", t.info.ends),
                                         ("standings hidden", t.info.standings_hidden)) if value is not None]
        what += [key for key, _ in t.info.other]
        if what:
            lost.append(f"tournament: {', '.join(what)} (a polemica game holds no tournament)")
    if t.teams:
        lost.append(f"teams {', '.join(team.name for team in t.teams)} (polemica has no teams)")
    tables: list[Table] = []
    stages: list[Stage] = []
    for index, stage in enumerate(t.stages):
        where_stage = f"stage {stage.id}"
        about = [name for name, value in (("name", stage.name), ("kind", stage.kind), ("players", stage.players),
                                          ("advance", stage.advance), ("reset", stage.reset),
                                          ("multiplier", stage.multiplier), ("lots", stage.lots))
                 if value is not None]
        if stage.id != f"phase-{index}" or about:
            lost.append(f"{where_stage}: its id{''.join(', ' + a for a in about)} (polemica numbers the "
                        f"tournament's phases: written as phase {index}, read back as stage phase-{index})")
        rounds: list[Round] = []
        for round_ in sorted(stage.rounds, key=lambda r: r.number):
            where_round = f"{where_stage}, round {round_.number}"
            about = [name for name, value in (("seating method", round_.seating), ("byes", round_.byes),
                                              ("absent", round_.absent), ("penalties", round_.penalties)) if value]
            if about:
                lost.append(f"{where_round}: {', '.join(about)} (a polemica game holds its table only)")
            games: list[Game] = []
            for game in sorted(round_.games, key=lambda g: g.table):
                where = f"{where_round}, table {game.table}"
                table = reduce_game(game, where, index, round_.number, new_ids, usernames, removal_at, lost)
                if table is not None:
                    tables.append(table)
                    games.append(table.game)
            if games:
                rounds.append(Round(round_.number, tuple(games)))
            elif round_.games:
                lost.append(f"{where_round}: no game polemica can hold")
        if rounds:
            stages.append(Stage(f"phase-{index}", tuple(rounds)))
        elif stage.rounds:
            lost.append(f"{where_stage}: no game polemica can hold")
    seen: dict[str, Player] = {}
    for table in tables:
        for seat in table.game.seats:
            if seat.player not in seen:
                seen[seat.player] = Player(seat.player, table.usernames[seat.seat])
    for player in t.players:
        kept = seen.get(new_ids[player.id])
        if kept is None:
            lost.append(f"player {player.id} ({player.name}): not seated in a game polemica holds")
            continue
        about = []
        if kept.name != player.name:
            about.append(f"name {player.name!r} (polemica keeps one username: {kept.name!r})")
        if new_ids[player.id] != player.id:
            about.append(f"id (read back as {new_ids[player.id]})")
        about += [what for what, value in (("team", player.team), ("guest", player.guest)) if value]
        if about:
            lost.append(f"player {player.id}: {', '.join(about)}")
    sharing: dict[str, list[str]] = {}
    for player in t.players:
        sharing.setdefault(new_ids[player.id], []).append(player.id)
    lost += [f"players {', '.join(ids)}: one username {usernames[ids[0]]!r} (polemica tells them apart by user id "
             f"only)" for ids in sharing.values() if len(ids) > 1]
    kept_t = Tournament(ruleset=t.ruleset, players=tuple(seen.values()), stages=tuple(stages))
    return Reduced(kept_t, tables, lost)


def reduce_game(game: Game, where: str, stage: int, round_number: int, new_ids: Mapping[str, str],
                usernames: Mapping[str, str], removal_at: int | None, lost: list[str]) -> Table | None:
    """One game reduced, its lost lines added to ``lost``; None when Polemica cannot seat it at all."""
    outside = sorted(s.seat for s in game.seats if s.seat not in POSITIONS)
    if outside or not game.seats:
        lost.append(f"{where}: the whole game (polemica seats 1-10; this table has "
                    f"{', '.join(map(str, outside)) or 'no seats'})")
        return None
    seats = sorted(game.seats, key=lambda s: s.seat)
    roles = {s.seat: CODE_OF_ROLE[kept_role(s)] for s in seats}
    unheld = [s for s in seats if s.role not in CODE_OF_ROLE]
    winner = game.winner if game.winner in CODE_OF_WINNER else None
    if unheld:
        lost.append(f"{where}: roles {', '.join(f'{s.seat} {s.role.value}' for s in unheld)} written as "
                    f"{', '.join(kept_role(s).value for s in unheld)} (polemica has don, mafia, sheriff and "
                    f"civilian only)")
        if game.winner is not None:
            lost.append(f"{where}: result {game.winner.value} (the game's roles are not polemica's)")
        winner = None
    elif game.winner is not None and winner is None:
        lost.append(f"{where}: result {game.winner.value} (polemica results are red or black)")
    # A removal the fouls imply needs no disqualification; any other is written undated unless the log dates it.
    undated = [s.seat for s in seats if s.removed and (removal_at is None or s.fouls < removal_at)]
    play, notes = play_of(game, roles, undated)
    lost += [f"{where}: {note}" for note in notes]
    log, _ = log_of(play)
    first = gamelog.first_killed(log) if log else None
    days = gamelog.days_survived(log, roles) if log else {}
    missed = bool(log) and gamelog.mafia_missed_three_nights(log) and winner is Side.RED
    best_move: tuple[int, ...] = ()
    if game.best_move:
        if first is None:
            lost.append(f"{where}: best move {', '.join(map(str, game.best_move))} (polemica keeps it as the "
                        f"first killed player's guess; this game has no first kill)")
        else:
            best_move, off = best_move_of(game.best_move, first, roles)
            if off:
                lost.append(f"{where}: best move seats {', '.join(map(str, off))}")
    if game.log and tuple(game.log) != log:
        lost.append(f"{where}: the log as polemica reads it back (ordered by kind within each day and night, "
                    f"without heals and lift votes, votes of 0 left out)")
    if first != game.first_killed:
        lost.append(f"{where}: first killed {game.first_killed} (polemica's shots say {first})")
    if game.mafia_missed_three_nights != missed:
        lost.append(f"{where}: mafia missed three nights {game.mafia_missed_three_nights} (the shots say {missed})")
    for what, value in (("circles", game.circles), ("judge", game.judge), ("notes", game.notes),
                        ("protests", game.protests)):
        if value:
            lost.append(f"{where}: {what} (a polemica game holds none)")
    kept_seats = []
    changes: dict[str, list[str]] = {}
    for seat in seats:
        removed = seat.seat in play.removals or (removal_at is not None and seat.fouls >= removal_at)
        extra = extra_of(float(seat.extra)) if seat.extra != 0 else ZERO
        kept = Seat(seat.seat, new_ids[seat.player], kept_role(seat), None, seat.fouls, removed, extra, False,
                    days.get(seat.seat), None)
        for kind, was, now in (("removed", seat.removed, kept.removed), ("extra points", seat.extra, extra),
                               ("best player", seat.best, False), ("subjective points", seat.subjective, None),
                               ("days survived", seat.days_survived, kept.days_survived)):
            if was != now:
                changes.setdefault(kind, []).append(f"seat {seat.seat} {was} -> {now}")
        kept_seats.append(kept)
    why = {"removed": "polemica removes by disqualification or by the ruleset's fouls",
           "extra points": "a polemica bonus is a double", "best player": "polemica has no best player",
           "subjective points": "polemica has no subjective points",
           "days survived": "polemica derives them from the shots and votes"}
    lost += [f"{where}: {kind} {', '.join(seats_changed)} ({why[kind]})" for kind, seats_changed in changes.items()]
    kept_game = Game(game.table, tuple(kept_seats), winner, first, best_move, (), missed, log=log)
    return Table(stage, round_number, kept_game, play, {s.seat: usernames[s.player] for s in seats},
                 {s.seat: int(m.group(1)) for s in seats if (m := USER_ID.match(s.player))})


def document_of(table: Table, started: str) -> dict[str, Any]:
    """One PolemicaGame as JSON."""
    game, play = table.game, table.play
    players = []
    foul = {"time": started, "stage": Moment.at(None).document()}
    for seat in game.seats:
        player: dict[str, Any] = {"position": seat.seat, "username": table.usernames[seat.seat],
                                  "role": CODE_OF_ROLE[seat.role], "techs": [],
                                  "fouls": [dict(foul) for _ in range(seat.fouls)]}
        if seat.seat in table.users:
            player["player"] = {"id": table.users[seat.seat], "username": table.usernames[seat.seat]}
        if seat.seat == game.first_killed and game.best_move:
            player["guess"] = {"mafs": list(game.best_move)}
        if seat.seat in play.removals:
            player["disqual"] = play.removals[seat.seat].document()
        players.append(player)
    return {
        "num": table.round, "table": game.table, "phase": table.stage, "started": started, "master": MASTER,
        "version": VERSION, "scoringType": SCORING_TYPE, "players": players,
        "checks": [{"night": n, "role": r, "player": s} for n, r, s in play.checks],
        "shots": [{"night": n, "shooter": a, "victim": v} for n, a, v in play.shots],
        "votes": [{"day": v.day, "num": v.num, "voter": v.voter, "candidate": v.candidate} if v.num is not None
                  else {"day": v.day, "voter": v.voter, "candidate": v.candidate} for v in play.votes],
        "bonuses": [{"position": s.seat, "text": EXTRA_TEXT, "scores": float(s.extra), "basic": False}
                    for s in game.seats if s.extra != 0],
        "result": None if game.winner is None else CODE_OF_WINNER[game.winner],
    } | ({"zeroVoting": ZERO_VOTING_WRITTEN} if play.zero_voting else {})


# ---- reading --------------------------------------------------------------------------------------------------


class Reader:
    """Reads a document's games, collecting every problem (``FormatError``) and what our model drops."""

    def __init__(self, removal_at: int | None) -> None:
        self.problems: list[str] = []
        self.dropped: list[str] = []
        self.removal_at = removal_at

    def headed(self) -> list[str]:
        """The problems under a line naming the format (a document may be another platform's look-alike)."""
        count = len(self.problems)
        return [f"a polemica document with {count} problem{'s' if count > 1 else ''}:", *self.problems]

    def fail(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")

    def int_at(self, node: Mapping[str, Any], key: str, where: str, *, required: bool = True,
               allowed: Iterable[int] | None = None, what: str = "") -> int | None:
        value = node.get(key)
        if value is None:
            if required:
                self.fail(f"{where}.{key}", "missing")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(f"{where}.{key}", f"not a whole number: {value!r}")
            return None
        if allowed is not None and value not in allowed:
            self.fail(f"{where}.{key}", f"{what or 'out of range'}: {value!r}")
            return None
        return value

    def position(self, node: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> int | None:
        return self.int_at(node, key, where, required=required, allowed=POSITIONS,
                           what="a seat is 1 to 10 (Position.kt), not")

    def items(self, node: Mapping[str, Any], key: str, where: str) -> list[tuple[str, Mapping[str, Any]]]:
        value = node.get(key)
        if value is None:
            return []
        if not isinstance(value, list):
            self.fail(f"{where}.{key}", "not a list")
            return []
        out: list[tuple[str, Mapping[str, Any]]] = []
        for i, item in enumerate(value):
            if not isinstance(item, dict):
                self.fail(f"{where}.{key}[{i}]", "not an object")
            else:
                out.append((f"{where}.{key}[{i}]", item))
        return out

    def closed(self, node: Mapping[str, Any], keys: frozenset[str], where: str) -> None:
        """Jackson refuses unknown keys in the DTOs without ``ignoreUnknown`` (votes, shots, bonuses, guesses)."""
        for key in sorted(set(node) - keys):
            self.fail(f"{where}.{key}", "unknown key")

    def moment(self, node: Any, where: str) -> Moment | None:
        if not isinstance(node, dict):
            self.fail(where, "not a stage object")
            return None
        kind = node.get("type")
        if kind not in STAGE_TYPES:
            self.fail(f"{where}.type", f"unknown stage type {kind!r}")
            return None
        day = self.int_at(node, "day", where)
        return None if day is None else Moment(kind, day)


def is_game(node: Any) -> bool:
    """A Polemica game: an object with a list of players (with a position and a role) and one of the game's own
    fields."""
    if not isinstance(node, dict) or not isinstance(node.get("players"), list) or not GAME_MARKERS & set(node):
        return False
    players = node["players"]
    return not players or any(isinstance(p, dict) and "position" in p and "role" in p for p in players)


@dataclass
class Read:
    """One game as read: where it goes and our game."""

    where: str
    phase: int
    num: int
    table: int | None
    game: Game
    players: list[Player]


def read_game(reader: Reader, node: Mapping[str, Any], where: str) -> Read | None:
    problems_before = len(reader.problems)
    extra_keys = sorted(k for k in set(node) - GAME_READ if node[k] not in (None, [], {}, ""))
    if extra_keys:
        reader.dropped.append(f"{where}: {', '.join(extra_keys)} (not held by our game)")
    phase = reader.int_at(node, "phase", where, required=False)
    num = reader.int_at(node, "num", where, required=False)
    table = reader.int_at(node, "table", where, required=False)
    for key, value in (("phase", phase), ("num", num), ("table", table)):
        if value is not None and value < (0 if key == "phase" else 1):
            reader.fail(f"{where}.{key}", f"out of range: {value}")
    result = reader.int_at(node, "result", where, required=False, allowed=WINNER_OF_CODE,
                           what="unknown result code (0 red wins, 1 black wins)")
    zero = node.get("zeroVoting")
    if zero is not None and zero not in ZERO_VOTING:
        reader.fail(f"{where}.zeroVoting", f"unknown value {zero!r}")
    stage = reader.moment(node["stage"], f"{where}.stage") if node.get("stage") is not None else None
    if stage is not None:
        reader.dropped.append(f"{where}.stage: {stage.type} on day {stage.day} (where the game stands; our game "
                              f"has no current stage)")
    judge = None
    referee = node.get("referee")
    if isinstance(referee, dict) and isinstance(referee.get("username"), str) and referee["username"].strip():
        judge = referee["username"]

    seats: dict[int, tuple[str, Role, int, bool]] = {}
    users: dict[int, tuple[str, str]] = {}  # seat → (our id, name)
    guesses: dict[int, list[int]] = {}
    removals: dict[int, Moment] = {}
    ids_at: dict[str, str] = {}
    player_keys: set[str] = set()
    for at, p in reader.items(node, "players", where):
        player_keys |= {k for k in set(p) - PLAYER_READ if p[k] not in (None, [], {}, "")}
        seat = reader.position(p, "position", at)
        code = p.get("role")
        role = None
        if code is None:
            reader.fail(f"{at}.role", "missing")
        elif isinstance(code, bool) or code not in ROLE_OF_CODE:
            reader.fail(f"{at}.role", f"unknown role code {code!r} (0 don, 1 mafia, 2 civilian, 3 sheriff)")
        else:
            role = ROLE_OF_CODE[code]
        user = p.get("player")
        username = p.get("username")
        user_id: int | None = None
        if isinstance(user, dict):
            user_id = reader.int_at(user, "id", f"{at}.player")
            if not isinstance(username, str) and isinstance(user.get("username"), str):
                username = user["username"]
        elif isinstance(user, int) and not isinstance(user, bool):
            user_id = user
        elif user is not None:
            reader.fail(f"{at}.player", f"neither a user id nor a user: {user!r}")
        if not isinstance(username, str) or not username.strip():
            reader.fail(f"{at}.username", "missing")
            continue
        fouls = p.get("fouls") or []
        if not isinstance(fouls, list):
            reader.fail(f"{at}.fouls", "not a list")
            fouls = []
        moments = [reader.moment(f.get("stage") if isinstance(f, dict) else None, f"{at}.fouls[{i}].stage")
                   for i, f in enumerate(fouls)]
        techs = p.get("techs") or []
        if not isinstance(techs, list):
            reader.fail(f"{at}.techs", "not a list")
        elif techs:
            reader.dropped.append(f"{at}: {len(techs)} technical foul{'s' if len(techs) > 1 else ''} "
                                  f"(our model has no technical fouls)")
        guess = p.get("guess")
        if guess is not None:
            if not isinstance(guess, dict):
                reader.fail(f"{at}.guess", "not an object")
            else:
                reader.closed(guess, GUESS_KEYS, f"{at}.guess")
                for key in ("civs", "mafs"):
                    value = guess.get(key)
                    if value is not None and (not isinstance(value, list) or any(
                            isinstance(x, bool) or x not in POSITIONS for x in value)):
                        reader.fail(f"{at}.guess.{key}", f"not a list of seats 1 to 10: {value!r}")
                reader.position(guess, "vice", f"{at}.guess", required=False)
                if seat is not None:
                    guesses[seat] = [x for x in guess.get("mafs") or [] if x in POSITIONS]
                told = [f"{key} {', '.join(map(str, guess[key]))}" for key in ("civs",)
                        if isinstance(guess.get(key), list) and guess[key]]
                told += [f"vice {guess['vice']}"] if guess.get("vice") is not None else []
                if told:
                    reader.dropped.append(f"{at}.guess: {'; '.join(told)} (our best move holds the first killed "
                                          f"player's mafia guesses only)")
        disqual = p.get("disqual")
        when = reader.moment(disqual, f"{at}.disqual") if disqual is not None else None
        removed = disqual is not None
        if seat is not None and when is not None:
            removals[seat] = when
        if reader.removal_at is not None and len(fouls) >= reader.removal_at and not removed:
            removed = True
            fourth = moments[reader.removal_at - 1]
            if seat is not None and fourth is not None:
                removals[seat] = fourth
        if p.get("award") is not None:
            reader.dropped.append(f"{at}.award: {p['award']} (our points are the ruleset's)")
        if seat is None or role is None:
            continue
        our_id = f"polemica-{user_id}" if user_id is not None else name_id(username)
        if seat in seats:
            reader.fail(f"{at}.position", f"seat {seat} twice")
            continue
        if our_id in ids_at:
            reader.fail(f"{at}.player", f"{our_id} ({username}) is already at seat {ids_at[our_id]}")
            continue
        ids_at[our_id] = str(seat)
        seats[seat] = (our_id, role, len(fouls), removed)
        users[seat] = (our_id, username)
    if player_keys:
        reader.dropped.append(f"{where}.players: {', '.join(sorted(player_keys))} (not held by our seats)")

    votes = []
    for at, v in reader.items(node, "votes", where):
        reader.closed(v, VOTE_KEYS, at)
        day = reader.int_at(v, "day", at)
        voting = reader.int_at(v, "num", at, required=False)
        voter = reader.position(v, "voter", at)
        candidate = None if v.get("candidate") == 0 else reader.position(v, "candidate", at, required=False)
        if day is not None and voter is not None:
            if day < 1 or (voting is not None and voting < 0):
                reader.fail(at, f"day {day}, round {voting}: out of range")
            votes.append(Vote(day, voting, voter, candidate))
    shots = []
    for at, s in reader.items(node, "shots", where):
        reader.closed(s, SHOT_KEYS, at)
        night, shooter, victim = (reader.int_at(s, "night", at), reader.position(s, "shooter", at),
                                  reader.position(s, "victim", at))
        if night is not None and night < 1:
            reader.fail(f"{at}.night", f"out of range: {night}")
        elif night is not None and shooter is not None and victim is not None:
            shots.append((night, shooter, victim))
    checks = []
    for at, c in reader.items(node, "checks", where):
        night = reader.int_at(c, "night", at)
        role_code = reader.int_at(c, "role", at, allowed=ROLE_OF_CODE, what="unknown role code")
        checked = reader.position(c, "player", at)
        if night is not None and night < 1:
            reader.fail(f"{at}.night", f"out of range: {night}")
        elif night is not None and role_code is not None and checked is not None:
            checks.append((night, role_code, checked))
    extras: dict[int, float] = {}
    for at, b in reader.items(node, "bonuses", where):
        reader.closed(b, BONUS_KEYS, at)
        seat = reader.position(b, "position", at)
        scores = b.get("scores")
        if isinstance(scores, bool) or not isinstance(scores, (int, float)):
            reader.fail(f"{at}.scores", f"not a number: {scores!r}")
        elif seat is not None:
            extras[seat] = extras.get(seat, 0.0) + float(scores)
            text = b.get("text")
            if isinstance(text, str) and text and text != EXTRA_TEXT:
                reader.dropped.append(f"{at}.text: {text!r} (our extra points have no reason)")

    if len(reader.problems) > problems_before:
        return None
    for what, numbers in (("votes", [x for v in votes for x in (v.voter, v.candidate) if x is not None]),
                          ("shots", [x for s in shots for x in s[1:]]), ("checks", [c[2] for c in checks]),
                          ("bonuses", list(extras))):
        strangers = sorted(set(numbers) - set(seats))
        if strangers:
            reader.fail(f"{where}.{what}", f"seat{'s' if len(strangers) > 1 else ''} "
                                           f"{', '.join(map(str, strangers))} not among the players")
    if len(reader.problems) > problems_before:
        return None

    play = Play({s: CODE_OF_ROLE[v[1]] for s, v in seats.items()}, votes, shots, checks,
                {s: m for s, m in removals.items() if s in seats}, zero_voting=zero is not None,
                voting_day=stage.day if stage is not None and stage.type == "voting" else None)
    log, notes = log_of(play)
    reader.dropped += [f"{where}: {note}" for note in notes]
    winner = None if result is None else WINNER_OF_CODE[result]
    first = gamelog.first_killed(log) if log else None
    days = gamelog.days_survived(log, seats) if log else {}
    missed = bool(log) and gamelog.mafia_missed_three_nights(log)
    if missed and winner is not Side.RED:
        reader.dropped.append(f"{where}: the mafia missed three nights, but red did not win (not marked)")
        missed = False
    best_move: tuple[int, ...] = ()
    if first is not None and guesses.get(first):
        best_move, off = best_move_of(guesses[first], first, seats)
        if off:
            reader.dropped.append(f"{where}: best move seats {', '.join(map(str, off))} (own seat or off the table)")
    for seat, mafs in sorted(guesses.items()):
        if seat != first and mafs:
            reader.dropped.append(f"{where}: seat {seat}'s guess of mafia {', '.join(map(str, mafs))} "
                                  f"(our best move is the first killed player's)")
    our_seats = tuple(Seat(s, v[0], v[1], None, v[2], v[3], extra_of(extras[s]) if extras.get(s) else ZERO,
                           False, days.get(s), None) for s, v in sorted(seats.items()))
    game = Game(0 if table is None else table, our_seats, winner, first, best_move, (), missed, judge, log=log)
    players = [Player(users[s][0], users[s][1]) for s in sorted(users)]
    return Read(where, 0 if phase is None else phase, 1 if num is None else num, table, game, players)


@register
class Polemica(Platform):
    name = "polemica"
    title = "Polemica"
    source = SOURCE
    default_ruleset = "fiim"

    def export(self, tournament: Tournament) -> Exported:
        reduced = reduce(tournament)
        starts = tournament.info.starts if tournament.info is not None and tournament.info.starts else NO_DATE
        started = f"{starts[:10]}T00:00:00"
        games = [document_of(table, started) for table in reduced.tables]
        return Exported(json.dumps(games, ensure_ascii=False, indent=1), tuple(reduced.lost))

    def kept(self, tournament: Tournament) -> Tournament:
        return reduce(tournament).tournament

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        ruleset = ruleset or self.default_ruleset
        try:
            removal_at = get_ruleset(ruleset).foul_removal_at
        except KeyError as error:
            raise FormatError([str(error.args[0])]) from None
        data = parse_json(text, self.name)
        if isinstance(data, dict):
            if not is_game(data):
                raise FormatError([f"not a {self.name} document: {describe(data)}"])
            nodes, prefix = [data], "game"
        elif isinstance(data, list):
            if data and not is_game(data[0]):
                raise FormatError([f"not a {self.name} document: games[0] is not a Polemica game "
                                   f"({describe(data[0])})"])
            nodes, prefix = data, "games"
        else:
            raise FormatError([f"not a {self.name} document: a Polemica document is a game or a list of games"])
        reader = Reader(removal_at)
        reads: list[Read] = []
        for index, node in enumerate(nodes):
            where = prefix if isinstance(data, dict) else f"games[{index}]"
            if not is_game(node):
                reader.fail(where, f"not a Polemica game ({describe(node)})")
                continue
            read = read_game(reader, node, where)
            if read is not None:
                reads.append(read)
        if reader.problems:
            raise FormatError(reader.headed())
        return Imported(assemble(reads, ruleset, reader), tuple(reader.dropped))


def describe(node: Any) -> str:
    if isinstance(node, dict):
        if "format" in node and "stages" in node:
            return "it is our own tournament file"
        keys = ", ".join(sorted(map(str, node))[:6])
        return f"an object without a game's players (position, role) and records; its keys: {keys}"
    return f"a {type(node).__name__}, not a game object"


def assemble(reads: list[Read], ruleset: str, reader: Reader) -> Tournament:
    """Games into stages (Polemica's phase) and rounds (the game number), tables in order; a table number the
    document leaves out is the next free one in its round."""
    by_place: dict[tuple[int, int], list[Read]] = {}
    for read in reads:
        by_place.setdefault((read.phase, read.num), []).append(read)
    stages: dict[int, list[Round]] = {}
    seen: dict[str, Player] = {}
    order: list[Read] = []
    for (phase, num), group in sorted(by_place.items()):
        tables: dict[int, Read] = {}
        for read in group:
            if read.table is not None:
                if read.table in tables:
                    reader.fail(read.where, f"table {read.table} of game {num} in phase {phase} twice "
                                            f"(also {tables[read.table].where})")
                tables[read.table] = read
        for read in group:
            if read.table is None:
                number = max(tables, default=0) + 1
                tables[number] = read
                read.game = dataclasses.replace(read.game, table=number)
        seated: dict[str, str] = {}
        for number in sorted(tables):
            read = tables[number]
            for seat in read.game.seats:
                if seat.player in seated:
                    reader.fail(read.where, f"player {seat.player} plays two tables of game {num} in phase "
                                            f"{phase} (also {seated[seat.player]})")
                seated[seat.player] = read.where
        ordered = [tables[number] for number in sorted(tables)]
        order += ordered
        stages.setdefault(phase, []).append(Round(num, tuple(r.game for r in ordered)))
    if reader.problems:
        raise FormatError(reader.headed())
    for read in order:
        for player in read.players:
            seen.setdefault(player.id, player)
    return Tournament(ruleset=ruleset, players=tuple(seen.values()),
                      stages=tuple(Stage(f"phase-{phase}", tuple(rounds)) for phase, rounds in sorted(stages.items())))
