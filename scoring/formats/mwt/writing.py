"""Export: our rounds as MWT's ten-seat tables, the results MWT takes, and what of our tournament is lost on the
way (``Exported.lost``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...model import ZERO, Game, Role, Round, Stage, Tournament
from .codes import LEAVE_KINDS, RESULT_CODES, ROLE_CODES, TABLE, fraction, number, player_id, user_id
from .log import derived, kept_log


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
