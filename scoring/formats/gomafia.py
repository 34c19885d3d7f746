"""gomafia.pro (the ФСМ rating): a tournament as gomafia's ``/api/tournament/get`` answers it (docs/formats/gomafia.md).

The shape is the one the public gomafia-library reads (github.com/Vyasma-Mafia/gomafia-library, commit 4c19b01):
``{"data": {"tournament": TournamentDto, "games": [{"gameNum": n, "game": [GameDto, ...]}, ...]}}``, a GameDto
``{tableNum, table: [PlayerDto], win, referee, ...}``, a PlayerDto ``{place, id, login, role, points, ...}``. The
role codes (``red``, ``sheriff``, ``mafia``, ``don``) and the mafia's win ``"mafia"`` are those the overlay of the
same organisation compares with (github.com/Vyasma-Mafia/overlay, CommandLineRunnerImpl.kt, commit 2bc30cc).

gomafia holds a game as its seats, roles, result, judge and each seat's points as one number; nothing else of a
game (no fouls, log, first kill, best move), no stages (games are numbered through the tournament) and players only
by their gomafia id and login. So a seat's points come back as the result's points plus, where the ruleset allows
that many, extra points; everything else is named in ``lost`` on export and ``dropped`` on import.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from ..errors import InvalidTournament
from ..fileio import load
from ..filejson import dump
from ..model import ZERO, Game, Player, Role, Round, Seat, Side, Stage, Tournament, TournamentInfo
from ..numbers import format_number
from ..rulesets import Ruleset, get_ruleset
from ..tally import StageScoring
from ..validation import ruleset_for
from .base import Exported, FormatError, Imported, Platform, parse_json, register

NAME = "gomafia"
SEATS = range(1, 11)  # gomafia's tables are the ФСМ's tables of ten
STAGE_ID = "gomafia"  # gomafia has no stages: its games become one stage of this id
MAX_ID = 2**31 - 1  # PlayerDto.id is a Kotlin Int: gomafia's ids go no further

ROLE_CODES: dict[Role, str] = {Role.CIVILIAN: "red", Role.SHERIFF: "sheriff", Role.MAFIA: "mafia", Role.DON: "don"}
CODE_ROLES: dict[str, Role] = {code: role for role, code in ROLE_CODES.items()}
# The public code tests ``win == "mafia"`` only and takes anything else for the city's win; ``"red"`` is the city's
# word in the role codes, so we write it and read only these two (docs/formats/gomafia.md, "Interpretations").
WIN_CODES: dict[Side, str] = {Side.BLACK: "mafia", Side.RED: "red"}
CODE_WINS: dict[str, Side] = {code: side for side, code in WIN_CODES.items()}

# The keys the DTOs define, by object; the ones we read are named where they are read.
TOURNAMENT_KEYS = frozenset({
    "id", "title", "date_start", "date_end", "country", "city", "type", "status", "registration_discussion_link",
    "chat_link", "vk_group_link", "main_referee_id", "user_organizer_id", "contribution_currency",
    "contribution_amount", "projected_count_of_participant", "is_hidden_result", "is_fsm_rating", "star",
    "type_translate", "status_translate", "country_translate", "city_translate", "contribution_currency_translate",
    "elo_average", "total_rows"})
GAME_KEYS = frozenset({"tableNum", "table", "win", "referee", "referee_is_paid", "referee_icon_type",
                       "referee_icon", "game_num"})
PLAYER_KEYS = frozenset({"place", "id", "login", "role", "points", "type", "eloDelta", "elo", "isPaid", "icon",
                         "iconType"})
RESULT_KEYS = frozenset({"compensation_point", "extra_point", "fine", "first_kill", "first_kill_point",
                         "global_game", "icon", "icon_type", "is_paid", "login", "place", "sum", "sum_extra", "win",
                         "win_as_don", "win_as_sheriff"})

CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
                     "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"], strict=True))


# --- the reading's intermediate: what a gomafia document says, before it becomes our tournament ---------------


@dataclass(frozen=True)
class Sitting:
    """One PlayerDto: the seat, our player id, the login, the role (None: not written) and the points."""

    seat: int
    player: str
    login: str
    role: Role | None
    points: Fraction | None


@dataclass(frozen=True)
class Table:
    """One GameDto."""

    table: int
    winner: Side | None
    judge: str | None
    sittings: tuple[Sitting, ...]
    where: str  # how ``dropped`` names it: "game 3, table 2"


@dataclass
class Draft:
    """Everything a gomafia document holds that becomes our tournament, and what it holds beyond it."""

    info: TournamentInfo | None = None
    rounds: list[tuple[int, list[Table]]] = field(default_factory=list)
    players: dict[str, str] = field(default_factory=dict)  # our id → the login, in order of appearance
    dropped: list[str] = field(default_factory=list)


def gomafia_id(player_id: str) -> int | None:
    """The gomafia user id an imported player's id carries (``gomafia-1234``, at most ``MAX_ID``), else None."""
    found = re.fullmatch(r"gomafia-([1-9][0-9]{0,17})", player_id)
    return int(found.group(1)) if found and int(found.group(1)) <= MAX_ID else None


