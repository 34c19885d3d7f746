"""MWT's seating text (mafia-schedule's ``Print.mwtSchedule``): a round as ten lines, one a seat, the tables'
players separated by commas; written from our rounds and read back.
"""

from __future__ import annotations

import re

from ...model import Game, Player, Role, Round, Seat, Stage, Tournament
from ..base import Exported, FormatError, Imported
from .codes import NAME, TABLE, checked, player_id
from .writing import place, seated, shown_names, tables, ten_seats


def export_seating(tournament: Tournament) -> Exported:
    """MWT's seating text: each round ten lines (seat 1 to 10), each the tables' players by nickname separated by
    commas, a blank line after each round. Stages are not told apart: the rounds follow one another."""
    chosen = tables(tournament)
    names = shown_names(tournament, seated(chosen))
    lost = []
    for player, name in names.items():
        if "," in name or name != name.strip() or any(c in name for c in "\r\n"):
            lost.append(f"player {player}: nickname {name!r} written as {player} (a comma, line break or edge space "
                        "cannot stand in the text)")
            names[player] = player
    blocks = []
    for stage in tournament.stages:
        for round_ in sorted(stage.rounds, key=lambda r: r.number):
            games = sorted(round_.games, key=lambda g: g.table)
            if not games or not all(ten_seats(g) for g in games):
                lost.append(f"{place(stage, round_)}: not written (mwt's seating has ten seats at every table)")
                continue
            seats = [{s.seat: s.player for s in g.seats} for g in games]
            blocks.append("\n".join(", ".join(names[by_seat[n]] for by_seat in seats) for n in range(1, TABLE + 1)))
            if [g.table for g in games] != list(range(1, len(games) + 1)):
                lost.append(f"{place(stage, round_)}: table numbers (the text's columns are tables 1, 2, ...)")
    lost.append("everything but who sits where (the seating text has players and seats only)")
    return Exported("".join(block + "\n\n" for block in blocks), tuple(lost))


def read_seating(text: str, ruleset: str) -> Imported:
    """A tournament of one stage from MWT's seating text; its players' ids from their nicknames."""
    blocks = [block for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip("\n")) if block.strip()]
    problems = []
    if not blocks:
        raise FormatError([f"not a {NAME} document: empty (an MWT seating is ten lines a round)"])
    rounds = []
    players: dict[str, Player] = {}
    for number_, block in enumerate(blocks, start=1):
        where = f"{NAME} seating, round {number_}"
        lines = block.split("\n")
        if len(lines) != TABLE:
            problems.append(f"{where}: {len(lines)} lines; a round has {TABLE}, one a seat"
                            + ("" if number_ > 1 else f" (not a {NAME} document?)"))
            continue
        rows = [[cell.strip() for cell in line.split(",")] for line in lines]
        width = len(rows[0])
        tables_: list[list[str]] = [[] for _ in range(width)]
        for seat, row in enumerate(rows, start=1):
            if len(row) != width:
                problems.append(f"{where}, seat {seat}: {len(row)} tables; seat 1 has {width}")
                continue
            for column, name in enumerate(row):
                if not name:
                    problems.append(f"{where}, table {column + 1}, seat {seat}: no player")
                tables_[column].append(player_id(None, name))
                players.setdefault(player_id(None, name), Player(player_id(None, name), name, name))
        games = []
        for column, ids in enumerate(tables_, start=1):
            first: dict[str, int] = {}
            for seat, pid in enumerate(ids, start=1):
                if pid in first:
                    problems.append(f"{where}, table {column}, seat {seat}: {players[pid].name} also at seat "
                                    f"{first[pid]}")
                first.setdefault(pid, seat)
            games.append(Game(table=column, winner=None,
                              seats=tuple(Seat(n, pid, Role.CIVILIAN) for n, pid in enumerate(ids, start=1))))
        rounds.append(Round(number=number_, games=tuple(games)))
    if problems:
        raise FormatError(problems)
    order: dict[str, None] = {}
    for round_ in rounds:
        for game in round_.games:
            for at in game.seats:
                order.setdefault(at.player)
    tournament = Tournament(ruleset=ruleset, players=tuple(players[p] for p in order),
                            stages=(Stage(id="part-1", rounds=tuple(rounds)),))
    return Imported(checked(tournament), ())
