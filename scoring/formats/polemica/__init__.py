"""Polemica (polemicagame.com): whole games, as the platform's API sends them and takes them back
(docs/formats/polemica.md).

Learned from the public Kotlin client Vyasma-Mafia/polemica-library at commit
23aa7c1128fce6eb3e83ac555bb5f3e30501b991: ``model/game/*.kt`` (the game's DTOs: PolemicaGame, PolemicaPlayer,
Role, Position, PolemicaVote, PolemicaShot, PolemicaCheck, PolemicaGuess, PolemicaBonus, Foul, Stage,
PolemicaGameResult, ZeroVoting) and ``utils/GameUtils.kt`` (how a game's votes, shots and disqualifications
say who left the table: ``getKilled``, ``getFinalVotes``, ``getKickedFromTable``).

A Polemica game records who nominated and who voted for whom, every shot and every check; our game records
the judge's log (``LogEvent``). A game read becomes our game with its log, and the first kill, the days each
seat survived and the three missed nights are then derived from the log by ``scoring.gamelog``, as the
judge's screen derives them. A tournament is a JSON array of games (the client posts a competition's games
one ``PolemicaGame`` at a time and lists them as an array); a single game object is read as a one-game
tournament.
"""

from __future__ import annotations

import json

from ...model import Tournament
from ...rulesets import get_ruleset
from ..base import Exported, FormatError, Imported, Platform, namesakes_apart, parse_json, register
from .codes import NO_DATE, SOURCE, USER_ID
from .reading import Read, Reader, assemble, describe, is_game, read_game
from .writing import document_of, reduce


@register
class Polemica(Platform):
    name = "polemica"
    title = "Polemica"
    source = SOURCE
    default_ruleset = "fiim"

    def export(self, tournament: Tournament) -> Exported:
        tournament, namesakes = apart(tournament)
        reduced = reduce(tournament)
        starts = tournament.info.starts if tournament.info is not None and tournament.info.starts else NO_DATE
        started = f"{starts[:10]}T00:00:00"
        games = [document_of(table, started) for table in reduced.tables]
        return Exported(json.dumps(games, ensure_ascii=False, indent=1), tuple(namesakes + reduced.lost))

    def kept(self, tournament: Tournament) -> Tournament:
        return reduce(apart(tournament)[0]).tournament

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        ruleset = ruleset or self.default_ruleset
        try:
            removal_at = get_ruleset(ruleset).foul_removal_at
        except KeyError as error:
            raise FormatError([str(error.args[0])]) from None
        data = parse_json(text, self.name)
        if isinstance(data, dict):
            if not is_game(data):
                raise FormatError([f"not a {self.name} document: {describe(data)}"])
            nodes, prefix = [data], "game"
        elif isinstance(data, list):
            if data and not is_game(data[0]):
                raise FormatError([f"not a {self.name} document: games[0] is not a Polemica game "
                                   f"({describe(data[0])})"])
            nodes, prefix = data, "games"
        else:
            raise FormatError([f"not a {self.name} document: a Polemica document is a game or a list of games"])
        reader = Reader(removal_at)
        reads: list[Read] = []
        for index, node in enumerate(nodes):
            where = prefix if isinstance(data, dict) else f"games[{index}]"
            if not is_game(node):
                reader.fail(where, f"not a Polemica game ({describe(node)})")
                continue
            read = read_game(reader, node, where)
            if read is not None:
                reads.append(read)
        if reader.problems:
            raise FormatError(reader.headed())
        return Imported(assemble(reads, ruleset, reader), tuple(reader.dropped))


def apart(tournament: Tournament) -> tuple[Tournament, list[str]]:
    """Polemica knows a player without its user id by one username: namesakes get their ids added
    (``namesakes_apart``)."""
    return namesakes_apart(tournament, lambda p: p.nickname or p.name, lambda pid: USER_ID.match(pid) is not None,
                           "nickname")