def too_big(player_id: str) -> bool:
    """An id of gomafia's shape whose number no gomafia id can be (past ``MAX_ID``)."""
    found = re.fullmatch(r"gomafia-([1-9][0-9]*)", player_id)
    return found is not None and int(found.group(1)) > MAX_ID


def id_from_login(login: str) -> str:
    """A stable id for a player gomafia gives no id for: the login in Latin letters, and a hash of it so that
    two logins never share an id."""
    letters = []
    for char in unicodedata.normalize("NFC", login):
        lower = char.lower()
        if lower in CYRILLIC:
            latin = CYRILLIC[lower]
            letters.append(latin.capitalize() if char != lower else latin)
        elif char.isascii() and (char.isalnum() or char in "_.-"):
            letters.append(char)
        else:
            letters.append("-")
    slug = re.sub(r"-{2,}", "-", "".join(letters)).strip("-.")[:40] or "player"
    return f"name-{slug}-{hashlib.sha1(login.encode()).hexdigest()[:8]}"


def login_of(player: Player) -> str:
    """gomafia knows a player by one login: the nickname where we have one, else the name."""
    return player.nickname or player.name


def wire(points: Fraction) -> int | float:
    """Points as the JSON number written (gomafia's BigDecimal)."""
    return points.numerator if points.denominator == 1 else float(points)


def unwire(value: int | float) -> Fraction:
    """The number read back exactly as written: a float by its shortest decimal form."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


# --- building our tournament (both ``read`` and ``kept`` end here) ---------------------------------------------


def build(draft: Draft, ruleset_id: str) -> tuple[Tournament, list[str]]:
    """Our tournament from a draft under ``ruleset_id`` (its default parameters: gomafia writes none), and the
    points it could not read as the result's points plus extra points."""
    ruleset = get_ruleset(ruleset_id)()
    notes: list[str] = []
    rounds = []
    for number, tables in draft.rounds:
        games = []
        for table in tables:
            game, said = points_to_extras(ruleset, table)
            games.append(game)
            notes += said
        rounds.append(Round(number=number, games=tuple(games)))
    stages = (Stage(id=STAGE_ID, rounds=tuple(rounds)),) if rounds else ()
    players = tuple(Player(id=pid, name=login) for pid, login in draft.players.items())
    return Tournament(ruleset=ruleset_id, players=players, stages=stages, info=draft.info), notes


