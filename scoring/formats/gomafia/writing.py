"""Export: our tournament as a gomafia draft and document, and every line of what gomafia cannot hold
(``Exported.lost``), by stage, round, game and player.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ...model import ZERO, Game, Round, Stage, Tournament, TournamentInfo
from ...numbers import format_number
from ...tally import StageScoring
from ...validation import ruleset_for
from .codes import (
    MAX_ID,
    ROLE_CODES,
    SEATS,
    STAGE_ID,
    WIN_CODES,
    gomafia_id,
    id_from_login,
    login_of,
    too_big,
    unwire,
    wire,
)
from .draft import Draft, Sitting, Table, build


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
    return lines  # two players of one login are written apart before (``apart``, namesakes_apart)


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
