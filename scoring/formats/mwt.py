"""MWT (Mafia World Tour, FIIM's rating site): its games as a list, each game's seating (``protocol``) and its
result in the shape MWT's API answers and takes (docs/formats/mwt.md); and MWT's seating text.

The format is learned from public code only: szotin/mafiaratings (api/ops/mwt.php: the ``success`` answers of
``/api/tournament/seats`` and ``/api/protocol/load``; include/mwt_game.php: a game's ``result`` read and written)
and MafiaScheduleDb's MWT schedule (mafia-schedule's ``Print.mwtSchedule``: a round as ten lines, one a seat,
the tables' players separated by commas). MWT seats ten at a table with four roles (red, black, don, sheriff);
what else our tournament holds is named in ``Exported.lost``.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..gamelog import day_or_night, days_survived, first_killed, mafia_missed_three_nights
from ..model import ZERO, Game, LogEvent, Penalty, Player, Role, Round, Seat, Side, Stage, Tournament
from ..rulesets import RULESETS
from ..validation import validate
from .base import Exported, FormatError, Imported, Platform, parse_json, register

NAME = "mwt"
TABLE = 10  # MWT's tables: ten players, arrays of ten, seats 1..10
ROLES = {"red": Role.CIVILIAN, "black": Role.MAFIA, "don": Role.DON, "sheriff": Role.SHERIFF}
ROLE_CODES = {role: code for code, role in ROLES.items()}
RESULTS = {"red": Side.RED, "black": Side.BLACK}
RESULT_CODES = {side: code for code, side in RESULTS.items()}
# leave_type (include/mwt_game.php): 1 voted out by day, 2 killed at night, 3 disqualified, 4 disqualified with
# the defeat of the player's team (ППК).
VOTED_OUT, KILLED, REMOVED, TEAM_REMOVED = 1, 2, 3, 4
LEAVE_KINDS = {VOTED_OUT: "voted_out", KILLED: "killed", REMOVED: "removed", TEAM_REMOVED: "removed"}

# ``referee``: the ``success`` of /api/protocol/load carries it beside ``protocol`` (api/ops/mwt.php).
GAME_KEYS = frozenset({"tournament_id", "part_number", "table_number", "session_number", "referee_user_id",
                       "referee", "protocol", "result"})
PROTOCOL_KEYS = frozenset({"user_id", "nickname"})
SEAT_ARRAYS = ("players", "is_replacement", "player_roles", "game_autobonus", "game_bonus", "penalty",
               "penalty_disciplinary", "player_fouls")
RESULT_KEYS = frozenset({"start_time", "end_time", "result", "black_count", "red_count", *SEAT_ARRAYS,
                         "reveal_don", "reveal_sheriff", "leaves", "killed_first", "best_move_value", "best_move",
                         "comment"})
LEAVE_KEYS = frozenset({"leave_type", "votes_count", "nights_before_count", "days_before_count", "p_num",
                        "players_before_count", "game_ended", "leave_along_count"})
# The order of a phase's events in a log read from MWT (a document keeps no order within a phase).
KIND_ORDER = {"votes": 0, "voted_out": 1, "killed": 2, "removed": 3, "don_check": 4, "sheriff_check": 5}
CHECKS = (("don_check", "reveal_don"), ("sheriff_check", "reveal_sheriff"))
USER_ID = re.compile(r"mwt-([1-9][0-9]{0,17})")
PLAIN_ID = re.compile(r"[A-Za-z0-9_.]{1,50}")


def user_id(player: str) -> int | None:
    """The MWT user id of a player imported from MWT (``mwt-1234``), else None."""
    match = USER_ID.fullmatch(player)
    return int(match.group(1)) if match else None


def player_id(user: int | None, nickname: str) -> str:
    """A stable id: ``mwt-<user id>``, else from the nickname (readable where it can be, a hash keeps it unique)."""
    if user is not None:
        return f"mwt-{user}"
    if PLAIN_ID.fullmatch(nickname):
        return f"mwt-n-{nickname}"
    slug = re.sub(r"[^A-Za-z0-9_.]+", "-", nickname).strip("-")[:40]
    return f"mwt-n-{slug}-{hashlib.sha1(nickname.encode()).hexdigest()[:8]}"


def number(value: Fraction) -> int | float:
    """A point value as MWT writes it (JSON numbers)."""
    return int(value) if value.denominator == 1 else float(value)


def fraction(value: int | float) -> Fraction:
    """A JSON number read as the decimal it shows (0.3 is 3/10, not the nearest binary float)."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


@dataclass(frozen=True)
class Table:
    """One game as MWT holds it: its part (our stage's position), session (round) and whether its result goes."""

    part: int
    stage: Stage
    round: Round
    game: Game
    result: bool


def place(stage: Stage, round_: Round, game: Game | None = None) -> str:
    where = f"stage {stage.id}, round {round_.number}"
    return f"{where}, table {game.table}" if game is not None else where


def ten_seats(game: Game) -> bool:
    return sorted(seat.seat for seat in game.seats) == list(range(1, TABLE + 1))