def points_to_extras(ruleset: Ruleset, table: Table) -> tuple[Game, list[str]]:
    """The game of one table, each seat's points read as the result's points plus extra points where the ruleset
    allows that extra (values by result, how many players, the total); else the points are named as not read."""
    seats = tuple(Seat(seat=s.seat, player=s.player, role=s.role or Role.CIVILIAN) for s in table.sittings)
    game = Game(table=table.table, seats=seats, winner=table.winner, judge=table.judge)
    if game.winner is None:
        return game, [f"{table.where}, seat {s.seat}: points {format_number(s.points)} of a game without a result"
                      for s in table.sittings if s.points is not None]
    p = ruleset.params
    extras: dict[int, Fraction] = {}
    notes = []
    for sitting, seat in zip(table.sittings, seats, strict=True):
        if sitting.points is None:
            continue
        base = ruleset.seat_points(game, seat).total
        extra = sitting.points - base
        if extra == 0:
            continue
        allowed = p.extra_values_winner if game.won(seat) else p.extra_values_loser
        if p.extra_max_players and extra in allowed:
            extras[seat.seat] = extra
        else:
            notes.append(f"{table.where}, seat {seat.seat}: points {format_number(sitting.points)}: {ruleset.id} "
                         f"gives {format_number(base)} for the result and no extra points of "
                         f"{format_number(extra)} there: read as {format_number(base)}")
    total = sum(extras.values(), ZERO)
    if len(extras) > p.extra_max_players or (p.extra_total_max is not None and total > p.extra_total_max):
        notes.append(f"{table.where}: extra points {format_number(total)} for {len(extras)} players, more than "
                     f"{ruleset.id} gives in one game: not read")
        extras = {}
    if extras:
        game = Game(table=game.table, winner=game.winner, judge=game.judge,
                    seats=tuple(Seat(seat=s.seat, player=s.player, role=s.role, extra=extras.get(s.seat, ZERO))
                                for s in seats))
    return game, notes


# --- the export's view of our tournament ---------------------------------------------------------------------


def place(stage: Stage, round_: Round, game: Game | None = None) -> str:
    where = f"stage {stage.id}, round {round_.number}"
    return where if game is None else f"{where}, table {game.table}"


def unwritable(game: Game) -> str | None:
    """Why gomafia cannot hold this game (then it is left out), else None."""
    outside = sorted(s.seat for s in game.seats if s.seat not in SEATS)
    if outside:
        return f"seats {', '.join(map(str, outside))} (gomafia's tables have seats 1-10)"
    if game.winner is not None:
        if game.winner not in WIN_CODES:
            return f"winner {game.winner.value} (gomafia's results are the city's or the mafia's win)"
        roles = sorted({s.role.value for s in game.seats if s.role not in ROLE_CODES})
        if roles:
            return f"role {', '.join(roles)} (gomafia's roles are red, sheriff, mafia and don)"
        sides = sorted(str(s.seat) for s in game.seats if s.side is not None and s.side is not s.effective_side)
        if sides:  # a role's own side given otherwise; validation refuses it, so never seen in a valid file
            return f"seats {', '.join(sides)} on another side than their role's"
    return None


@dataclass(frozen=True)
class Written:
    """One game as gomafia holds it, with each seat's points (None without a result)."""

    stage: Stage
    round: Round
    game: Game
    points: dict[int, Fraction | None]
    parts: dict[int, dict[str, Fraction]]  # each seat's parts of its points beyond the result's (win, loss, role)


def written_games(t: Tournament) -> list[tuple[int, Stage, Round, list[Written]]]:
    """Each of our rounds as a gomafia game number, and the games of it gomafia can hold, with their points under
    the tournament's ruleset and parameters (the stage's multiplier left out: gomafia's points are a game's)."""
    ruleset, _ = ruleset_for(t)
    scoring = StageScoring(t, ruleset)
    out = []
    number = 0
    for stage in t.stages:
        for round_ in stage.rounds:
            number += 1
            games = []
            for game in round_.games:
                if unwritable(game) is not None:
                    continue
                points: dict[int, Fraction | None] = {}
                parts: dict[int, dict[str, Fraction]] = {}
                for seat in game.seats:
                    if not game.has_result:
                        points[seat.seat] = None
                        continue
                    scored = scoring.score_seat(stage, round_.number, game, seat).points
                    points[seat.seat] = unwire(wire(scored.total))
                    parts[seat.seat] = {name: value for name, value in scored.parts().items()
                                        if name not in ("win", "loss", "role")}
                games.append(Written(stage, round_, game, points, parts))
            out.append((number, stage, round_, games))
    return out


