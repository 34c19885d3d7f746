"""The tournament as gomafia holds it (tables of sittings, a draft), and our tournament built from a draft: a
seat's points back as the result's points plus extra points where the ruleset allows them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from ...model import ZERO, Game, Player, Role, Round, Seat, Side, Stage, Tournament, TournamentInfo
from ...numbers import format_number
from ...rulesets import Ruleset, get_ruleset
from .codes import STAGE_ID


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
