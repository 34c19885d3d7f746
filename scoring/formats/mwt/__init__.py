"""MWT (Mafia World Tour, FIIM's rating site): its games as a list, each game's seating (``protocol``) and its
result in the shape MWT's API answers and takes (docs/formats/mwt.md); and MWT's seating text.

The format is learned from public code only: szotin/mafiaratings (api/ops/mwt.php: the ``success`` answers of
``/api/tournament/seats`` and ``/api/protocol/load``; include/mwt_game.php: a game's ``result`` read and written)
and MafiaScheduleDb's MWT schedule (mafia-schedule's ``Print.mwtSchedule``: a round as ten lines, one a seat,
the tables' players separated by commas). MWT seats ten at a table with four roles (red, black, don, sheriff);
what else our tournament holds is named in ``Exported.lost``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from ...model import ZERO, Game, Penalty, Player, Role, Round, Seat, Stage, Tournament
from ...rulesets import RULESETS
from ..base import Exported, FormatError, Imported, Platform, parse_json, register
from .codes import CHECKS, LEAVE_KINDS, NAME, RESULT_CODES, ROLE_CODES, fraction, number, player_id, seat_of, user_id
from .log import derived, kept_log, leaves
from .reading import Reader
from .seating import read_seating
from .writing import Table, game_penalties, judge_user, losses, seated, shown_names, tables


@register
class MWT(Platform):
    name = NAME
    title = "Mafia World Tour (mafiaworldtour.com)"
    source = ("szotin/mafiaratings include/mwt_game.php, api/ops/mwt.php @ 390b210f4fb5d47abf3199c17b43f14cd25d99dd; "
              "dimtom/MafiaScheduleDb schedules.py @ eaaa186be32d0e032b8ddbd87c944929c1664e97 "
              "(mafia-schedule 0.0.6 output.py Print.mwtSchedule)")
    default_ruleset = "fiim"

    # -- export -------------------------------------------------------------------------------------------------

    def export(self, tournament: Tournament) -> Exported:
        chosen = tables(tournament)
        names = shown_names(tournament, seated(chosen))
        games = [self._game(table, names) for table in chosen]
        # A game a line: the document stays readable and diffable without spreading each array over ten lines.
        document = '{"success": [' + ",".join(f"\n{json.dumps(game, ensure_ascii=False)}" for game in games) + "\n]}\n"
        return Exported(document, tuple(losses(tournament, chosen, names)))

    def _game(self, table: Table, names: dict[str, str]) -> dict[str, Any]:
        game = table.game
        seats = sorted(game.seats, key=lambda s: s.seat)
        out: dict[str, Any] = {"part_number": table.part, "table_number": game.table,
                               "session_number": table.round.number}
        referee = judge_user(game.judge)
        if referee is not None:
            out["referee_user_id"] = referee
        out["protocol"] = [{"user_id": user_id(s.player), "nickname": names[s.player]} for s in seats]
        if table.result:
            out["result"] = self._result(table, seats)
        return out

    def _result(self, table: Table, seats: list[Seat]) -> dict[str, Any]:
        game = table.game
        assert game.winner is not None
        penalties = game_penalties(table)
        log = kept_log(game)
        result: dict[str, Any] = {
            "result": RESULT_CODES[game.winner],
            "players": [user_id(s.player) for s in seats],
            "player_roles": [ROLE_CODES[s.role] for s in seats],
            "player_fouls": [s.fouls for s in seats],
            "game_bonus": [number(s.extra) if s.extra > 0 else 0 for s in seats],
            "penalty": [number(-s.extra) if s.extra < 0 else 0 for s in seats],
            "penalty_disciplinary": [number(-penalties.get(s.player, ZERO)) for s in seats],
        }
        for kind, key in CHECKS:
            checks = {e.phase // 2: e.seat for e in log if e.kind == kind}
            result[key] = [checks.get(night) for night in range(1, max(checks, default=0) + 1)]
        result["leaves"] = leaves(log, seats)
        if any(e.kind in LEAVE_KINDS.values() for e in log):  # who is left at the end, as mafiaratings counts it
            gone = {leave["p_num"] for leave in result["leaves"]}
            staying = [s for s in seats if s.seat not in gone]
            result["black_count"] = sum(1 for s in staying if s.role in (Role.MAFIA, Role.DON))
            result["red_count"] = len(staying) - result["black_count"]
        if game.first_killed is not None:
            result["killed_first"] = game.first_killed
            if game.best_move:
                result["best_move_value"] = list(game.best_move)
                black = {s.seat for s in seats if s.role in (Role.MAFIA, Role.DON)}
                result["best_move"] = sum(1 for seat in game.best_move if seat in black)
        if game.notes:
            result["comment"] = game.notes
        return result

    # -- kept ---------------------------------------------------------------------------------------------------

    def kept(self, tournament: Tournament) -> Tournament:
        chosen = tables(tournament)
        order = seated(chosen)
        names = shown_names(tournament, order)
        ids = {p: player_id(user_id(p), names[p]) for p in order}
        stages: dict[int, list[Round]] = {}
        for table in chosen:
            rounds = stages.setdefault(table.part, [])
            if not rounds or rounds[-1].number != table.round.number:
                rounds.append(Round(number=table.round.number, games=()))
            game = self._kept_game(table, ids)
            penalties = tuple(Penalty(ids[p], -fraction(number(-points))) for p, points in
                              game_penalties(table).items()) if table.result else ()
            rounds[-1] = replace(rounds[-1], games=(*rounds[-1].games, game),
                                 penalties=(*rounds[-1].penalties, *sorted(penalties, key=lambda p: seat_of(game, p))))
        players = tuple(Player(ids[p], names[p], names[p]) for p in order)
        return Tournament(ruleset=tournament.ruleset, players=players,
                          stages=tuple(Stage(id=f"part-{part}", rounds=tuple(rounds))
                                       for part, rounds in stages.items()))

    def _kept_game(self, table: Table, ids: dict[str, str]) -> Game:
        game = table.game
        referee = judge_user(game.judge)
        judge = f"mwt-{referee}" if referee is not None else None
        ordered = sorted(game.seats, key=lambda s: s.seat)
        if not table.result:
            return Game(table=game.table, winner=None, judge=judge,
                        seats=tuple(Seat(s.seat, ids[s.player], Role.CIVILIAN) for s in ordered))
        log = kept_log(game)
        departed = {e.seat: e.kind for e in log if e.kind in LEAVE_KINDS.values()}
        seats = tuple(Seat(s.seat, ids[s.player], s.role, fouls=s.fouls, extra=fraction(number(s.extra)),
                           removed=departed.get(s.seat, "removed" if s.removed else None) == "removed")
                      for s in ordered)
        kept = Game(table=game.table, winner=game.winner, judge=judge, notes=game.notes or None,
                    first_killed=game.first_killed, best_move=game.best_move if game.first_killed else (),
                    seats=seats)
        return derived(kept, log, seats)

    # -- read ---------------------------------------------------------------------------------------------------

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        ruleset = ruleset or self.default_ruleset
        if ruleset not in RULESETS:
            raise FormatError([f"unknown ruleset {ruleset!r}: one of {', '.join(sorted(RULESETS))}"])
        if not text.lstrip().startswith(("{", "[")):
            return read_seating(text, ruleset)
        document = parse_json(text, NAME)
        if isinstance(document, dict) and set(document) == {"error"}:
            raise FormatError([f"not a {NAME} document: an MWT error answer: {document['error']!r}"])
        if not isinstance(document, dict) or set(document) != {"success"} or not isinstance(document["success"], list):
            shape = f"an object with keys {', '.join(sorted(document))}" if isinstance(document, dict) \
                else f"a JSON {type(document).__name__}"
            raise FormatError([f"not a {NAME} document: it is {shape}; MWT's is {{\"success\": [games]}}"])
        reader = Reader(ruleset)
        for index, item in enumerate(document["success"]):
            reader.game(f"success[{index}]", item)
        return reader.finish()
