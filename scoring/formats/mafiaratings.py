"""mafiaratings.com's game JSON (docs/formats/mafiaratings.md): a tournament as the list of its games, as
``api/get/games.php?tournament_id=…`` answers it (szotin/mafiaratings, ``include/game.php`` ``Game::api_help``).

A whole-game format: each player's death (round and type), warnings, the don's and the sheriff's checks,
nominations, votes and shots. Its deaths and checks become our ``Game.log``; first kill and the mafia's missed
nights are derived from that log through ``scoring.gamelog``, as the judge's screen derives them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from .. import gamelog
from ..errors import InvalidTournament
from ..fileio import load
from ..filejson import dump
from ..model import (
    ROLE_SIDE,
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
from .base import Exported, FormatError, Imported, Platform, parse_json, register

NAME = "mafiaratings"
SOURCE = ("github.com/szotin/mafiaratings @ 0ab7207bdb17fadb92243f119dc356a95c99edad: include/game.php "
          "(Game::api_help, feature letters), api/get/games.php (the games list), js/src/game.js (the client "
          "that writes a game)")

SEATS = tuple(range(1, 11))  # "Array size is always 10": a player's index + 1 is their seat
ROLE_CODES = {Role.CIVILIAN: "civ", Role.SHERIFF: "sheriff", Role.MAFIA: "maf", Role.DON: "don"}
CODE_ROLES = {code: role for role, code in ROLE_CODES.items()}
WINNER_CODES = {Side.RED: "civ", Side.BLACK: "maf"}
CODE_WINNERS = {code: side for side, code in WINNER_CODES.items()}
# The answer's envelope (include/api.php) and the keys a game and a player may carry (include/game.php,
# js/src/game.js, api/ops/game.php, api/ops/imafia.php).
ENVELOPE_KEYS = frozenset({"games", "count", "version", "logged_in", "message", "error"})
GAME_KEYS = frozenset({"id", "version", "features", "clubId", "eventId", "tournamentId", "tableNum", "gameNum",
                       "language", "rules", "rating", "startTime", "endTime", "timezone", "winner", "moderator",
                       "players", "comment", "time", "streaming", "hideRoles", "obsScene"})
PLAYER_KEYS = frozenset({"id", "name", "role", "arranged", "death", "warnings", "techFouls", "don", "sheriff",
                         "bonus", "legacy", "comment", "voting", "nominating", "shooting", "record"})
REMOVALS = ("warnings", "techFouls", "kickOut", "teamKickOut", "giveUp")
DEATH_TYPES = ("day", "night", *REMOVALS)
NIGHT_TIMES = frozenset({"start", "arrangement", "relaxed sitting", "night start", "shooting", "don", "sheriff",
                         "night end"})
BONUS_TITLES = ("bestPlayer", "bestMove", "worstMove")
FEATURE_ORDER = "agsdutclihvknwro"  # Game::feature_flags_to_leters
# Our log's order within a phase: the kinds the import writes, then the seat (nominations and votes as written).
KIND_RANK = {"nominated": 0, "votes": 1, "voted_out": 2, "removed": 3, "killed": 4, "don_check": 5,
             "sheriff_check": 6, "heal": 7}


# ---- shared by this module and imafia: places, ids, numbers, assembling and checking a tournament ----------------

def where(stage: str, round_number: int, table: int) -> str:
    return f"stage {stage}, round {round_number}, table {table}"


def name_id(prefix: str, name: str) -> str:
    """A stable id for a player the document names but gives no id: the platform and a hash of the name."""
    return f"{prefix}-name-{hashlib.sha1(name.encode('utf-8')).hexdigest()[:12]}"


def platform_number(player_id: str, prefix: str) -> int | None:
    """The platform's own user id inside one of our ids that came from it (``mafiaratings-25`` → 25)."""
    head = f"{prefix}-"
    tail = player_id[len(head):]
    if player_id.startswith(head) and tail.isdigit() and not tail.startswith("0"):
        return int(tail)
    return None


def json_number(value: Fraction) -> int | float:
    """Points as the platform's JSON number: whole points as integers, others as the nearest float."""
    return int(value) if value.denominator == 1 else float(value)


