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

import json
from typing import Any

from ...errors import InvalidTournament
from ...fileio import load
from ...filejson import dump
from ...model import Tournament, TournamentInfo
from ...rulesets import get_ruleset
from ..base import Exported, FormatError, Imported, Platform, namesakes_apart, parse_json, register
from .codes import NAME, ROLE_CODES, WIN_CODES, gomafia_id, login_of, wire
from .draft import build
from .reading import Reader
from .writing import draft_of, lost_lines, written_games


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
        tournament, namesakes = apart(tournament)
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
        return Exported(json.dumps(document, ensure_ascii=False, indent=1), tuple(namesakes + lost_lines(tournament)))

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
        kept, _ = build(draft_of(apart(tournament)[0]), tournament.ruleset)
        return kept


def apart(tournament: Tournament) -> tuple[Tournament, list[str]]:
    """gomafia knows a player without its user id by the login: namesakes get their ids added (``namesakes_apart``)."""
    return namesakes_apart(tournament, login_of, lambda pid: gomafia_id(pid) is not None, "nickname")
