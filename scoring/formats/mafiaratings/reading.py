"""Import: mafiaratings' game JSON read into our games (seats, log, bonuses), every problem named by its place.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ... import gamelog
from ...model import ZERO, Game, LogEvent, Seat, Side
from ..base import FormatError, Imported, parse_json
from .codes import (
    BONUS_TITLES,
    CODE_ROLES,
    CODE_WINNERS,
    DEATH_TYPES,
    GAME_KEYS,
    NAME,
    NIGHT_TIMES,
    PLAYER_KEYS,
    REMOVALS,
    SEATS,
    in_order,
    is_int,
    name_id,
    read_number,
)
from .tournament import Placed, assemble, checked


def _seat_number(value: Any, at: str, problems: list[str]) -> int | None:
    if value is None:
        return None
    if not is_int(value) or value not in SEATS:
        problems.append(f"{at}: seat {value!r} is not a seat 1 to 10")
        return None
    return int(value)


def _round_number(value: Any, at: str, problems: list[str]) -> int | None:
    if not is_int(value) or value < 0:
        problems.append(f"{at}: round {value!r} is not a round number from 0")
        return None
    return int(value)


@dataclass
class _GameReader:
    """Reads one game of the document, collecting problems and dropped facts with their places."""

    at: str
    problems: list[str]
    dropped: list[str]
    warnings_time: Any = None  # the player's 4th warning's time: a "warnings" death without a time has it

    def fail(self, text: str) -> None:
        self.problems.append(text)

    def death(self, raw: Any, seat: int, at: str, fouls: int) -> tuple[LogEvent | None, bool]:
        """The departure a player's death means, and whether it was a removal (4 warnings, 2 technical fouls,
        kicked out, gave up)."""
        kind: str | None = None
        number: int | None = None
        time: Any = None
        if isinstance(raw, bool):
            if raw:
                self.dropped.append(f"{at}: died, neither when nor how written")
            return None, False
        if is_int(raw):
            number = _round_number(raw, at, self.problems)
        elif isinstance(raw, str):
            kind = raw
        elif isinstance(raw, dict):
            for key in raw:
                if key not in ("round", "type", "time"):
                    self.fail(f"{at}: unknown key {key!r}")
            kind = raw.get("type")
            if "round" in raw:
                number = _round_number(raw["round"], f"{at}.round", self.problems)
            time = raw.get("time")
            if kind == "warnings" and time is None:
                time = self.warnings_time
        else:
            self.fail(f"{at}: {raw!r} is not a death")
            return None, False
        if kind is not None and kind not in DEATH_TYPES:
            self.fail(f"{at}.type: unknown death type {kind!r}")
            return None, False
        removal = kind in REMOVALS
        if kind == "giveUp":
            self.dropped.append(f"{at}: gave up (read as removed)")
        if kind == "techFouls":
            self.dropped.append(f"{at}: left by two technical fouls (read as removed)")
        if kind is None or number is None:
            self.dropped.append(f"{at}: died{' (' + kind + ')' if kind else ''}, the round not written")
            return None, removal
        if kind == "night":
            if number == 0:
                self.fail(f"{at}: killed in night 0")
                return None, False
            return LogEvent("killed", 2 * number, seat), False
        if kind == "day":
            return LogEvent("voted_out", 2 * number + 1, seat), False
        moment = time.get("time") if isinstance(time, dict) else None
        if moment is not None and moment not in NIGHT_TIMES and not isinstance(moment, str):
            self.fail(f"{at}.time.time: {moment!r} is not a moment of the game")
        phase = max(1, 2 * number) if moment in NIGHT_TIMES else 2 * number + 1
        return LogEvent("removed", phase, seat), True

    def fouls(self, raw: Any, at: str) -> int:
        count = len(raw) if isinstance(raw, list) else raw
        if not is_int(count) or not 0 <= count <= 4:
            self.fail(f"{at}: {raw!r} is not 0 to 4 warnings")
            return 0
        if isinstance(raw, list) and raw:
            self.dropped.append(f"{at}: when each warning was given")
        return int(count)

    def bonus(self, raw: Any, at: str) -> tuple[Fraction, bool]:
        items = raw if isinstance(raw, list) else [raw]
        extra, best = ZERO, False
        for item in items:
            if isinstance(item, str):
                if item not in BONUS_TITLES:
                    self.fail(f"{at}: unknown bonus {item!r}")
                elif item == "bestPlayer":
                    best = True
                else:
                    self.dropped.append(f"{at}: the title {item!r} (we have no such title)")
            else:
                extra += read_number(item, at, self.problems)
        return extra, best

    def check(self, raw: Any, seat: int, kind: str, at: str) -> LogEvent | None:
        number = _round_number(raw, at, self.problems)
        if number is None:
            return None
        if number == 0:
            self.dropped.append(f"{at}: checked in night 0 (our log's nights start at 1)")
            return None
        return LogEvent(kind, 2 * number, seat)

    def per_round(self, raw: Any, at: str) -> list[Any]:
        if not isinstance(raw, list):
            self.fail(f"{at}: {raw!r} is not a list by round")
            return []
        return raw

    def votes(self, players: list[dict[str, Any]]) -> list[LogEvent]:
        """Nominations and the votes' counts of each day, from each player's ``nominating`` and ``voting``."""
        events: list[LogEvent] = []
        nominating = {n: self.per_round(p.get("nominating", []), f"{self.at}.players[{n - 1}].nominating")
                      for n, p in zip(SEATS, players, strict=True)}
        voting = {n: self.per_round(p.get("voting", []), f"{self.at}.players[{n - 1}].voting")
                  for n, p in zip(SEATS, players, strict=True)}
        days = max((len(v) for v in (*nominating.values(), *voting.values())), default=0)
        kill_all = False
        for day in range(days):
            phase = 2 * day + 1
            nominees: list[int] = []
            for n in SEATS:
                if day < len(nominating[n]):
                    nominee = _seat_number(nominating[n][day], f"{self.at}.players[{n - 1}].nominating[{day}]",
                                           self.problems)
                    if nominee is not None and nominee not in nominees:
                        nominees.append(nominee)
                        events.append(LogEvent("nominated", phase, nominee))
            rounds: list[dict[int, int]] = []
            for n in SEATS:
                if day >= len(voting[n]) or voting[n][day] is None:
                    continue
                cast = voting[n][day]
                cast = cast if isinstance(cast, list) else [cast]
                if cast and isinstance(cast[-1], bool):
                    kill_all, cast = True, cast[:-1]
                for k, target in enumerate(cast):
                    nominee = _seat_number(target, f"{self.at}.players[{n - 1}].voting[{day}]", self.problems)
                    if nominee is not None:
                        while len(rounds) <= k:
                            rounds.append({})
                        rounds[k][nominee] = rounds[k].get(nominee, 0) + 1
            for counts in rounds:
                order = [s for s in nominees if s in counts] + sorted(s for s in counts if s not in nominees)
                events += [LogEvent("votes", phase, s, counts[s]) for s in order]
        if any(voting.values()) or any(nominating.values()):
            self.dropped.append(f"{self.at}: who nominated and who voted for whom (our log keeps the nominees and "
                                "the votes' counts)")
        if kill_all:
            self.dropped.append(f"{self.at}: the votes to eliminate all in a split")
        return events


def _player_id(raw: dict[str, Any], at: str, problems: list[str]) -> tuple[str, str] | None:
    number, name = raw.get("id"), raw.get("name")
    if number is not None and (not is_int(number) or number < 0):
        problems.append(f"{at}.id: {number!r} is not a user id")
        return None
    if name is not None and not isinstance(name, str):
        problems.append(f"{at}.name: {name!r} is not a name")
        return None
    if number:
        return f"{NAME}-{number}", (name or "").strip() or f"{NAME} user {number}"
    if name and name.strip():
        return name_id(NAME, name.strip()), name.strip()
    problems.append(f"{at}: missing (neither id nor name)")
    return None


def read_game(raw: Any, index: int, ruleset: str, names: dict[str, str], problems: list[str],
               dropped: list[str]) -> Placed | None:
    at = f"games[{index}]"
    if not isinstance(raw, dict):
        raise FormatError([f"not a {NAME} document: {at} is not a game"])
    unknown = sorted(set(raw) - GAME_KEYS)
    if unknown:
        raise FormatError([f"not a {NAME} document: {at} has key(s) {', '.join(map(repr, unknown))}, "
                           f"which {NAME} games do not have"])
    before = len(problems)
    numbers: dict[str, int] = {}
    for key in ("eventId", "gameNum", "tableNum"):
        value = raw.get(key)
        if value is None:
            problems.append(f"{at}.{key}: missing (a tournament's game names its event, round and table)")
        elif not is_int(value) or value < (0 if key == "eventId" else 1):
            problems.append(f"{at}.{key}: {value!r} is not a number")
        else:
            numbers[key] = int(value)
    winner_code = raw.get("winner")
    winner: Side | None = None
    if winner_code == "tie":
        dropped.append(f"{at}: a tie (read as a game without a result: we have no tie)")
    elif winner_code is not None:
        if winner_code not in CODE_WINNERS:
            problems.append(f"{at}.winner: unknown winner {winner_code!r}")
        else:
            winner = CODE_WINNERS[winner_code]
    judge: str | None = None
    moderator = raw.get("moderator")
    if moderator is not None:
        if not isinstance(moderator, dict) or set(moderator) - {"id", "name"}:
            problems.append(f"{at}.moderator: not a moderator ({{id, name}})")
        elif isinstance(moderator.get("name"), str) and moderator["name"].strip():
            judge = moderator["name"]
            if moderator.get("id"):
                dropped.append(f"{at}.moderator.id: the judge's user id (our judge is a name)")
        elif moderator.get("id"):
            dropped.append(f"{at}.moderator: user id {moderator.get('id')!r} without a name")
    notes = raw.get("comment")
    if notes is not None and not isinstance(notes, str):
        problems.append(f"{at}.comment: not a text")
        notes = None
    described = [key for key in ("id", "clubId", "tournamentId", "startTime", "endTime", "timezone", "language",
                                 "rules", "rating", "time") if key in raw]
    if described:
        dropped.append(f"{at}: {', '.join(described)} (our games have none of these)")
    players = raw.get("players")
    if not isinstance(players, list):
        problems.append(f"{at}.players: missing (a list of the 10 players)")
        return None
    if len(players) != len(SEATS):
        problems.append(f"{at}.players: {len(players)} players ({NAME} games have exactly 10, seats 1 to 10)")
        return None
    reader = _GameReader(at, problems, dropped)
    seats: list[Seat] = []
    log: list[LogEvent] = []
    removed: set[int] = set()
    legacies: dict[int, list[Any]] = {}
    sitting: dict[str, int] = {}
    for number, player in zip(SEATS, players, strict=True):
        pat = f"{at}.players[{number - 1}]"
        if not isinstance(player, dict):
            problems.append(f"{pat}: not a player")
            continue
        unknown = sorted(set(player) - PLAYER_KEYS)
        if unknown:
            problems.append(f"{pat}: unknown key(s) {', '.join(map(repr, unknown))}")
            continue
        identity = _player_id(player, pat, problems)
        if identity is None:
            continue
        pid, name = identity
        if pid in sitting:
            problems.append(f"{pat}: {name!r} sits twice at this table (seats {sitting[pid]} and {number})")
            continue
        sitting[pid] = number
        names.setdefault(pid, name)
        code = player.get("role", "civ")
        if code not in CODE_ROLES:
            problems.append(f"{pat}.role: unknown role code {code!r}")
            continue
        fouls = reader.fouls(player.get("warnings", 0), f"{pat}.warnings")
        extra, best = reader.bonus(player["bonus"], f"{pat}.bonus") if "bonus" in player else (ZERO, False)
        warned = player.get("warnings")
        reader.warnings_time = warned[3] if isinstance(warned, list) and len(warned) > 3 else None
        if "death" in player:
            departure, was_removed = reader.death(player["death"], number, f"{pat}.death", fouls)
            if departure is not None:
                log.append(departure)
            if was_removed:
                removed.add(number)
        for kind in ("don", "sheriff"):
            if kind in player:
                check = reader.check(player[kind], number, f"{kind}_check", f"{pat}.{kind}")
                if check is not None:
                    log.append(check)
        if "legacy" in player:
            legacy = player["legacy"]
            if not isinstance(legacy, list):
                problems.append(f"{pat}.legacy: not a list of seats")
            else:
                legacies[number] = legacy
        for key, what in (("techFouls", "technical fouls"), ("arranged", "the mafia's arrangement"),
                          ("shooting", "the shots"), ("comment", "the judge's comment"),
                          ("record", "what the player left on record")):
            if player.get(key) not in (None, [], 0, ""):
                dropped.append(f"{pat}.{key}: {what} (we have none)")
        seats.append(Seat(seat=number, player=pid, role=CODE_ROLES[code], fouls=fouls, extra=extra, best=best))
    if len(problems) > before:
        return None
    log += reader.votes(players)
    if len(problems) > before:
        return None
    ordered = in_order(log)
    first_killed = gamelog.first_killed(ordered)
    best_move: tuple[int, ...] = ()
    for number, legacy in legacies.items():
        named = [_seat_number(s, f"{at}.players[{number - 1}].legacy", problems) for s in legacy]
        if number != first_killed:
            dropped.append(f"{at}.players[{number - 1}].legacy: left by a player not killed in the first night")
            continue
        best_move = tuple(dict.fromkeys(s for s in named if s is not None and s != number))[:3]
        if len(best_move) != len(legacy):
            dropped.append(f"{at}.players[{number - 1}].legacy: {legacy!r} read as {list(best_move)!r}")
    missed = winner is Side.RED and gamelog.mafia_missed_three_nights(ordered)
    days = gamelog.days_survived(ordered, SEATS) if ruleset == "tomsk" and winner is not None else {}
    seats = [replace(s, removed=s.seat in removed, days_survived=days.get(s.seat)) for s in seats]
    if len(problems) > before:
        return None
    game = Game(table=numbers["tableNum"], seats=tuple(seats), winner=winner, first_killed=first_killed,
                best_move=best_move, mafia_missed_three_nights=missed, judge=judge, notes=notes, log=ordered)
    event = numbers["eventId"]
    return Placed(event, f"event-{event}", numbers["gameNum"], game)


def read_games(text: str, ruleset: str, platform: str, envelope: frozenset[str],
               read_one: Callable[[Any, int, str, dict[str, str], list[str], list[str]], Placed | None],
               document_check: Callable[[dict[str, Any]], None] | None = None) -> Imported:
    """A document ``{"games": [...]}``: each game read, all problems reported at once, the result checked."""
    data = parse_json(text, platform)
    if not isinstance(data, dict):
        raise FormatError([f"not a {platform} document: not an object with a 'games' list"])
    unknown = sorted(set(data) - envelope)
    if unknown:
        raise FormatError([f"not a {platform} document: unknown key(s) {', '.join(map(repr, unknown))} at the top "
                           "level"])
    if "error" in data:
        raise FormatError([f"{platform} answered an error: {data['error']}"])
    games = data.get("games")
    if not isinstance(games, list):
        raise FormatError([f"not a {platform} document: no 'games' list"])
    if document_check is not None:
        document_check(data)
    problems: list[str] = []
    dropped: list[str] = []
    names: dict[str, str] = {}
    placed = [p for i, g in enumerate(games) if (p := read_one(g, i, ruleset, names, problems, dropped))]
    seen: dict[tuple[int, int, int], int] = {}
    for i, p in enumerate(placed):
        key = (p.stage_order, p.round, p.game.table)
        if key in seen:
            problems.append(f"{p.stage_id}, round {p.round}, table {p.game.table}: written twice")
        seen[key] = i
    if problems:
        raise FormatError(problems)
    return Imported(checked(assemble(ruleset, placed, names), platform), tuple(dropped))