def through_json(value: Fraction) -> Fraction:
    """What ``value`` reads back as after ``json_number``."""
    return Fraction(repr(json_number(value))) if value.denominator != 1 else value


def read_number(value: Any, at: str, problems: list[str]) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problems.append(f"{at}: {value!r} is not a number")
        return ZERO
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def in_order(events: Iterable[LogEvent]) -> tuple[LogEvent, ...]:
    """The log in one order for reading and for ``kept``: by phase, kind, then seat (nominations and votes keep
    the order they were written in)."""
    indexed = list(enumerate(events))

    def key(item: tuple[int, LogEvent]) -> tuple[int, int, int]:
        index, event = item
        tie = index if event.kind in ("nominated", "votes") else (event.seat or 0)
        return (event.phase, KIND_RANK.get(event.kind, 9), tie)

    return tuple(event for _, event in sorted(indexed, key=key))


@dataclass(frozen=True)
class Placed:
    """One game with where it goes: the stage's sort key and id, the round's number."""

    stage_order: int
    stage_id: str
    round: int
    game: Game


def assemble(ruleset: str, placed: Iterable[Placed], names: Mapping[str, str],
             nicknames: Mapping[str, str] | None = None) -> Tournament:
    """Our tournament from its games: stages, rounds and tables in order, players as they first sit down."""
    ordered = sorted(placed, key=lambda p: (p.stage_order, p.round, p.game.table))
    stages: dict[int, tuple[str, dict[int, list[Game]]]] = {}
    players: dict[str, None] = {}
    for item in ordered:
        stages.setdefault(item.stage_order, (item.stage_id, {}))[1].setdefault(item.round, []).append(item.game)
        players.update(dict.fromkeys(seat.player for seat in item.game.seats))
    nicknames = nicknames or {}
    return Tournament(
        ruleset=ruleset,
        players=tuple(Player(id=p, name=names[p], nickname=nicknames.get(p)) for p in players),
        stages=tuple(Stage(id=stage_id, rounds=tuple(Round(number=n, games=tuple(games))
                                                     for n, games in rounds.items()))
                     for stage_id, rounds in stages.values()))


def checked(tournament: Tournament, platform: str) -> Tournament:
    """The tournament our own file would accept, else ``FormatError`` with every problem found."""
    try:
        load(dump(tournament))
    except InvalidTournament as invalid:
        raise FormatError([f"the {platform} document does not make a valid {tournament.ruleset} tournament: "
                           f"{problem}" for problem in invalid.problems]) from None
    return tournament


def exportable_roles(game: Game) -> str | None:
    """Why the roles of this game cannot be written with the four roles both platforms know, or None."""
    for seat in game.seats:
        if seat.role not in ROLE_CODES:
            return f"{seat.role.value} at seat {seat.seat}"
        if seat.side is not None and seat.side is not ROLE_SIDE[seat.role]:
            return f"side {seat.side.value} at seat {seat.seat}"
    return None


def not_exportable(game: Game, platform: str) -> str | None:
    """Why the game cannot be one of the platform's games at all (10 seats, civ/sheriff/maf/don, civ or maf
    winning), or None. A game without a result may still go with its roles left out."""
    if sorted(seat.seat for seat in game.seats) != list(SEATS):
        return (f"seats {', '.join(str(s.seat) for s in game.seats)} ({platform} games have seats 1 to 10); "
                "the game is not written")
    if game.winner is Side.MANIAC:
        return f"winner maniac ({platform} knows civ and maf); the game is not written"
    why = exportable_roles(game) if game.winner is not None else None
    if why is not None:
        return f"{why} ({platform} knows civ, sheriff, maf, don only); the game is not written"
    return None


