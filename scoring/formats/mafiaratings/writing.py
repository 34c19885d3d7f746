"""Export: each game reduced to what mafiaratings holds and written as its game JSON.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ... import gamelog
from ...model import Game, LogEvent, Player, Role, Seat, Side, Stage, Tournament
from .codes import (
    FEATURE_ORDER,
    NAME,
    ROLE_CODES,
    SEATS,
    WINNER_CODES,
    in_order,
    json_number,
    platform_number,
    through_json,
    where,
)
from .tournament import exportable_roles, not_exportable


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


def with_ids(game: Game, ids: Mapping[str, str]) -> Game:
    return replace(game, seats=tuple(replace(s, player=ids[s.player]) for s in game.seats))


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
