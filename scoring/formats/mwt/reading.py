"""Import: MWT's games (seating and result) read into our games, every problem named by its place.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ...gamelog import first_killed, mafia_missed_three_nights
from ...model import ZERO, Game, LogEvent, Penalty, Player, Role, Round, Seat, Side, Stage, Tournament
from ..base import FormatError, Imported
from .codes import (
    CHECKS,
    GAME_KEYS,
    KILLED,
    KIND_ORDER,
    LEAVE_KEYS,
    LEAVE_KINDS,
    PROTOCOL_KEYS,
    REMOVED,
    RESULT_KEYS,
    RESULTS,
    ROLES,
    TABLE,
    TEAM_REMOVED,
    VOTED_OUT,
    checked,
    fraction,
    player_id,
)
from .log import derived


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