def tournament_losses(t: Tournament, platform: str, kept_players: Iterable[str]) -> list[str]:
    """What of the tournament as a whole no game of the platform holds."""
    lost: list[str] = []
    if t.info is not None:
        lost.append(f"tournament: name, city, dates and the app's extra keys ({platform} documents hold games only)")
    if t.params:
        lost.append(f"tournament: parameter overrides {', '.join(n for n, _ in t.params)} ({platform} has none)")
    if t.teams:
        lost.append(f"tournament: teams {', '.join(team.id for team in t.teams)} ({platform} has no teams)")
    seated = set(kept_players)
    unseated = [p.id for p in t.players if p.id not in seated]
    if unseated:
        lost.append(f"players {', '.join(unseated)}: sit in no game written ({platform} lists players in games only)")
    for p in t.players:
        if p.nickname is not None or p.team is not None or p.guest:
            lost.append(f"player {p.id}: nickname, team or guest mark ({platform} has a name only)")
    for stage in t.stages:
        if stage.name is not None or stage.kind is not None or stage.players is not None or stage.advance is not None \
                or stage.reset is not None or stage.multiplier is not None or stage.lots is not None:
            lost.append(f"stage {stage.id}: its name, kind, players, advancement, reset, multiplier and lots "
                        f"({platform} has none)")
        for round_ in stage.rounds:
            if round_.seating is not None or round_.byes or round_.absent or round_.penalties:
                lost.append(f"stage {stage.id}, round {round_.number}: seating method, byes, absences and "
                            f"penalties ({platform} has none)")
    return lost


def player_ids(t: Tournament, prefix: str) -> dict[str, str]:
    """Our player id → the id the platform's document reads back as: the platform's own id, or one from the
    name."""
    return {p.id: p.id if platform_number(p.id, prefix) is not None else name_id(prefix, p.name)
            for p in t.players}


# ---- mafiaratings: our game reduced to what its game JSON holds ----------------------------------------------------

@dataclass(frozen=True)
class Reduced:
    """A game as mafiaratings keeps it, in our model (players still ours), and what of it was lost."""

    game: Game
    lost: tuple[str, ...]
    roles_written: bool


def _death_round(event: LogEvent) -> int:
    """mafiaratings' round of a departure: day N is its round N − 1, night N its round N."""
    return event.phase // 2 if event.kind == "killed" or event.phase % 2 == 0 else (event.phase - 1) // 2


def reduce_game(game: Game, ruleset: str) -> Reduced:
    """Our game reduced to the facts its mafiaratings game holds (see the module's doc for each)."""
    lost: list[str] = []
    roles_written = game.winner is not None or exportable_roles(game) is None
    seats = list(game.seats)
    if not roles_written:
        lost.append(f"roles ({exportable_roles(game)}; {NAME} knows civ, sheriff, maf, don only): read back as civ")
        seats = [replace(s, role=Role.CIVILIAN, side=None) for s in seats]
    log: list[LogEvent] = []
    left: set[int] = set()
    checked_seats: set[tuple[str, int]] = set()
    dropped: dict[str, list[str]] = {}
    for event in game.log:
        kind, number = event.kind, event.seat
        if kind in gamelog.DEPARTURES and number is not None and number not in left:
            if kind == "killed" and (event.phase % 2 or event.phase < 2):
                dropped.setdefault("a kill by day", []).append(f"seat {number} in phase {event.phase}")
                continue
            if kind == "voted_out" and event.phase % 2 == 0:
                dropped.setdefault("a vote by night", []).append(f"seat {number} in phase {event.phase}")
                continue
            left.add(number)
            phase = event.phase + 1 if kind == "removed" and event.phase % 2 == 0 else event.phase
            log.append(LogEvent(kind, phase, number))
        elif kind in ("don_check", "sheriff_check") and number is not None and event.phase % 2 == 0 \
                and (kind, number) not in checked_seats:
            checked_seats.add((kind, number))
            log.append(LogEvent(kind, event.phase, number))
        else:
            dropped.setdefault(kind, []).append(f"phase {event.phase}" + (f" seat {number}" if number else ""))
    for kind, items in dropped.items():
        lost.append(f"log: {kind} ({', '.join(items)}) ({NAME} keeps each player's death and one check of each "
                    f"kind; nominations and votes only with who made them)")
    removed_by_night = [e.seat for e in game.log if e.kind == "removed" and e.phase % 2 == 0 and e.seat in left]
    if removed_by_night:
        lost.append(f"log: the night of the removal of seat(s) {', '.join(map(str, removed_by_night))} "
                    f"({NAME} writes the round only): read back as the next day")
    if game.first_killed is not None and game.first_killed not in left:
        left.add(game.first_killed)
        log.append(LogEvent("killed", 2, game.first_killed))
    kept_log = in_order(log)
    first_killed = gamelog.first_killed(kept_log)
    if first_killed != game.first_killed:
        lost.append(f"first killed {game.first_killed} (the log's departures say {first_killed})")
    best_move = game.best_move if first_killed == game.first_killed else ()
    if best_move != game.best_move:
        lost.append(f"best move {', '.join(map(str, game.best_move))} (left by the first killed only)")
    removed = {e.seat for e in kept_log if e.kind == "removed"}
    for seat in seats:
        if seat.removed and seat.seat not in removed:
            lost.append(f"seat {seat.seat}: removed ({NAME} writes a removal with its round, which only a game log "
                        "gives)")
    missed = game.winner is Side.RED and gamelog.mafia_missed_three_nights(kept_log)
    if missed != game.mafia_missed_three_nights:
        lost.append(f"mafia missed three nights: {game.mafia_missed_three_nights} ({NAME} has no such mark; "
                    f"the deaths it keeps say {missed})")
    days = gamelog.days_survived(kept_log, SEATS) if ruleset == "tomsk" and game.winner is not None else {}
    new_seats = []
    for seat in seats:
        extra = through_json(seat.extra)
        if extra != seat.extra:
            lost.append(f"seat {seat.seat}: extra {seat.extra} written as {json_number(seat.extra)}")
        if seat.subjective is not None:
            lost.append(f"seat {seat.seat}: subjective {seat.subjective} ({NAME} has no subjective points)")
        if seat.days_survived is not None and seat.days_survived != days.get(seat.seat):
            lost.append(f"seat {seat.seat}: days survived {seat.days_survived} (derived from the deaths instead)")
        new_seats.append(Seat(seat=seat.seat, player=seat.player, role=seat.role, fouls=seat.fouls,
                              removed=seat.seat in removed, extra=extra, best=seat.best,
                              days_survived=days.get(seat.seat)))
    if game.circles:
        lost.append(f"circles ({NAME} has no speech circles)")
    if game.protests:
        lost.append(f"protests of seat(s) {', '.join(str(p.seat) for p in game.protests)} ({NAME} has none)")
    kept = Game(table=game.table, seats=tuple(new_seats), winner=game.winner, first_killed=first_killed,
                best_move=best_move, mafia_missed_three_nights=missed, judge=game.judge, notes=game.notes,
                log=kept_log)
    return Reduced(kept, tuple(lost), roles_written)


