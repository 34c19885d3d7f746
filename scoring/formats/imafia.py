"""iMafia's tournament games (docs/formats/imafia.md): the answer of ``imafia.org/api/tournament_games/{id}`` as
mafiaratings reads it (szotin/mafiaratings, ``api/ops/imafia.php``, ``import_games_op``). No public code of iMafia's
own defines it; that reader is the only definition, so only the fields it reads exist here.

Per game: stage, game number, table, result, referee, comment, first kill and best move; per seat: the player,
the role and the extra points. No fouls, removals, best player or game log.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ..model import ZERO, Game, Player, Role, Seat, Side, Stage, Tournament
from .base import Exported, FormatError, Imported, Platform, register
from .mafiaratings.codes import SEATS, is_int, json_number, name_id, platform_number, through_json, where
from .mafiaratings.reading import read_games
from .mafiaratings.tournament import (
    Placed,
    assemble,
    exportable_roles,
    names_apart,
    not_exportable,
    player_ids,
    tournament_losses,
)

NAME = "imafia"
SOURCE = ("github.com/szotin/mafiaratings @ 0ab7207bdb17fadb92243f119dc356a95c99edad: api/ops/imafia.php "
          "(import_games_op, get_players_mapping, compare_games), the reader of imafia.org/api/tournament_games")

ROLE_IDS = {Role.CIVILIAN: 1, Role.SHERIFF: 2, Role.MAFIA: 3, Role.DON: 4}  # 1: the reader's default (civ)
ID_ROLES = {number: role for role, number in ROLE_IDS.items()}
RESULTS = {Side.RED: 1, Side.BLACK: 2}  # 3 is a tie; any other result is a game the reader skips
RESULT_SIDES = {number: side for side, number in RESULTS.items()}
NO_RESULT = 0
ENVELOPE_KEYS = frozenset({"games", "referees_array"})
GAME_KEYS = frozenset({"stage", "name", "table", "result", "referees_id", "comment", "first_blood", "best_move_1",
                       "best_move_2", "best_move_3", "players"})
PLAYER_KEYS = frozenset({"players_id", "name", "roles_id", "points_plus", "points_minus"})
BEST_MOVE_KEYS = ("best_move_1", "best_move_2", "best_move_3")


def reduce_game(game: Game) -> tuple[Game, list[str], bool]:
    """Our game reduced to what an iMafia game holds, what was lost, and whether its roles are written."""
    lost: list[str] = []
    roles = game.winner is not None or exportable_roles(game) is None
    if not roles:
        lost.append(f"roles ({exportable_roles(game)}; {NAME} knows civ, sheriff, maf, don only): read back as civ")
    seats = []
    for seat in sorted(game.seats, key=lambda s: s.seat):
        extra = through_json(seat.extra)
        if extra != seat.extra:
            lost.append(f"seat {seat.seat}: extra {seat.extra} written as {json_number(seat.extra)}")
        for what, value in (("fouls", seat.fouls), ("removed", seat.removed), ("best player", seat.best),
                            ("days survived", seat.days_survived), ("subjective", seat.subjective)):
            if value:
                lost.append(f"seat {seat.seat}: {what} {value} ({NAME} has none)")
        seats.append(Seat(seat=seat.seat, player=seat.player, role=seat.role if roles else Role.CIVILIAN,
                          extra=extra))
    for what, present in (("game log", game.log), ("circles", game.circles), ("protests", game.protests),
                          ("mafia missed three nights", game.mafia_missed_three_nights)):
        if present:
            lost.append(f"{what} ({NAME} has none)")
    if game.judge is not None:
        lost.append(f"judge {game.judge!r} ({NAME} names a referee by its iMafia user id, which we do not have)")
    kept = Game(table=game.table, seats=tuple(seats), winner=game.winner, first_killed=game.first_killed,
                best_move=game.best_move, notes=game.notes)
    return kept, lost, roles


def reductions(t: Tournament) -> tuple[list[tuple[int, Stage, int, Game, bool]], list[str]]:
    out: list[tuple[int, Stage, int, Game, bool]] = []
    lost: list[str] = []
    for index, stage in enumerate(t.stages):
        for round_ in stage.rounds:
            for game in round_.games:
                at = where(stage.id, round_.number, game.table)
                why = not_exportable(game, NAME)
                if why is not None:
                    lost.append(f"{at}: {why}")
                    continue
                kept, lines, roles = reduce_game(game)
                lost += [f"{at}: {line}" for line in lines]
                out.append((index + 1, stage, round_.number, kept, roles))
    return out, lost


def game_json(stage: int, number: int, game: Game, players: Mapping[str, Player], roles: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"stage": stage, "name": number, "table": game.table,
                           "result": RESULTS[game.winner] if game.winner is not None else NO_RESULT,
                           "referees_id": None}
    if game.notes is not None:
        out["comment"] = game.notes
    out["first_blood"] = game.first_killed
    for key, named in zip(BEST_MOVE_KEYS, game.best_move, strict=False):
        out[key] = named
    seats: dict[str, Any] = {}
    for seat in game.seats:
        player = players[seat.player]
        extra = seat.extra
        seats[str(seat.seat)] = {"players_id": platform_number(player.id, NAME), "name": player.name,
                                 "roles_id": ROLE_IDS[seat.role] if roles else ROLE_IDS[Role.CIVILIAN],
                                 "points_plus": json_number(extra) if extra > 0 else 0,
                                 "points_minus": json_number(extra) if extra < 0 else 0}
    out["players"] = seats
    return out


def _whole(value: Any, at: str, problems: list[str], low: int = 1) -> int | None:
    """A number the reader casts with ``(int)``: an integer or its digits as text."""
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not is_int(value) or value < low:
        problems.append(f"{at}: {value!r} is not a whole number from {low}")
        return None
    return int(value)


def _points(value: Any, at: str, problems: list[str]) -> Fraction:
    """Points the reader casts with ``(float)``: a number or its text."""
    if value is None:
        return ZERO
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except ValueError:
            problems.append(f"{at}: {value!r} is not a number")
            return ZERO
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problems.append(f"{at}: {value!r} is not a number")
        return ZERO
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def _seat(value: Any, at: str, problems: list[str]) -> int | None:
    if value is None:
        return None
    number = _whole(value, at, problems)
    if number is not None and number not in SEATS:
        problems.append(f"{at}: seat {number} is not a seat 1 to 10")
        return None
    return number


class _Reader:
    """Reads the games of one document; the referees come from its ``referees_array``."""

    def __init__(self, referees: Any) -> None:
        self.referees = referees if isinstance(referees, dict) else {}

    def game(self, raw: Any, index: int, ruleset: str, names: dict[str, str], problems: list[str],
             dropped: list[str]) -> Placed | None:
        at = f"games[{index}]"
        if not isinstance(raw, dict):
            raise FormatError([f"not an {NAME} document: {at} is not a game"])
        unknown = sorted(set(raw) - GAME_KEYS)
        if unknown:
            raise FormatError([f"not an {NAME} document: {at} has key(s) {', '.join(map(repr, unknown))}, "
                               f"which {NAME} games do not have"])
        before = len(problems)
        numbers = {}
        for key in ("stage", "name", "table"):
            if raw.get(key) is None:
                problems.append(f"{at}.{key}: missing (a game names its stage, number and table)")
            else:
                numbers[key] = _whole(raw[key], f"{at}.{key}", problems)
        result: Any = raw.get("result")
        if isinstance(result, str) and result.strip().isdigit():  # the reader compares loosely: "1" is 1
            result = int(result.strip())
        if not is_int(result):
            problems.append(f"{at}.result: {result!r} is not a result (1 civ, 2 maf, 3 tie)")
        elif result == 3:
            dropped.append(f"{at}: a tie (read as a game without a result: we have no tie)")
        winner = RESULT_SIDES.get(int(result)) if is_int(result) else None
        judge = None
        referee = raw.get("referees_id")
        if referee:
            entry = self.referees.get(str(referee))
            if isinstance(entry, dict) and isinstance(entry.get("name"), str) and entry["name"].strip():
                judge = entry["name"]
            else:
                dropped.append(f"{at}.referees_id: referee {referee!r} not named in referees_array")
        notes = raw.get("comment")
        if notes is not None and not isinstance(notes, str):
            problems.append(f"{at}.comment: not a text")
            notes = None
        first_killed = _seat(raw.get("first_blood"), f"{at}.first_blood", problems)
        named = [_seat(raw.get(key), f"{at}.{key}", problems) for key in BEST_MOVE_KEYS]
        best_move = tuple(s for s in named if s is not None)
        if best_move and first_killed is None:
            dropped.append(f"{at}: best move {list(best_move)} without a first kill")
            best_move = ()
        if best_move and (len(set(best_move)) != len(best_move) or first_killed in best_move):
            problems.append(f"{at}: best move {list(best_move)} names a seat twice or the first killed's own")
        players = raw.get("players")
        if not isinstance(players, dict):
            problems.append(f"{at}.players: missing (an object of the seats 1 to 10)")
            return None
        seats: list[Seat] = []
        sitting: dict[str, int] = {}
        for key, player in players.items():
            pat = f"{at}.players[{key!r}]"
            number = _seat(key, pat, problems)
            if number is None:
                continue
            if not isinstance(player, dict):
                problems.append(f"{pat}: not a player")
                continue
            unknown = sorted(set(player) - PLAYER_KEYS)
            if unknown:
                problems.append(f"{pat}: unknown key(s) {', '.join(map(repr, unknown))}")
                continue
            user, name = player.get("players_id"), player.get("name")
            if isinstance(user, str) and user.strip().isdigit():  # a PHP array key: "25" is 25
                user = int(user.strip())
            if user is not None and (not is_int(user) or user < 0):
                problems.append(f"{pat}.players_id: {user!r} is not a user id")
                continue
            if name is not None and not isinstance(name, str):
                problems.append(f"{pat}.name: {name!r} is not a name")
                continue
            if user:
                pid, shown = f"{NAME}-{user}", (name or "").strip() or f"{NAME} user {user}"
            elif name and name.strip():
                pid, shown = name_id(NAME, name.strip()), name.strip()
            else:
                problems.append(f"{pat}: missing (neither players_id nor name)")
                continue
            if pid in sitting:
                problems.append(f"{pat}: {shown!r} sits twice at this table (seats {sitting[pid]} and {number})")
                continue
            sitting[pid] = number
            names.setdefault(pid, shown)
            code = player.get("roles_id", ROLE_IDS[Role.CIVILIAN])
            if isinstance(code, str) and code.strip().isdigit():  # the reader's switch compares loosely
                code = int(code.strip())
            if code not in ID_ROLES or not is_int(code):
                # mafiaratings' switch has cases 2, 3, 4 only: any other id is a civilian there, and here
                dropped.append(f"{pat}.roles_id: unknown role code {code!r}, read as a civilian (as mafiaratings "
                               "reads it)")
                code = ROLE_IDS[Role.CIVILIAN]
            extra = _points(player.get("points_plus"), f"{pat}.points_plus", problems) \
                + _points(player.get("points_minus"), f"{pat}.points_minus", problems)
            seats.append(Seat(seat=number, player=pid, role=ID_ROLES[code], extra=extra))
        missing = sorted(set(SEATS) - {s.seat for s in seats})
        if len(problems) == before and missing:
            problems.append(f"{at}.players: seat(s) {', '.join(map(str, missing))} missing ({NAME} games here have "
                            "seats 1 to 10)")
        if len(problems) > before:
            return None
        game = Game(table=int(numbers["table"] or 0), seats=tuple(sorted(seats, key=lambda s: s.seat)),
                    winner=winner, first_killed=first_killed, best_move=best_move, judge=judge, notes=notes)
        stage = int(numbers["stage"] or 0)
        return Placed(stage, f"stage-{stage}", int(numbers["name"] or 0), game)


@register
class IMafia(Platform):
    """iMafia (imafia.org): a tournament's games as mafiaratings' import reads them."""

    name = NAME
    title = "iMafia"
    source = SOURCE

    def export(self, tournament: Tournament) -> Exported:
        tournament, namesakes = names_apart(tournament, NAME)
        written, lost = reductions(tournament)
        players = tournament.players_by_id()
        games = [game_json(order, number, game, players, roles) for order, _, number, game, roles in written]
        kept_players = {s.player for _, _, _, g, _ in written for s in g.seats}
        ids = player_ids(tournament, NAME)
        lost = namesakes + tournament_losses(tournament, NAME, kept_players) + lost
        lost += [f"stage {stage.id}: its id (read back as stage-{order}, the stage's place)"
                 for order, stage in {o: s for o, s, _, _, _ in written}.items() if stage.id != f"stage-{order}"]
        lost += [f"player {pid}: its id (read back as {new}, from the name)" for pid, new in ids.items()
                 if pid != new and pid in kept_players]
        document = {"games": games, "referees_array": {}}
        return Exported(json.dumps(document, ensure_ascii=False, indent=1), tuple(lost))

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        holder: list[_Reader] = []

        def referees(data: dict[str, Any]) -> None:
            if not isinstance(data.get("referees_array", {}), (dict, list)):
                raise FormatError([f"not an {NAME} document: referees_array is not an object"])
            holder.append(_Reader(data.get("referees_array")))

        def game(raw: Any, index: int, rules: str, names: dict[str, str], problems: list[str],
                 dropped: list[str]) -> Placed | None:
            return holder[0].game(raw, index, rules, names, problems, dropped)

        return read_games(text, ruleset or self.default_ruleset, NAME, ENVELOPE_KEYS, game, referees)

    def kept(self, tournament: Tournament) -> Tournament:
        tournament, _ = names_apart(tournament, NAME)
        written, _ = reductions(tournament)
        ids = player_ids(tournament, NAME)
        names = {ids[p.id]: p.name for p in tournament.players}
        placed = [Placed(order, f"stage-{order}", number,
                         replace(game, seats=tuple(replace(s, player=ids[s.player]) for s in game.seats)))
                  for order, _, number, game, _ in written]
        return assemble(tournament.ruleset, placed, names)
