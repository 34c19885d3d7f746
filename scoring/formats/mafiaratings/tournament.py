"""The tournament around the games, both ways (shared with iMafia, which mafiaratings imports): games placed
into stages and rounds, the roles a game may export, what of a tournament is lost, the players' ids.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ...errors import InvalidTournament
from ...fileio import load
from ...filejson import dump
from ...model import ROLE_SIDE, Game, Player, Round, Side, Stage, Tournament
from ..base import FormatError, namesakes_apart
from .codes import ROLE_CODES, SEATS, name_id, platform_number


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


def names_apart(tournament: Tournament, platform: str) -> tuple[Tournament, list[str]]:
    """mafiaratings and iMafia know a player without their own id by the name: namesakes get their ids added
    (``namesakes_apart``)."""
    return namesakes_apart(tournament, lambda p: p.name, lambda pid: platform_number(pid, platform) is not None,
                           "name")