def player_ids(t: Tournament) -> dict[str, str]:
    """Our player id → the id it reads back as: ``gomafia-N`` stays, any other from the login."""
    return {p.id: p.id if gomafia_id(p.id) is not None else id_from_login(login_of(p)) for p in t.players}


def draft_of(t: Tournament, written: list[tuple[int, Stage, Round, list[Written]]] | None = None) -> Draft:
    """What a gomafia document made from ``t`` holds, in the reading's terms."""
    players = t.players_by_id()
    ids = player_ids(t)
    draft = Draft(info=info_kept(t.info))
    for number, _stage, _round, games in written if written is not None else written_games(t):
        tables = []
        for w in games:
            sittings = []
            for seat in w.game.seats:
                login = login_of(players[seat.player]) if seat.player in players else seat.player
                pid = ids.get(seat.player, id_from_login(login))
                draft.players.setdefault(pid, login)
                role = seat.role if seat.role in ROLE_CODES else None
                sittings.append(Sitting(seat.seat, pid, login, role, w.points[seat.seat]))
            tables.append(Table(w.game.table, w.game.winner, w.game.judge or None, tuple(sittings), ""))
        draft.rounds.append((number, tables))
    return draft


def info_kept(info: TournamentInfo | None) -> TournamentInfo | None:
    if info is None:
        return None
    kept = TournamentInfo(name=info.name or None, city=info.city or None, starts=info.starts, ends=info.ends)
    return None if kept == TournamentInfo() else kept


# --- the export's ``lost`` -------------------------------------------------------------------------------------


def lost_lines(t: Tournament) -> list[str]:
    """Everything of ``t`` the gomafia document does not hold, one line per kind and place."""
    lines: list[str] = []
    if t.params:
        lines.append(f"params {', '.join(name for name, _ in t.params)}: gomafia holds no regulation's parameters "
                     f"(read back with {t.ruleset}'s defaults)")
    if t.info is not None:
        info = t.info
        for what, value in (("venue", info.venue), ("standings hidden", info.standings_hidden)):
            if value is not None:
                lines.append(f"tournament {what}: {value} (not written)")
        if info.other:
            lines.append(f"tournament {', '.join(key for key, _ in info.other)}: not written")
    if t.teams:
        lines.append(f"teams {', '.join(team.name for team in t.teams)}: gomafia's tournament has no teams")
    lines += player_lines(t)
    lines += stage_lines(t)
    written = written_games(t)
    back = build(draft_of(t, written), t.ruleset)[0]
    read_back = {(r.number, g.table): g for stage in back.stages for r in stage.rounds for g in r.games}
    for number, stage, round_, games in written:
        lines += round_lines(stage, round_)
        by_table = {w.game.table: w for w in games}
        for game in round_.games:
            why = unwritable(game)
            if why is not None:
                lines.append(f"{place(stage, round_, game)}: left out: {why}")
            else:
                lines += game_lines(stage, round_, by_table[game.table], read_back[(number, game.table)])
    return lines


def player_lines(t: Tournament) -> list[str]:
    lines = []
    seated = {seat.player for _, _, _, games in written_games(t) for w in games for seat in w.game.seats}
    for p in t.players:
        said = []
        if p.nickname and p.nickname != p.name:
            said.append(f"name {p.name!r} (written as the login {p.nickname!r})")
        if p.team is not None:
            said.append(f"team {p.team}")
        if p.guest:
            said.append("guest")
        if p.id not in seated:
            said.append("in no game gomafia holds, so not written at all")
        if said:
            lines.append(f"player {p.id}: {', '.join(said)}")
    lines += [f"player {p.id}: its id, past gomafia's largest ({MAX_ID}: PlayerDto.id is a 32-bit Int), written "
              f"as id null with the login, read back as {id_from_login(login_of(p))}"
              for p in t.players if p.id in seated and too_big(p.id)]
    renamed = [p.id for p in t.players if p.id in seated and gomafia_id(p.id) is None and not too_big(p.id)
               and p.id != id_from_login(login_of(p))]
    if renamed:
        lines.append(f"player ids {', '.join(renamed)}: gomafia holds only its own user ids (gomafia-N), so these "
                     f"read back as ids made from the logins")
    logins: dict[str, list[str]] = {}
    for p in t.players:
        if gomafia_id(p.id) is None:
            logins.setdefault(login_of(p), []).append(p.id)
    lines += [f"players {', '.join(ids)}: the same login {login!r}, so one player when read back"
              for login, ids in logins.items() if len(ids) > 1]
    return lines


