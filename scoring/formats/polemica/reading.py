"""Import: Polemica's game objects read into our games, every problem named by its place, then assembled into
stages and rounds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ... import gamelog
from ...model import ZERO, Game, Player, Role, Round, Seat, Side, Stage, Tournament
from ..base import FormatError
from .codes import (
    BONUS_KEYS,
    CODE_OF_ROLE,
    EXTRA_TEXT,
    GAME_MARKERS,
    GAME_READ,
    GUESS_KEYS,
    PLAYER_READ,
    POSITIONS,
    ROLE_OF_CODE,
    SHOT_KEYS,
    STAGE_TYPES,
    VOTE_KEYS,
    WINNER_OF_CODE,
    ZERO_VOTING,
)
from .play import Moment, Play, Vote, best_move_of, extra_of, log_of, name_id


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