def reductions(t: Tournament) -> tuple[list[tuple[int, Stage, int, Reduced]], list[str]]:
    """Every game written (stage position, stage, round, reduced game) and every line of what is lost."""
    out: list[tuple[int, Stage, int, Reduced]] = []
    lost: list[str] = []
    for index, stage in enumerate(t.stages):
        for round_ in stage.rounds:
            for game in round_.games:
                at = where(stage.id, round_.number, game.table)
                why = not_exportable(game, NAME)
                if why is not None:
                    lost.append(f"{at}: {why}")
                    continue
                reduced = reduce_game(game, t.ruleset)
                lost += [f"{at}: {line}" for line in reduced.lost]
                out.append((index + 1, stage, round_.number, reduced))
    return out, lost


def _with_ids(game: Game, ids: Mapping[str, str]) -> Game:
    return replace(game, seats=tuple(replace(s, player=ids[s.player]) for s in game.seats))


# ---- writing ---------------------------------------------------------------------------------------------------

def _player_json(seat: Seat, game: Game, player: Player, roles: bool) -> dict[str, Any]:
    out: dict[str, Any] = {}
    number = platform_number(player.id, NAME)
    if number is not None:
        out["id"] = number
    out["name"] = player.name
    if roles:
        out["role"] = ROLE_CODES[seat.role]
    if seat.fouls:
        out["warnings"] = seat.fouls
    for event in game.log:
        if event.seat == seat.seat and event.kind in gamelog.DEPARTURES:
            kind = {"voted_out": "day", "killed": "night"}.get(event.kind)
            if kind is None:
                kind = "warnings" if seat.fouls >= 4 else "kickOut"
            out["death"] = {"round": _death_round(event), "type": kind}
    for event in game.log:
        if event.seat == seat.seat and event.kind in ("don_check", "sheriff_check"):
            out[event.kind.removesuffix("_check")] = event.phase // 2
    bonus: list[Any] = []
    if seat.extra:
        bonus.append(json_number(seat.extra))
    if seat.best:
        bonus.append("bestPlayer")
    if bonus:
        out["bonus"] = bonus[0] if len(bonus) == 1 else bonus
    if game.best_move and seat.seat == game.first_killed:
        out["legacy"] = list(game.best_move)
    return out