def stage_lines(t: Tournament) -> list[str]:
    lines = []
    if len(t.stages) > 1 or any(s.id != STAGE_ID for s in t.stages):
        runs = []
        number = 0
        for stage in t.stages:
            if stage.rounds:
                first, last = number + 1, number + len(stage.rounds)
                runs.append(f"{stage.id} as game {first}" if first == last else f"{stage.id} as games {first}-{last}")
            number += len(stage.rounds)
        lines.append(f"stages {', '.join(s.id for s in t.stages)}: gomafia numbers the games through the tournament "
                     f"({'; '.join(runs) or 'no games'}), read back as one stage {STAGE_ID}")
    for stage in t.stages:
        advance = stage.advance and f"{stage.advance.mode} {stage.advance.count}"
        said = [f"{what} {value}" for what, value in (
            ("name", stage.name), ("kind", stage.kind and stage.kind.value), ("advance", advance),
            ("reset", stage.reset), ("multiplier", stage.multiplier and format_number(stage.multiplier)),
            ("lots", stage.lots and ", ".join(stage.lots)), ("players", stage.players and len(stage.players)))
            if value is not None]
        if said:
            lines.append(f"stage {stage.id}: {'; '.join(said)} (gomafia has no stages)")
    return lines


def round_lines(stage: Stage, round_: Round) -> list[str]:
    lines = []
    where = place(stage, round_)
    if round_.seating is not None:
        lines.append(f"{where}: seating method {round_.seating.value} (not written)")
    if round_.byes:
        lines.append(f"{where}: byes {', '.join(round_.byes)} (gomafia has no byes)")
    if round_.absent:
        lines.append(f"{where}: absent {', '.join(round_.absent)} (gomafia has no absences)")
    for penalty in round_.penalties:
        lines.append(f"{where}: penalty {format_number(penalty.points)} for {penalty.player} "
                     f"(gomafia's games hold no penalties)")
    return lines


def seats_text(pairs: Iterable[tuple[int, object]]) -> str:
    return ", ".join(f"{seat}: {value}" for seat, value in pairs)


def game_lines(stage: Stage, round_: Round, w: Written, back: Game) -> list[str]:
    """What one written game loses; ``back`` is the game as it reads back."""
    game, where = w.game, place(stage, round_, w.game)
    lines = []

    def say(what: str, pairs: Sequence[tuple[int, object]], why: str) -> None:
        if pairs:
            lines.append(f"{where}: {what} {seats_text(pairs)} ({why})")

    if game.winner is None:
        say("roles", [(s.seat, s.role.value) for s in game.seats if s.role not in ROLE_CODES],
            "no gomafia role code; read back as civilians")
    say("fouls", [(s.seat, s.fouls) for s in game.seats if s.fouls], "gomafia has no fouls")
    say("removed", [(s.seat, "yes") for s in game.seats if s.removed], "gomafia has no removals")
    say("named best", [(s.seat, "yes") for s in game.seats if s.best], "gomafia has no best player of a game")
    say("days survived", [(s.seat, s.days_survived) for s in game.seats if s.days_survived is not None],
        "gomafia has no days survived")
    say("subjective", [(s.seat, format_number(s.subjective)) for s in game.seats if s.subjective is not None],
        "gomafia has no jury's marks")
    facts = [(what, value) for what, value in (
        ("first killed", game.first_killed), ("best move", game.best_move and ", ".join(map(str, game.best_move))),
        ("circles", game.circles and len(game.circles)),
        ("mafia missed three nights", game.mafia_missed_three_nights or None),
        ("judge's log", game.log and f"{len(game.log)} events"), ("notes", game.notes),
        ("protests", game.protests and len(game.protests))) if value]
    if facts:
        lines.append(f"{where}: {'; '.join(f'{what} {value}' for what, value in facts)} (gomafia's game has none "
                     f"of these)")
    if game.has_result:
        parts = []
        for seat in game.seats:
            own = w.parts.get(seat.seat, {})
            seat_back = back.seat_at(seat.seat)
            extra = seat_back.extra if seat_back is not None else ZERO
            if own != ({"extra": extra} if extra else {}):
                parts.append(f"{seat.seat}: {format_number(w.points[seat.seat] or ZERO)} = result"
                             + "".join(f" + {name.replace('_', ' ')} {format_number(v)}" for name, v in own.items())
                             + f", read back as result + extra {format_number(extra)}")
        if parts:
            lines.append(f"{where}: points written as one number a seat ({'; '.join(parts)})")
    return lines


