"""Import: gomafia's ``/api/tournament/get`` answer read into a draft, every problem named by its place.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import date
from fractions import Fraction
from typing import Any

from ...model import TournamentInfo
from ..base import FormatError
from .codes import (
    CODE_ROLES,
    CODE_WINS,
    GAME_KEYS,
    MAX_ID,
    NAME,
    PLAYER_KEYS,
    RESULT_KEYS,
    SEATS,
    TOURNAMENT_KEYS,
    id_from_login,
    unwire,
)
from .draft import Draft, Sitting, Table


class Reader:
    """Reads one document into a ``Draft``, collecting every problem with its place before refusing."""

    def __init__(self) -> None:
        self.problems: list[str] = []
        self.draft = Draft()
        self.names: dict[int, str] = {}  # gomafia id → the first login read for it

    def fail(self, where: str, text: str) -> None:
        self.problems.append(f"{where}: {text}")

    def integer(self, obj: Mapping[str, Any], key: str, where: str, *, required: bool = True) -> int | None:
        value = obj.get(key)
        if value is None:
            if required:
                self.fail(f"{where}.{key}", "missing")
            return None
        if isinstance(value, str) and re.fullmatch(r"[0-9]{1,18}", value.strip()):
            return int(value)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        self.fail(f"{where}.{key}", f"{json.dumps(value, ensure_ascii=False)} is not a whole number")
        return None

    def text(self, obj: Mapping[str, Any], key: str, where: str) -> str | None:
        value = obj.get(key)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            return value
        self.fail(f"{where}.{key}", f"{json.dumps(value, ensure_ascii=False)} is not text")
        return None

    def unknown(self, obj: Mapping[str, Any], known: frozenset[str], where: str) -> None:
        extra = sorted(key for key in obj if key not in known)
        if extra:
            self.draft.dropped.append(f"{where}: {', '.join(extra)}: keys gomafia-library does not define, not read")

    def read(self, data: Any) -> Draft:
        if not isinstance(data, dict):
            raise FormatError([f"not a {NAME} document: the top level is {kind(data)}, not gomafia's "
                               f"{{\"data\": {{\"tournament\": ..., \"games\": [...]}}}}"])
        body = data.get("data")
        if not isinstance(body, dict) or not isinstance(body.get("games"), list) \
                or not isinstance(body.get("tournament"), dict):
            raise FormatError([f"not a {NAME} document: no data.tournament object and data.games list "
                               f"(top-level keys: {', '.join(sorted(data)) or 'none'})"])
        self.unknown(data, frozenset({"data"}), "the document")
        self.unknown(body, frozenset({"tournament", "games", "tournament_result"}), "data")
        self.tournament(body["tournament"])
        seen: dict[int, int] = {}
        for i, entry in enumerate(body["games"]):
            self.game_number(entry, i, seen)
        results = body.get("tournament_result")
        if results is not None:
            self.results(results)
        if self.problems:
            raise FormatError(self.problems)
        self.draft.rounds.sort(key=lambda item: item[0])
        return self.draft

    def tournament(self, obj: dict[str, Any]) -> None:
        where = "data.tournament"
        self.unknown(obj, TOURNAMENT_KEYS, where)
        name, city = self.text(obj, "title", where), self.text(obj, "city", where)
        starts, ends = (self.date(obj, key, where) for key in ("date_start", "date_end"))
        info = TournamentInfo(name=name, city=city, starts=starts, ends=ends)
        self.draft.info = None if info == TournamentInfo() else info
        rest = [f"{key} {json.dumps(obj[key], ensure_ascii=False)}" for key in sorted(TOURNAMENT_KEYS & set(obj))
                if key not in ("title", "city", "date_start", "date_end") and obj[key] not in (None, "")]
        if rest:
            self.draft.dropped.append(f"{where}: {', '.join(rest)}: not in our model, not read")

    def date(self, obj: Mapping[str, Any], key: str, where: str) -> str | None:
        value = self.text(obj, key, where)
        if value is None:
            return None
        try:
            return date.fromisoformat(value[:10]).isoformat()
        except ValueError:
            self.draft.dropped.append(f"{where}.{key}: {value!r} is not a date, not read")
            return None

    def game_number(self, entry: Any, index: int, seen: dict[int, int]) -> None:
        where = f"data.games[{index}]"
        if not isinstance(entry, dict):
            self.fail(where, f"{kind(entry)}, not an object {{gameNum, game}}")
            return
        self.unknown(entry, frozenset({"gameNum", "game"}), where)
        number = self.integer(entry, "gameNum", where)
        tables = entry.get("game")
        if tables is None:
            self.fail(f"{where}.game", "missing")
            return
        if not isinstance(tables, list):
            self.fail(f"{where}.game", f"{kind(tables)}, not a list of tables")
            return
        if number is None:
            return
        if number < 1:
            self.fail(f"{where}.gameNum", f"{number}: game numbers start at 1")
            return
        if number in seen:
            self.fail(f"{where}.gameNum", f"game {number} again (also data.games[{seen[number]}])")
            return
        seen[number] = index
        read: list[Table] = []
        at_table: dict[str, int] = {}
        for j, obj in enumerate(tables):
            table = self.table(obj, f"{where}.game[{j}]", number, at_table)
            if table is not None:
                if any(t.table == table.table for t in read):
                    self.fail(f"{where}.game[{j}].tableNum", f"table {table.table} twice in game {number}")
                    continue
                read.append(table)
        self.draft.rounds.append((number, read))

    def table(self, obj: Any, where: str, number: int, at_table: dict[str, int]) -> Table | None:
        if not isinstance(obj, dict):
            self.fail(where, f"{kind(obj)}, not a table object")
            return None
        self.unknown(obj, GAME_KEYS, where)
        table = self.integer(obj, "tableNum", where)
        seats = obj.get("table")
        if seats is None:
            self.fail(f"{where}.table", "missing")
            return None
        if not isinstance(seats, list):
            self.fail(f"{where}.table", f"{kind(seats)}, not a list of seats")
            return None
        if not seats:
            self.fail(f"{where}.table", "no seats")
            return None
        if table is not None and table < 1:
            self.fail(f"{where}.tableNum", f"{table}: tables start at 1")
            table = None
        win = self.text(obj, "win", where)
        winner = None
        if win is not None:
            winner = CODE_WINS.get(win)
            if winner is None:
                self.fail(f"{where}.win", f"unknown result {win!r} (gomafia's are {', '.join(CODE_WINS)})")
        judge = self.text(obj, "referee", where)
        game_num = obj.get("game_num")
        if game_num is not None and game_num != number:
            self.draft.dropped.append(f"{where}.game_num: {json.dumps(game_num)} differs from gameNum {number}, "
                                      f"not read")
        name = f"game {number}, table {table}"
        rest = sorted(key for key in ("referee_is_paid", "referee_icon_type", "referee_icon")
                      if obj.get(key) not in (None, ""))
        if rest:
            self.draft.dropped.append(f"{name}: {', '.join(rest)}: the judge's badges, not read")
        sittings: list[Sitting] = []
        by_seat: dict[int, str] = {}
        by_player: dict[str, int] = {}
        badges: set[str] = set()
        for k, seat_obj in enumerate(seats):
            sitting = self.sitting(seat_obj, f"{where}.table[{k}]", winner is not None or win is not None, badges)
            if sitting is None:
                continue
            place_at = f"{where}.table[{k}]"
            if sitting.seat in by_seat:
                self.fail(f"{place_at}.place", f"seat {sitting.seat} twice at the table")
                continue
            if sitting.player in by_player:
                self.fail(place_at, f"player {sitting.login!r} ({sitting.player}) twice at the table "
                                    f"(seats {by_player[sitting.player]} and {sitting.seat})")
                continue
            if sitting.player in at_table and table is not None:
                self.fail(place_at, f"player {sitting.login!r} ({sitting.player}) also at table "
                                    f"{at_table[sitting.player]} in game {number}")
                continue
            by_seat[sitting.seat] = sitting.player
            by_player[sitting.player] = sitting.seat
            if table is not None:
                at_table[sitting.player] = table
            sittings.append(sitting)
        if badges:
            self.draft.dropped.append(f"{name}: {', '.join(sorted(badges))} of the seats: gomafia's rating and "
                                      f"badges, not read")
        if table is None:
            return None
        return Table(table, winner, judge, tuple(sittings), name)

    def sitting(self, obj: Any, where: str, has_result: bool, badges: set[str]) -> Sitting | None:
        if not isinstance(obj, dict):
            self.fail(where, f"{kind(obj)}, not a player object")
            return None
        self.unknown(obj, PLAYER_KEYS, where)
        badges.update(key for key in ("type", "eloDelta", "elo", "isPaid", "icon", "iconType")
                      if obj.get(key) not in (None, ""))
        seat = self.integer(obj, "place", where)
        if seat is not None and seat not in SEATS:
            self.fail(f"{where}.place", f"seat {seat} (gomafia's tables have seats 1-10)")
            seat = None
        user = self.integer(obj, "id", where, required=False)
        login = self.text(obj, "login", where)
        if login is None:
            self.fail(f"{where}.login", "missing")
        elif not login.strip():
            self.fail(f"{where}.login", "blank")
            login = None
        code = self.text(obj, "role", where)
        role = None
        if code is not None:
            role = CODE_ROLES.get(code)
            if role is None:
                self.fail(f"{where}.role", f"unknown role code {code!r} (gomafia's are {', '.join(CODE_ROLES)})")
        elif has_result:
            self.fail(f"{where}.role", "missing in a game with a result")
        points = self.points(obj, where)
        if seat is None or login is None or (code is not None and role is None):
            return None
        if user is not None:
            if user < 1:
                self.fail(f"{where}.id", f"{user}: gomafia's ids start at 1")
                return None
            if user > MAX_ID:
                self.fail(f"{where}.id", f"{user}: past gomafia's largest id {MAX_ID} (PlayerDto.id is a 32-bit Int)")
                return None
            pid = f"gomafia-{user}"
            login = self.names.setdefault(user, login)
        else:
            pid = id_from_login(login)
        self.draft.players.setdefault(pid, login)
        return Sitting(seat, pid, login, role, points)

    def points(self, obj: Mapping[str, Any], where: str) -> Fraction | None:
        value = obj.get("points")
        if value is None:
            return None
        if isinstance(value, str):
            try:
                number: int | float = json.loads(value.strip())
            except ValueError:
                number = float("nan")
            value = number
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value \
                or value in (float("inf"), float("-inf")) or abs(value) > 1000:
            self.fail(f"{where}.points", f"{json.dumps(obj.get('points'), ensure_ascii=False)} is not a number of "
                                         f"points")
            return None
        return unwire(value)

    def results(self, results: Any) -> None:
        where = "data.tournament_result"
        if not isinstance(results, list):
            self.fail(where, f"{kind(results)}, not a list")
            return
        logins = set(self.draft.players.values())
        for i, row in enumerate(results):
            if not isinstance(row, dict):
                self.fail(f"{where}[{i}]", f"{kind(row)}, not an object")
                continue
            self.unknown(row, RESULT_KEYS, f"{where}[{i}]")
            login = self.text(row, "login", f"{where}[{i}]")
            if login is not None and login.strip() and login not in logins:
                self.draft.players.setdefault(id_from_login(login), login)
                logins.add(login)
        if results:
            self.draft.dropped.append(f"{where}: {len(results)} players' tournament totals (place, sum, wins, "
                                      f"Ci, extra points, first kills ...): our standings compute them from the "
                                      f"games, not read")


def kind(value: Any) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, str):
        return "text"
    return "a number"