def _features(game: Game) -> str:
    """The feature letters of what ``_player_json`` writes: mafiaratings' ``cleanup_features`` deletes every field
    whose letter is missing, so a game without a result names its warnings, deaths and checks too."""
    letters: set[str] = set()
    if game.winner is not None or any(s.fouls for s in game.seats):
        letters.add("w")  # a finished game: every player's warnings (0 where none is written)
    if game.winner is not None or any(e.kind in gamelog.DEPARTURES for e in game.log):
        letters.update("dut")  # every death with its round and type
    kinds = {e.kind for e in game.log}
    if game.best_move:
        letters.add("l")
    if "don_check" in kinds:
        letters.add("g")
    if "sheriff_check" in kinds:
        letters.add("s")
    return "".join(letter for letter in FEATURE_ORDER if letter in letters)


def game_json(event_id: int, round_number: int, reduced: Reduced, players: Mapping[str, Player]) -> dict[str, Any]:
    game = reduced.game
    out: dict[str, Any] = {"eventId": event_id, "gameNum": round_number, "tableNum": game.table,
                           "features": _features(game)}
    if game.winner is not None:
        out["winner"] = WINNER_CODES[game.winner]
    if game.judge is not None:
        out["moderator"] = {"name": game.judge}
    if game.notes is not None:
        out["comment"] = game.notes
    seats = sorted(game.seats, key=lambda s: s.seat)
    out["players"] = [_player_json(s, game, players[s.player], reduced.roles_written) for s in seats]
    return out


# ---- reading ---------------------------------------------------------------------------------------------------

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


def _read_game(raw: Any, index: int, ruleset: str, names: dict[str, str], problems: list[str],
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
               read_game: Callable[[Any, int, str, dict[str, str], list[str], list[str]], Placed | None],
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
    placed = [p for i, g in enumerate(games) if (p := read_game(g, i, ruleset, names, problems, dropped))]
    seen: dict[tuple[int, int, int], int] = {}
    for i, p in enumerate(placed):
        key = (p.stage_order, p.round, p.game.table)
        if key in seen:
            problems.append(f"{p.stage_id}, round {p.round}, table {p.game.table}: written twice")
        seen[key] = i
    if problems:
        raise FormatError(problems)
    return Imported(checked(assemble(ruleset, placed, names), platform), tuple(dropped))


@register
class MafiaRatings(Platform):
    """mafiaratings.com: the games of a tournament as its API lists them, each a whole game."""

    name = NAME
    title = "mafiaratings.com"
    source = SOURCE

    def export(self, tournament: Tournament) -> Exported:
        written, lost = reductions(tournament)
        players = tournament.players_by_id()
        games = [game_json(order, number, reduced, players) for order, _, number, reduced in written]
        ids = player_ids(tournament, NAME)
        kept_players = {s.player for _, _, _, r in written for s in r.game.seats}
        lost = tournament_losses(tournament, NAME, kept_players) + lost
        lost += [f"stage {stage.id}: its id (read back as event-{order}, the stage's place)"
                 for order, stage in {o: s for o, s, _, _ in written}.items() if stage.id != f"event-{order}"]
        lost += [f"player {pid}: its id (read back as {new}, from the name)" for pid, new in ids.items()
                 if pid != new and pid in kept_players]
        document = {"count": len(games), "games": games}
        return Exported(json.dumps(document, ensure_ascii=False, indent=1), tuple(lost))

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        return read_games(text, ruleset or self.default_ruleset, NAME, ENVELOPE_KEYS, _read_game)

    def kept(self, tournament: Tournament) -> Tournament:
        written, _ = reductions(tournament)
        ids = player_ids(tournament, NAME)
        names = {ids[p.id]: p.name for p in tournament.players}
        placed = [Placed(order, f"event-{order}", number, _with_ids(reduced.game, ids))
                  for order, _, number, reduced in written]
        return assemble(tournament.ruleset, placed, names)