# --- reading a gomafia document -----------------------------------------------------------------------------


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


# --- the platform --------------------------------------------------------------------------------------------


@register
class Gomafia(Platform):
    """gomafia.pro's tournament document: seats, roles, results, judges and each seat's points, game by game."""

    name = NAME
    title = "gomafia.pro"
    source = ("github.com/Vyasma-Mafia/gomafia-library@4c19b0125075503cb510414f04793cfcae2cfa92: "
              "src/main/kotlin/io/github/mralex1810/gomafia/GomafiaRestClient.kt (getTournament), "
              "dto/TournamentDto.kt, dto/GameDto.kt, dto/PlayerDto.kt, dto/TournamentResultDto.kt; role and result "
              "codes: github.com/Vyasma-Mafia/overlay@2bc30cc49ec2d1971a399356179715d452e5e92d: "
              "src/main/kotlin/com/stoum/overlay/CommandLineRunnerImpl.kt")
    # ФСМ tournaments play tables of ten with 1 don, 2 mafia, 1 sheriff and rank by wins, wins as don and as
    # sheriff and first kills, the columns of gomafia's results: fiim's table and tie-breaks (docs/formats/gomafia.md).
    default_ruleset = "fiim"

    def export(self, tournament: Tournament) -> Exported:
        players = tournament.players_by_id()
        games = []
        for number, _stage, _round, written in written_games(tournament):
            tables = []
            for w in written:
                seats = []
                for seat in w.game.seats:
                    player = players.get(seat.player)
                    points = w.points[seat.seat]
                    seats.append({
                        "place": seat.seat,
                        "id": gomafia_id(seat.player),
                        "login": login_of(player) if player is not None else seat.player,
                        "role": ROLE_CODES.get(seat.role),
                        "points": None if points is None else wire(points),
                    })
                table: dict[str, Any] = {"tableNum": w.game.table, "table": seats,
                                         "win": WIN_CODES.get(w.game.winner) if w.game.winner else None}
                if w.game.judge:
                    table["referee"] = w.game.judge
                tables.append(table)
            games.append({"gameNum": number, "game": tables})
        info = tournament.info or TournamentInfo()
        head = {key: value for key, value in (("title", info.name), ("city", info.city),
                                              ("date_start", info.starts), ("date_end", info.ends)) if value}
        document = {"data": {"tournament": head, "games": games}}
        return Exported(json.dumps(document, ensure_ascii=False, indent=1), tuple(lost_lines(tournament)))

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        ruleset_id = ruleset or self.default_ruleset
        try:
            get_ruleset(ruleset_id)
        except KeyError as error:
            raise FormatError([str(error.args[0])]) from None
        draft = Reader().read(parse_json(text, NAME))
        tournament, notes = build(draft, ruleset_id)
        try:
            load(dump(tournament))
        except InvalidTournament as invalid:
            raise FormatError([f"the {NAME} document is not a valid {ruleset_id} tournament: {problem}"
                               for problem in invalid.problems]) from None
        return Imported(tournament, tuple(draft.dropped + notes))

    def kept(self, tournament: Tournament) -> Tournament:
        kept, _ = build(draft_of(tournament), tournament.ruleset)
        return kept
