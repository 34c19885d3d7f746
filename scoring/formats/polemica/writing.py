"""Export: our tournament reduced to what Polemica's games hold, and each game as a Polemica document.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ... import gamelog
from ...model import ZERO, Game, Player, Round, Seat, Side, Stage, Tournament
from ...rulesets import get_ruleset
from .codes import (
    CODE_OF_ROLE,
    CODE_OF_WINNER,
    EXTRA_TEXT,
    MASTER,
    POSITIONS,
    SCORING_TYPE,
    USER_ID,
    VERSION,
    ZERO_VOTING_WRITTEN,
)
from .play import Moment, Play, best_move_of, extra_of, kept_role, log_of, name_id, play_of


@dataclass
class Table:
    """One game as export writes it: our game reduced (``kept``), and its Polemica records."""

    stage: int
    round: int
    game: Game
    play: Play
    usernames: dict[int, str]  # seat → username
    users: dict[int, int]  # seat → Polemica user id


@dataclass
class Reduced:
    tournament: Tournament
    tables: list[Table]
    lost: list[str]


def reduce(t: Tournament) -> Reduced:
    """Our tournament reduced to what Polemica's games hold, the games' records, and what was lost."""
    lost: list[str] = []
    removal_at = get_ruleset(t.ruleset).foul_removal_at
    new_ids: dict[str, str] = {}
    usernames: dict[str, str] = {}
    for player in t.players:
        username = player.nickname or player.name
        match = USER_ID.match(player.id)
        new_ids[player.id] = player.id if match else name_id(username)
        usernames[player.id] = username
    if t.params:
        lost.append(f"ruleset parameters {', '.join(name for name, _ in t.params)} (polemica games hold none)")
    if t.info is not None:
        what = [name for name, value in (("name", t.info.name), ("city", t.info.city), ("venue", t.info.venue),
                                         ("start", t.info.starts), ("end", t.info.ends),
                                         ("standings hidden", t.info.standings_hidden)) if value is not None]
        what += [key for key, _ in t.info.other]
        if what:
            lost.append(f"tournament: {', '.join(what)} (a polemica game holds no tournament)")
    if t.teams:
        lost.append(f"teams {', '.join(team.name for team in t.teams)} (polemica has no teams)")
    tables: list[Table] = []
    stages: list[Stage] = []
    for index, stage in enumerate(t.stages):
        where_stage = f"stage {stage.id}"
        about = [name for name, value in (("name", stage.name), ("kind", stage.kind), ("players", stage.players),
                                          ("advance", stage.advance), ("reset", stage.reset),
                                          ("multiplier", stage.multiplier), ("lots", stage.lots))
                 if value is not None]
        if stage.id != f"phase-{index}" or about:
            lost.append(f"{where_stage}: its id{''.join(', ' + a for a in about)} (polemica numbers the "
                        f"tournament's phases: written as phase {index}, read back as stage phase-{index})")
        rounds: list[Round] = []
        for round_ in sorted(stage.rounds, key=lambda r: r.number):
            where_round = f"{where_stage}, round {round_.number}"
            about = [name for name, value in (("seating method", round_.seating), ("byes", round_.byes),
                                              ("absent", round_.absent), ("penalties", round_.penalties)) if value]
            if about:
                lost.append(f"{where_round}: {', '.join(about)} (a polemica game holds its table only)")
            games: list[Game] = []
            for game in sorted(round_.games, key=lambda g: g.table):
                where = f"{where_round}, table {game.table}"
                table = reduce_game(game, where, index, round_.number, new_ids, usernames, removal_at, lost)
                if table is not None:
                    tables.append(table)
                    games.append(table.game)
            if games:
                rounds.append(Round(round_.number, tuple(games)))
            elif round_.games:
                lost.append(f"{where_round}: no game polemica can hold")
        if rounds:
            stages.append(Stage(f"phase-{index}", tuple(rounds)))
        elif stage.rounds:
            lost.append(f"{where_stage}: no game polemica can hold")
    seen: dict[str, Player] = {}
    for table in tables:
        for seat in table.game.seats:
            if seat.player not in seen:
                seen[seat.player] = Player(seat.player, table.usernames[seat.seat])
    for player in t.players:
        kept = seen.get(new_ids[player.id])
        if kept is None:
            lost.append(f"player {player.id} ({player.name}): not seated in a game polemica holds")
            continue
        about = []
        if kept.name != player.name:
            about.append(f"name {player.name!r} (polemica keeps one username: {kept.name!r})")
        if new_ids[player.id] != player.id:
            about.append(f"id (read back as {new_ids[player.id]})")
        about += [what for what, value in (("team", player.team), ("guest", player.guest)) if value]
        if about:
            lost.append(f"player {player.id}: {', '.join(about)}")
    sharing: dict[str, list[str]] = {}
    for player in t.players:
        sharing.setdefault(new_ids[player.id], []).append(player.id)
    lost += [f"players {', '.join(ids)}: one username {usernames[ids[0]]!r} (polemica tells them apart by user id "
             f"only)" for ids in sharing.values() if len(ids) > 1]
    kept_t = Tournament(ruleset=t.ruleset, players=tuple(seen.values()), stages=tuple(stages))
    return Reduced(kept_t, tables, lost)


def reduce_game(game: Game, where: str, stage: int, round_number: int, new_ids: Mapping[str, str],
                usernames: Mapping[str, str], removal_at: int | None, lost: list[str]) -> Table | None:
    """One game reduced, its lost lines added to ``lost``; None when Polemica cannot seat it at all."""
    outside = sorted(s.seat for s in game.seats if s.seat not in POSITIONS)
    if outside or not game.seats:
        lost.append(f"{where}: the whole game (polemica seats 1-10; this table has "
                    f"{', '.join(map(str, outside)) or 'no seats'})")
        return None
    seats = sorted(game.seats, key=lambda s: s.seat)
    roles = {s.seat: CODE_OF_ROLE[kept_role(s)] for s in seats}
    unheld = [s for s in seats if s.role not in CODE_OF_ROLE]
    winner = game.winner if game.winner in CODE_OF_WINNER else None
    if unheld:
        lost.append(f"{where}: roles {', '.join(f'{s.seat} {s.role.value}' for s in unheld)} written as "
                    f"{', '.join(kept_role(s).value for s in unheld)} (polemica has don, mafia, sheriff and "
                    f"civilian only)")
        if game.winner is not None:
            lost.append(f"{where}: result {game.winner.value} (the game's roles are not polemica's)")
        winner = None
    elif game.winner is not None and winner is None:
        lost.append(f"{where}: result {game.winner.value} (polemica results are red or black)")
    # A removal the fouls imply needs no disqualification; any other is written undated unless the log dates it.
    undated = [s.seat for s in seats if s.removed and (removal_at is None or s.fouls < removal_at)]
    play, notes = play_of(game, roles, undated)
    lost += [f"{where}: {note}" for note in notes]
    log, _ = log_of(play)
    first = gamelog.first_killed(log) if log else None
    days = gamelog.days_survived(log, roles) if log else {}
    missed = bool(log) and gamelog.mafia_missed_three_nights(log) and winner is Side.RED
    best_move: tuple[int, ...] = ()
    if game.best_move:
        if first is None:
            lost.append(f"{where}: best move {', '.join(map(str, game.best_move))} (polemica keeps it as the "
                        f"first killed player's guess; this game has no first kill)")
        else:
            best_move, off = best_move_of(game.best_move, first, roles)
            if off:
                lost.append(f"{where}: best move seats {', '.join(map(str, off))}")
    if game.log and tuple(game.log) != log:
        lost.append(f"{where}: the log as polemica reads it back (ordered by kind within each day and night, "
                    f"without heals and lift votes, votes of 0 left out)")
    if first != game.first_killed:
        lost.append(f"{where}: first killed {game.first_killed} (polemica's shots say {first})")
    if game.mafia_missed_three_nights != missed:
        lost.append(f"{where}: mafia missed three nights {game.mafia_missed_three_nights} (the shots say {missed})")
    for what, value in (("circles", game.circles), ("judge", game.judge), ("notes", game.notes),
                        ("protests", game.protests)):
        if value:
            lost.append(f"{where}: {what} (a polemica game holds none)")
    kept_seats = []
    changes: dict[str, list[str]] = {}
    for seat in seats:
        removed = seat.seat in play.removals or (removal_at is not None and seat.fouls >= removal_at)
        extra = extra_of(float(seat.extra)) if seat.extra != 0 else ZERO
        kept = Seat(seat.seat, new_ids[seat.player], kept_role(seat), None, seat.fouls, removed, extra, False,
                    days.get(seat.seat), None)
        for kind, was, now in (("removed", seat.removed, kept.removed), ("extra points", seat.extra, extra),
                               ("best player", seat.best, False), ("subjective points", seat.subjective, None),
                               ("days survived", seat.days_survived, kept.days_survived)):
            if was != now:
                changes.setdefault(kind, []).append(f"seat {seat.seat} {was} -> {now}")
        kept_seats.append(kept)
    why = {"removed": "polemica removes by disqualification or by the ruleset's fouls",
           "extra points": "a polemica bonus is a double", "best player": "polemica has no best player",
           "subjective points": "polemica has no subjective points",
           "days survived": "polemica derives them from the shots and votes"}
    lost += [f"{where}: {kind} {', '.join(seats_changed)} ({why[kind]})" for kind, seats_changed in changes.items()]
    kept_game = Game(game.table, tuple(kept_seats), winner, first, best_move, (), missed, log=log)
    return Table(stage, round_number, kept_game, play, {s.seat: usernames[s.player] for s in seats},
                 {s.seat: int(m.group(1)) for s in seats if (m := USER_ID.match(s.player))})


def document_of(table: Table, started: str) -> dict[str, Any]:
    """One PolemicaGame as JSON."""
    game, play = table.game, table.play
    players = []
    foul = {"time": started, "stage": Moment.at(None).document()}
    for seat in game.seats:
        player: dict[str, Any] = {"position": seat.seat, "username": table.usernames[seat.seat],
                                  "role": CODE_OF_ROLE[seat.role], "techs": [],
                                  "fouls": [dict(foul) for _ in range(seat.fouls)]}
        if seat.seat in table.users:
            player["player"] = {"id": table.users[seat.seat], "username": table.usernames[seat.seat]}
        if seat.seat == game.first_killed and game.best_move:
            player["guess"] = {"mafs": list(game.best_move)}
        if seat.seat in play.removals:
            player["disqual"] = play.removals[seat.seat].document()
        players.append(player)
    return {
        "num": table.round, "table": game.table, "phase": table.stage, "started": started, "master": MASTER,
        "version": VERSION, "scoringType": SCORING_TYPE, "players": players,
        "checks": [{"night": n, "role": r, "player": s} for n, r, s in play.checks],
        "shots": [{"night": n, "shooter": a, "victim": v} for n, a, v in play.shots],
        "votes": [{"day": v.day, "num": v.num, "voter": v.voter, "candidate": v.candidate} if v.num is not None
                  else {"day": v.day, "voter": v.voter, "candidate": v.candidate} for v in play.votes],
        "bonuses": [{"position": s.seat, "text": EXTRA_TEXT, "scores": float(s.extra), "basic": False}
                    for s in game.seats if s.extra != 0],
        "result": None if game.winner is None else CODE_OF_WINNER[game.winner],
    } | ({"zeroVoting": ZERO_VOTING_WRITTEN} if play.zero_voting else {})