def result_blockers(game: Game) -> list[str]:
    """Why a game's result cannot go to MWT (its seating still does)."""
    reasons = []
    if game.winner is not None and game.winner not in RESULT_CODES:
        reasons.append(f"winner {game.winner.value}")
    for seat in sorted(game.seats, key=lambda s: s.seat):
        if seat.role not in ROLE_CODES:
            reasons.append(f"{seat.role.value} at seat {seat.seat}")
    return reasons


def tables(t: Tournament) -> list[Table]:
    """The games MWT can hold, in the document's order: part, session, table."""
    chosen = []
    for part, stage in enumerate(t.stages, start=1):
        for round_ in sorted(stage.rounds, key=lambda r: r.number):
            for game in sorted(round_.games, key=lambda g: g.table):
                if ten_seats(game):
                    chosen.append(Table(part, stage, round_, game, game.has_result and not result_blockers(game)))
    return chosen


def shown_names(t: Tournament, players: Iterable[str]) -> dict[str, str]:
    """Each player's MWT nickname: ours, else the name; one two players share gets the id added, so that the
    nickname still tells them apart when MWT has no user id for them."""
    by_id = t.players_by_id()
    base = {p: (by_id[p].nickname or by_id[p].name) if p in by_id else p for p in players}
    taken: dict[str, int] = {}
    for name in base.values():
        taken[name] = taken.get(name, 0) + 1
    return {p: name if taken[name] == 1 or user_id(p) is not None else f"{name} ({p})" for p, name in base.items()}


def seated(chosen: Sequence[Table]) -> list[str]:
    """The players of the exported games in their order of first appearance."""
    order: dict[str, None] = {}
    for table in chosen:
        for seat in sorted(table.game.seats, key=lambda s: s.seat):
            order.setdefault(seat.player)
    return list(order)


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


def judge_user(judge: str | None) -> int | None:
    return user_id(judge) if judge is not None else None


def game_penalties(table: Table) -> dict[str, Fraction]:
    """The round's penalties of this game's players that MWT's ``penalty_disciplinary`` holds (points below 0)."""
    at_table = {seat.player for seat in table.game.seats}
    sums: dict[str, Fraction] = {}
    for penalty in table.round.penalties:
        if penalty.player in at_table:
            sums[penalty.player] = sums.get(penalty.player, ZERO) + penalty.points
    return {player: points for player, points in sums.items() if points < 0}


@register
class MWT(Platform):
    name = NAME
    title = "Mafia World Tour (mafiaworldtour.com)"
    source = ("szotin/mafiaratings include/mwt_game.php, api/ops/mwt.php @ 390b210f4fb5d47abf3199c17b43f14cd25d99dd; "
              "dimtom/MafiaScheduleDb schedules.py @ eaaa186be32d0e032b8ddbd87c944929c1664e97 "
              "(mafia-schedule 0.0.6 output.py Print.mwtSchedule)")
    default_ruleset = "fiim"

    # -- export -------------------------------------------------------------------------------------------------

    def export(self, tournament: Tournament) -> Exported:
        chosen = tables(tournament)
        names = shown_names(tournament, seated(chosen))
        games = [self._game(table, names) for table in chosen]
        # A game a line: the document stays readable and diffable without spreading each array over ten lines.
        document = '{"success": [' + ",".join(f"\n{json.dumps(game, ensure_ascii=False)}" for game in games) + "\n]}\n"
        return Exported(document, tuple(losses(tournament, chosen, names)))

    def _game(self, table: Table, names: dict[str, str]) -> dict[str, Any]:
        game = table.game
        seats = sorted(game.seats, key=lambda s: s.seat)
        out: dict[str, Any] = {"part_number": table.part, "table_number": game.table,
                               "session_number": table.round.number}
        referee = judge_user(game.judge)
        if referee is not None:
            out["referee_user_id"] = referee
        out["protocol"] = [{"user_id": user_id(s.player), "nickname": names[s.player]} for s in seats]
        if table.result:
            out["result"] = self._result(table, seats)
        return out

    def _result(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        game = table.game
        assert game.winner is not None
        penalties = game_penalties(table)
        log = kept_log(game)
        result: dict[str, Any] = {
            "result": RESULT_CODES[game.winner],
            "players": [user_id(s.player) for s in seats],
            "player_roles": [ROLE_CODES[s.role] for s in seats],
            "player_fouls": [s.fouls for s in seats],
            "game_bonus": [number(s.extra) if s.extra > 0 else 0 for s in seats],
            "penalty": [number(-s.extra) if s.extra < 0 else 0 for s in seats],
            "penalty_disciplinary": [number(-penalties.get(s.player, ZERO)) for s in seats],
        }
        for kind, key in CHECKS:
            checks = {e.phase // 2: e.seat for e in log if e.kind == kind}
            result[key] = [checks.get(night) for night in range(1, max(checks, default=0) + 1)]
        result["leaves"] = leaves(log, seats)
        if any(e.kind in LEAVE_KINDS.values() for e in log):  # who is left at the end, as mafiaratings counts it
            gone = {leave["p_num"] for leave in result["leaves"]}
            staying = [s for s in seats if s.seat not in gone]
            result["black_count"] = sum(1 for s in staying if s.role in (Role.MAFIA, Role.DON))
            result["red_count"] = len(staying) - result["black_count"]
        if game.first_killed is not None:
            result["killed_first"] = game.first_killed
            if game.best_move:
                result["best_move_value"] = list(game.best_move)
                black = {s.seat for s in seats if s.role in (Role.MAFIA, Role.DON)}
                result["best_move"] = sum(1 for seat in game.best_move if seat in black)
        if game.notes:
            result["comment"] = game.notes
        return result

    # -- kept ---------------------------------------------------------------------------------------------------

    def kept(self, tournament: Tournament) -> Tournament:
        chosen = tables(tournament)
        order = seated(chosen)
        names = shown_names(tournament, order)
        ids = {p: player_id(user_id(p), names[p]) for p in order}
        stages: dict[int, list[Round]] = {}
        for table in chosen:
            rounds = stages.setdefault(table.part, [])
            if not rounds or rounds[-1].number != table.round.number:
                rounds.append(Round(number=table.round.number, games=()))
            game = self._kept_game(table, ids)
            penalties = tuple(Penalty(ids[p], -fraction(number(-points))) for p, points in
                              game_penalties(table).items()) if table.result else ()
            rounds[-1] = replace(rounds[-1], games=(*rounds[-1].games, game),
                                 penalties=(*rounds[-1].penalties, *sorted(penalties, key=lambda p: seat_of(game, p))))
        players = tuple(Player(ids[p], names[p], names[p]) for p in order)
        return Tournament(ruleset=tournament.ruleset, players=players,
                          stages=tuple(Stage(id=f"part-{part}", rounds=tuple(rounds))
                                       for part, rounds in stages.items()))

    def _kept_game(self, table: Table, ids: dict[str, str]) -> Game:
        game = table.game
        referee = judge_user(game.judge)
        judge = f"mwt-{referee}" if referee is not None else None
        ordered = sorted(game.seats, key=lambda s: s.seat)
        if not table.result:
            return Game(table=game.table, winner=None, judge=judge,
                        seats=tuple(Seat(s.seat, ids[s.player], Role.CIVILIAN) for s in ordered))
        log = kept_log(game)
        departed = {e.seat: e.kind for e in log if e.kind in LEAVE_KINDS.values()}
        seats = tuple(Seat(s.seat, ids[s.player], s.role, fouls=s.fouls, extra=fraction(number(s.extra)),
                           removed=departed.get(s.seat, "removed" if s.removed else None) == "removed")
                      for s in ordered)
        kept = Game(table=game.table, winner=game.winner, judge=judge, notes=game.notes or None,
                    first_killed=game.first_killed, best_move=game.best_move if game.first_killed else (),
                    seats=seats)
        return derived(kept, log, seats)

    # -- read ---------------------------------------------------------------------------------------------------

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        ruleset = ruleset or self.default_ruleset
        if ruleset not in RULESETS:
            raise FormatError([f"unknown ruleset {ruleset!r}: one of {', '.join(sorted(RULESETS))}"])
        if not text.lstrip().startswith(("{", "[")):
            return read_seating(text, ruleset)
        document = parse_json(text, NAME)
        if isinstance(document, dict) and set(document) == {"error"}:
            raise FormatError([f"not a {NAME} document: an MWT error answer: {document['error']!r}"])
        if not isinstance(document, dict) or set(document) != {"success"} or not isinstance(document["success"], list):
            shape = f"an object with keys {', '.join(sorted(document))}" if isinstance(document, dict) \
                else f"a JSON {type(document).__name__}"
            raise FormatError([f"not a {NAME} document: it is {shape}; MWT's is {{\"success\": [games]}}"])
        reader = Reader(ruleset)
        for index, item in enumerate(document["success"]):
            reader.game(f"success[{index}]", item)
        return reader.finish()


def seat_of(game: Game, penalty: Penalty) -> int:
    return next(s.seat for s in game.seats if s.player == penalty.player)


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


def losses(t: Tournament, chosen: Sequence[Table], names: dict[str, str]) -> list[str]:
    """What of our tournament the MWT document does not hold, one line per kind per place."""
    lost: list[str] = []
    if t.info is not None and t.info != type(t.info)():
        lost.append("the tournament's name, city, venue, dates and settings (mwt's games name no tournament but by "
                    "its MWT id, which our file does not keep)")
    if t.params:
        lost.append(f"parameters {', '.join(name for name, _ in t.params)} (mwt holds no regulation)")
    if t.teams:
        lost.append(f"teams {', '.join(team.id for team in t.teams)} (mwt has no teams)")
    if any(table.result for table in chosen):
        lost.append("every game with a result: tournament_id, result.start_time and result.end_time (MWT requires "
                    "them; our file holds no MWT tournament id nor game times: add them before posting)")
    exported = {id(table.game): table for table in chosen}
    shown = set(names)
    for player in t.players:
        if player.id not in shown:
            lost.append(f"player {player.id} ({player.name}): seated at no game mwt holds")
            continue
        mwt = player_id(user_id(player.id), names[player.id])
        if mwt != player.id:
            lost.append(f"player {player.id}: id (mwt knows a player by an MWT user id or the nickname: {mwt})")
        if player.name != names[player.id] or player.nickname != names[player.id]:
            lost.append(f"player {player.id}: name {player.name!r}"
                        + (f", nickname {player.nickname!r}" if player.nickname else "")
                        + f" (mwt holds the nickname only: {names[player.id]!r})")
        if player.team is not None or player.guest:
            lost.append(f"player {player.id}: team and guest mark (mwt has neither)")
    for part, stage in enumerate(t.stages, start=1):
        written = {k: v for k, v in (("name", stage.name), ("kind", stage.kind), ("players", stage.players),
                                     ("advance", stage.advance), ("reset", stage.reset),
                                     ("multiplier", stage.multiplier), ("lots", stage.lots)) if v is not None}
        if stage.id != f"part-{part}" or written:
            lost.append(f"stage {stage.id}: id" + "".join(f", {k}" for k in written)
                        + f" (mwt numbers parts only: part {part})")
        for round_ in stage.rounds:
            lost += round_losses(stage, round_, exported)
    return lost


def round_losses(stage: Stage, round_: Round, exported: dict[int, Table]) -> list[str]:
    lost = []
    where = place(stage, round_)
    if round_.seating is not None:
        lost.append(f"{where}: seating method {round_.seating.value} (mwt has none)")
    if round_.byes:
        lost.append(f"{where}: byes {', '.join(round_.byes)} (mwt has no byes)")
    if round_.absent:
        lost.append(f"{where}: absent {', '.join(round_.absent)} (mwt has no absences)")
    big = [g for g in round_.games if id(g) not in exported]
    if big:
        lost.append(f"{where}: tables {', '.join(str(g.table) for g in big)} (mwt seats ten at a table, "
                    f"seats 1-10; these have {', '.join(sorted({str(len(g.seats)) for g in big}))})")
    held: dict[str, Fraction] = {}
    for game in round_.games:
        table = exported.get(id(game))
        if table is not None:
            lost += game_losses(where, table)
            if table.result:
                held.update(game_penalties(table))
    for penalty in round_.penalties:
        if penalty.player not in held:
            lost.append(f"{where}: penalty {penalty.points} for {penalty.player} (mwt's penalty_disciplinary holds "
                        "a deduction of a player of a game with a result only)")
        elif penalty.reason:
            lost.append(f"{where}: the reason {penalty.reason!r} of {penalty.player}'s penalty (mwt keeps the points)")
    return lost


def game_losses(round_where: str, table: Table) -> list[str]:
    game = table.game
    where = f"{round_where}, table {game.table}"
    lost = []
    if game.judge is not None and judge_user(game.judge) is None:
        lost.append(f"{where}: judge {game.judge!r} (mwt's referee_user_id is an MWT user id)")
    if not table.result:
        blockers = result_blockers(game)
        if game.has_result:
            lost.append(f"{where}: the result ({', '.join(blockers)}: mwt has a red or black win and the roles "
                        "red, black, don, sheriff); the seating is kept")
        if any(s.role is not Role.CIVILIAN for s in game.seats) and not game.has_result:
            lost.append(f"{where}: roles of a game without a result (mwt gives roles with a result only)")
        marks = [s.seat for s in game.seats if s.fouls or s.removed or s.extra or s.best or s.subjective
                 or s.days_survived is not None or s.side is not None]
        if marks:
            lost.append(f"{where}: fouls, removals, points and marks of seats {', '.join(map(str, marks))}")
        if game.first_killed or game.best_move or game.circles or game.log or game.notes or game.protests \
                or game.mafia_missed_three_nights:
            lost.append(f"{where}: first kill, best move, circles, log, notes and protests of a game whose "
                        "result mwt does not hold")
        return lost
    log = kept_log(game)
    if len(log) != len(game.log) or set(log) != set(game.log):
        gone = sorted({e.kind for e in game.log} - {e.kind for e in log}) or ["its order and repeats"]
        lost.append(f"{where}: log entries beyond mwt's leaves and checks ({', '.join(gone)})")
    seats = sorted(game.seats, key=lambda s: s.seat)
    departed = {e.seat: e.kind for e in log if e.kind in LEAVE_KINDS.values()}
    for seat in seats:
        if seat.removed and departed.get(seat.seat, "removed") != "removed":
            lost.append(f"{where}, seat {seat.seat}: the removal (the log has it {departed[seat.seat]})")
    for what, marked in (("best player", [s.seat for s in seats if s.best]),
                         ("subjective points", [s.seat for s in seats if s.subjective is not None]),
                         ("side as written", [s.seat for s in seats if s.side is not None])):
        if marked:
            lost.append(f"{where}: {what} at seats {', '.join(map(str, marked))} (mwt has none)")
    inexact = [s.seat for s in seats if fraction(number(s.extra)) != s.extra]
    if inexact:
        lost.append(f"{where}: extra points of seats {', '.join(map(str, inexact))} rounded to decimals")
    kept = derived(game, log, tuple(seats))
    if any(s.days_survived not in (None, k.days_survived) for s, k in zip(seats, kept.seats, strict=True)):
        lost.append(f"{where}: days survived as written (mwt's reader derives them from the leaves)")
    if game.mafia_missed_three_nights != kept.mafia_missed_three_nights:
        lost.append(f"{where}: the mafia's three missed nights as written (mwt derives them from the leaves)")
    if game.circles:
        lost.append(f"{where}: speech circles' marks (mwt has none)")
    if game.protests:
        lost.append(f"{where}: protests at seats {', '.join(str(p.seat) for p in game.protests)} (mwt has none)")
    return lost


class Reader:
    """Reads an MWT document's games, collecting every problem with its place before raising."""

    def __init__(self, ruleset: str) -> None:
        self.ruleset = ruleset
        self.problems: list[str] = []
        self.dropped: list[str] = []
        self.players: dict[str, Player] = {}
        self.games: dict[tuple[int, int, int], tuple[Game, tuple[Penalty, ...]]] = {}

    def bad(self, where: str, what: str) -> None:
        self.problems.append(f"{where}: {what}")

    def integer(self, where: str, value: Any, low: int = 1, high: int | None = None) -> int | None:
        if not isinstance(value, int) or isinstance(value, bool) or value < low or (high is not None and value > high):
            span = f"{low}..{high}" if high is not None else f"at least {low}"
            self.bad(where, f"{json.dumps(value)} is not a whole number {span}")
            return None
        return value

    def seat_number(self, where: str, value: Any) -> int | None:
        return self.integer(where, value, 1, TABLE)

    def points(self, where: str, value: Any) -> Fraction:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            self.bad(where, f"{json.dumps(value)} is not a number")
            return ZERO
        return fraction(value)

    def unknown(self, where: str, item: dict[str, Any], known: frozenset[str]) -> None:
        for key in item:
            if key not in known:
                self.bad(f"{where}.{key}", "unknown key")

    def game(self, where: str, item: Any) -> None:
        if not isinstance(item, dict):
            self.bad(where, "not a game object")
            return
        self.unknown(where, item, GAME_KEYS)
        numbers = []
        for key in ("part_number", "table_number", "session_number"):
            if key not in item:
                self.bad(f"{where}.{key}", "missing")
            numbers.append(self.integer(f"{where}.{key}", item.get(key)) if key in item else None)
        if "tournament_id" in item:
            self.dropped.append(f"{where}.tournament_id {item['tournament_id']}: the MWT tournament id (our file "
                                "keeps no platform's tournament id)")
        judge = None
        if item.get("referee_user_id") is not None:
            referee = self.integer(f"{where}.referee_user_id", item["referee_user_id"])
            judge = f"mwt-{referee}" if referee is not None else None
        if "referee" in item:
            judge = self.referee(f"{where}.referee", item["referee"], judge)
        result = item.get("result")
        if result is not None and not isinstance(result, dict):
            self.bad(f"{where}.result", "not an object")
            result = None
        players = self.seating(where, item.get("protocol"), result)
        if players is None or None in numbers:
            return
        part, table, session = (n for n in numbers if n is not None)
        if (part, session, table) in self.games:
            self.bad(where, f"part {part}, session {session}, table {table} is given twice")
            return
        if result is None:
            game = Game(table=table, winner=None, judge=judge,
                        seats=tuple(Seat(n, p, Role.CIVILIAN) for n, p in enumerate(players, start=1)))
            self.games[(part, session, table)] = (game, ())
            return
        read = self.result(f"{where}.result", result, table, players, judge)
        if read is not None:
            self.games[(part, session, table)] = read

    def referee(self, where: str, value: Any, judge: str | None) -> str | None:
        """The judge from the protocol answer's ``referee`` (an MWT user id, or an object with ``user_id`` as a
        protocol entry has), where ``referee_user_id`` gives none or the same; anything else is dropped."""
        user = value.get("user_id") if isinstance(value, dict) else value
        if isinstance(user, int) and not isinstance(user, bool) and user >= 1 and judge in (None, f"mwt-{user}"):
            return f"mwt-{user}"
        if value is not None:
            why = "referee_user_id names the judge" if judge is not None else "not an MWT user id"
            self.dropped.append(f"{where} {json.dumps(value, ensure_ascii=False)}: the protocol's referee, not read "
                                f"({why})")
        return judge

    def seating(self, where: str, protocol: Any, result: dict[str, Any] | None) -> list[str] | None:
        """The game's players, seat by seat: from the protocol (user id and nickname), else the result's ids."""
        ids = result.get("players") if result is not None else None
        if protocol is None and ids is None:
            self.bad(f"{where}.protocol", "missing (a game needs its protocol or its result's players)")
            return None
        entries: list[tuple[int | None, str | None]] = []
        source = f"{where}.protocol" if protocol is not None else f"{where}.result.players"
        listed = protocol if protocol is not None else ids
        if not isinstance(listed, list):
            self.bad(source, "not a list")
            return None
        if len(listed) != TABLE:
            self.bad(source, f"{len(listed)} seats; an MWT table has {TABLE}")
            return None
        problems = len(self.problems)
        for index, entry in enumerate(listed):
            at = f"{source}[{index}]"
            if protocol is not None:
                if not isinstance(entry, dict):
                    self.bad(at, "not an object with user_id and nickname")
                    continue
                self.unknown(at, entry, PROTOCOL_KEYS)
                user = entry.get("user_id")
                nick = entry.get("nickname")
            else:
                user, nick = entry, None
            if user is not None:
                user = self.integer(f"{at}.user_id" if protocol is not None else at, user)
                if user is None:
                    continue
            if nick is not None and (not isinstance(nick, str) or not nick.strip()):
                self.bad(f"{at}.nickname", f"{json.dumps(nick)} is not a name")
                continue
            if user is None and nick is None:
                self.bad(at, "neither a user_id nor a nickname: the player is unknown")
                continue
            entries.append((user, nick.strip() if isinstance(nick, str) else None))
        if len(self.problems) > problems:
            return None
        if protocol is not None and isinstance(ids, list) and len(ids) == TABLE:
            for index, ((user, _), other) in enumerate(zip(entries, ids, strict=True)):
                if other != user:
                    self.bad(f"{where}.result.players[{index}]", f"{json.dumps(other)} differs from the protocol's "
                             f"user_id {json.dumps(user)}")
        players = []
        seen: dict[str, int] = {}
        for index, (user, nick) in enumerate(entries):
            pid = player_id(user, nick or "")
            if pid in seen:
                self.bad(f"{source}[{index}]", f"player {pid} is also at seat {seen[pid]}")
                continue
            seen[pid] = index + 1
            players.append(pid)
            known = self.players.get(pid)
            if known is None:
                name = nick if nick is not None else f"MWT_{user}"
                self.players[pid] = Player(pid, name, nick)
            elif nick is not None and known.nickname != nick:
                if known.nickname is None:
                    self.players[pid] = Player(pid, nick, nick)
                else:
                    self.dropped.append(f"{source}[{index}].nickname {nick!r}: user {user} is {known.nickname!r} "
                                        "in an earlier game")
        return players if len(players) == TABLE else None

    def seat_array(self, where: str, result: dict[str, Any], key: str, required: bool = False) -> list[Any] | None:
        if key not in result:
            if required:
                self.bad(f"{where}.{key}", "missing")
            return None
        values = result[key]
        if not isinstance(values, list) or len(values) != TABLE:
            self.bad(f"{where}.{key}", f"not a list of {TABLE} (one a seat)")
            return None
        return values

    def result(self, where: str, result: dict[str, Any], table: int, players: list[str],
               judge: str | None) -> tuple[Game, tuple[Penalty, ...]] | None:
        problems = len(self.problems)
        self.unknown(where, result, RESULT_KEYS)
        if "result" not in result:
            self.bad(f"{where}.result", "missing")
        code = result.get("result")
        winner = RESULTS.get(code) if isinstance(code, str) else None
        if "result" in result and winner is None:
            self.bad(f"{where}.result", f"unknown result {json.dumps(result['result'])} (red or black)")
        roles = []
        codes = self.seat_array(where, result, "player_roles", required=True) or []
        for index, code in enumerate(codes):
            role = ROLES.get(code) if isinstance(code, str) else None
            if role is None:
                self.bad(f"{where}.player_roles[{index}]", f"unknown role code {json.dumps(code)} "
                         "(red, black, don, sheriff)")
            roles.append(role or Role.CIVILIAN)
        fouls = [self.integer(f"{where}.player_fouls[{i}]", v, 0) or 0
                 for i, v in enumerate(self.seat_array(where, result, "player_fouls") or [0] * TABLE)]
        bonus = [self.points(f"{where}.game_bonus[{i}]", v)
                 for i, v in enumerate(self.seat_array(where, result, "game_bonus") or [0] * TABLE)]
        minus = [abs(self.points(f"{where}.penalty[{i}]", v))
                 for i, v in enumerate(self.seat_array(where, result, "penalty") or [0] * TABLE)]
        discipline = [abs(self.points(f"{where}.penalty_disciplinary[{i}]", v))
                      for i, v in enumerate(self.seat_array(where, result, "penalty_disciplinary") or [0] * TABLE)]
        for key, plain, says in (("is_replacement", 0, "replaced the seated player"),
                                 ("game_autobonus", 1, "lost the automatic bonus (mafiaratings: worst move)")):
            values = self.seat_array(where, result, key) or []
            marked = [str(i + 1) for i, v in enumerate(values) if v != plain]
            if marked:
                self.dropped.append(f"{where}.{key}: seats {', '.join(marked)} {says} (our model has no such mark)")
        for key in ("start_time", "end_time"):
            if key in result:
                self.dropped.append(f"{where}.{key} {result[key]!r}: the game's time (our model keeps none)")
        log, left_untimed = self.log(where, result)
        best: tuple[int, ...] = ()
        killed = None
        if result.get("killed_first") is not None:
            killed = self.seat_number(f"{where}.killed_first", result["killed_first"])
        if result.get("best_move_value") is not None:
            value = result["best_move_value"]
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                # mafiaratings writes a number for a simplified legacy (include/mwt_game.php): the count only
                self.dropped.append(f"{where}.best_move_value {json.dumps(value)}: a guess count only (no seats: "
                                    "our best move is the seats guessed)")
            elif not isinstance(value, list):
                self.bad(f"{where}.best_move_value", "not a list of seats nor a guess count")
            else:
                best = tuple(n for i, v in enumerate(value)
                             if (n := self.seat_number(f"{where}.best_move_value[{i}]", v)) is not None)
        comment = result.get("comment")
        if comment is not None and not isinstance(comment, str):
            self.bad(f"{where}.comment", "not a text")
        if len(self.problems) > problems or winner is None:
            return None
        killed = killed if killed is not None else first_killed(log)
        if best and killed is None:
            self.dropped.append(f"{where}.best_move_value: a best move without the first killed")
            best = ()
        if best and "best_move" in result:
            black = sum(1 for n in best if roles[n - 1] in (Role.MAFIA, Role.DON))
            if result["best_move"] != black:
                self.dropped.append(f"{where}.best_move {json.dumps(result['best_move'])}: the count of black seats "
                                    f"guessed (the roles give {black})")
        departed = {e.seat: e.kind for e in log if e.kind in LEAVE_KINDS.values()}
        seats = tuple(Seat(n, players[n - 1], roles[n - 1], fouls=fouls[n - 1], extra=bonus[n - 1] - minus[n - 1],
                           removed=departed.get(n) == "removed" or n in left_untimed)
                      for n in range(1, TABLE + 1))
        game = Game(table=table, winner=winner, seats=seats, judge=judge, first_killed=killed, best_move=best,
                    notes=comment or None)
        missed = bool(log) and mafia_missed_three_nights(log)
        if missed and winner is not Side.RED:
            self.dropped.append(f"{where}.leaves: three nights without a kill, yet black won (not marked)")
        game = derived(replace(game, first_killed=killed), log, seats)
        penalties = tuple(Penalty(players[i], -points) for i, points in enumerate(discipline) if points)
        return game, penalties

    def log(self, where: str, result: dict[str, Any]) -> tuple[tuple[LogEvent, ...], set[int]]:
        """The game log MWT's leaves and checks give, and the seats removed at a time the document does not say."""
        events: list[LogEvent] = []
        untimed: set[int] = set()
        raw = result.get("leaves") or []
        if not isinstance(raw, list):
            self.bad(f"{where}.leaves", "not a list")
            raw = []
        left: dict[int, str] = {}
        for index, leave in enumerate(raw):
            at = f"{where}.leaves[{index}]"
            if not isinstance(leave, dict):
                self.bad(at, "not an object")
                continue
            self.unknown(at, leave, LEAVE_KEYS)
            for key in ("p_num", "leave_type"):
                if key not in leave:
                    self.bad(f"{at}.{key}", "missing")
            seat = self.seat_number(f"{at}.p_num", leave.get("p_num"))
            kind = self.integer(f"{at}.leave_type", leave.get("leave_type"), 1, 4)
            nights, days = (self.integer(f"{at}.{key}", leave[key], 0) if leave.get(key) is not None else None
                            for key in ("nights_before_count", "days_before_count"))
            if seat is None or kind is None:
                continue
            if seat in left:
                self.bad(f"{at}.p_num", f"seat {seat} already left ({left[seat]})")
                continue
            left[seat] = LEAVE_KINDS[kind]
            if kind == TEAM_REMOVED:
                self.dropped.append(f"{at}: seat {seat} disqualified with the team's defeat (ППК), read as a removal")
            phase = None
            if kind == VOTED_OUT and (days or (nights is not None and days is None)):
                phase = 2 * (days if days else (nights or 0) + 1) - 1
            elif kind == KILLED and (nights or (days and nights is None)):
                phase = 2 * (nights if nights else days or 0)
            elif kind in (REMOVED, TEAM_REMOVED) and nights is not None and days is not None:
                phase = 2 * days - 1 if days > nights else 2 * nights if nights else None
            if phase is None:
                if kind in (REMOVED, TEAM_REMOVED):
                    untimed.add(seat)
                else:
                    what = LEAVE_KINDS[kind].replace("_", " ")
                    self.dropped.append(f"{at}: seat {seat} {what} at no day or night we can place")
                continue
            events.append(LogEvent(LEAVE_KINDS[kind], phase, seat))
            count = leave.get("votes_count")
            if kind == VOTED_OUT and count:
                votes = self.integer(f"{at}.votes_count", count, 0, TABLE)
                if votes:
                    events.append(LogEvent("votes", phase, seat, votes))
        for check, key in CHECKS:
            checks = result.get(key) or []
            if not isinstance(checks, list):
                self.bad(f"{where}.{key}", "not a list of seats")
                continue
            for index, value in enumerate(checks):
                checked_seat = self.seat_number(f"{where}.{key}[{index}]", value) if value is not None else None
                if checked_seat is not None:
                    events.append(LogEvent(check, 2 * (index + 1), checked_seat))
        return tuple(sorted(events, key=lambda e: (e.phase, KIND_ORDER[e.kind], e.seat or 0))), untimed

    def finish(self) -> Imported:
        if self.problems:
            raise FormatError(self.problems)
        parts: dict[int, dict[int, list[tuple[Game, tuple[Penalty, ...]]]]] = {}
        for (part, session, _table), read in sorted(self.games.items()):
            parts.setdefault(part, {}).setdefault(session, []).append(read)
        stages = tuple(Stage(id=f"part-{part}", rounds=tuple(
            Round(number=session, games=tuple(game for game, _ in games),
                  penalties=tuple(p for _, penalties in games for p in penalties))
            for session, games in sessions.items())) for part, sessions in parts.items())
        order: dict[str, None] = {}
        for stage in stages:
            for round_ in stage.rounds:
                for game in round_.games:
                    for seat in game.seats:
                        order.setdefault(seat.player)
        tournament = Tournament(ruleset=self.ruleset, players=tuple(self.players[p] for p in order), stages=stages)
        return Imported(checked(tournament), tuple(self.dropped))


def checked(tournament: Tournament) -> Tournament:
    """The tournament read, or ``FormatError`` with every rule it breaks (a player in two games of a round...)."""
    problems = validate(tournament)
    if problems:
        raise FormatError([f"{NAME} document: {problem}" for problem in problems])
    return tournament


# -- MWT's seating text (mafia-schedule's Print.mwtSchedule, served by MafiaScheduleDb's ?mode=mwt) -----------------


def export_seating(tournament: Tournament) -> Exported:
    """MWT's seating text: each round ten lines (seat 1 to 10), each the tables' players by nickname separated by
    commas, a blank line after each round. Stages are not told apart: the rounds follow one another."""
    chosen = tables(tournament)
    names = shown_names(tournament, seated(chosen))
    lost = []
    for player, name in names.items():
        if "," in name or name != name.strip() or any(c in name for c in "\r\n"):
            lost.append(f"player {player}: nickname {name!r} written as {player} (a comma, line break or edge space "
                        "cannot stand in the text)")
            names[player] = player
    blocks = []
    for stage in tournament.stages:
        for round_ in sorted(stage.rounds, key=lambda r: r.number):
            games = sorted(round_.games, key=lambda g: g.table)
            if not games or not all(ten_seats(g) for g in games):
                lost.append(f"{place(stage, round_)}: not written (mwt's seating has ten seats at every table)")
                continue
            seats = [{s.seat: s.player for s in g.seats} for g in games]
            blocks.append("\n".join(", ".join(names[by_seat[n]] for by_seat in seats) for n in range(1, TABLE + 1)))
            if [g.table for g in games] != list(range(1, len(games) + 1)):
                lost.append(f"{place(stage, round_)}: table numbers (the text's columns are tables 1, 2, ...)")
    lost.append("everything but who sits where (the seating text has players and seats only)")
    return Exported("".join(block + "\n\n" for block in blocks), tuple(lost))


def read_seating(text: str, ruleset: str) -> Imported:
    """A tournament of one stage from MWT's seating text; its players' ids from their nicknames."""
    blocks = [block for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip("\n")) if block.strip()]
    problems = []
    if not blocks:
        raise FormatError([f"not a {NAME} document: empty (an MWT seating is ten lines a round)"])
    rounds = []
    players: dict[str, Player] = {}
    for number_, block in enumerate(blocks, start=1):
        where = f"{NAME} seating, round {number_}"
        lines = block.split("\n")
        if len(lines) != TABLE:
            problems.append(f"{where}: {len(lines)} lines; a round has {TABLE}, one a seat"
                            + ("" if number_ > 1 else f" (not a {NAME} document?)"))
            continue
        rows = [[cell.strip() for cell in line.split(",")] for line in lines]
        width = len(rows[0])
        tables_: list[list[str]] = [[] for _ in range(width)]
        for seat, row in enumerate(rows, start=1):
            if len(row) != width:
                problems.append(f"{where}, seat {seat}: {len(row)} tables; seat 1 has {width}")
                continue
            for column, name in enumerate(row):
                if not name:
                    problems.append(f"{where}, table {column + 1}, seat {seat}: no player")
                tables_[column].append(player_id(None, name))
                players.setdefault(player_id(None, name), Player(player_id(None, name), name, name))
        games = []
        for column, ids in enumerate(tables_, start=1):
            first: dict[str, int] = {}
            for seat, pid in enumerate(ids, start=1):
                if pid in first:
                    problems.append(f"{where}, table {column}, seat {seat}: {players[pid].name} also at seat "
                                    f"{first[pid]}")
                first.setdefault(pid, seat)
            games.append(Game(table=column, winner=None,
                              seats=tuple(Seat(n, pid, Role.CIVILIAN) for n, pid in enumerate(ids, start=1))))
        rounds.append(Round(number=number_, games=tuple(games)))
    if problems:
        raise FormatError(problems)
    order: dict[str, None] = {}
    for round_ in rounds:
        for game in round_.games:
            for at in game.seats:
                order.setdefault(at.player)
    tournament = Tournament(ruleset=ruleset, players=tuple(players[p] for p in order),
                            stages=(Stage(id="part-1", rounds=tuple(rounds)),))
    return Imported(checked(tournament), ())
