"""From a tournament to the seating engine and back: who to seat, the history, the Swiss order.

The seating engine (``scoring.seating``) works on plain player ids; this module reads them off a
``Tournament`` so the CLI's ``seat`` and ``seating-report`` and the web application's round
generation ask the same question in the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from .model import SeatingMethod, Stage, StageKind, Tournament
from .seating import METHODS, PlannedRound, SeatingHistory, SeatingRequest, plan, report
from .standings import compute_standings
from .validation import ruleset_for


def seating_history(tournament: Tournament, until: Stage | None = None) -> SeatingHistory:
    """Every round of every stage in order (up to and including ``until``), tables by number and
    players by seat number, with the byes each player has had."""
    rounds = []
    byes: Counter[str] = Counter()
    for stage in tournament.stages:
        for round_ in sorted(stage.rounds, key=lambda r: r.number):
            games = sorted(round_.games, key=lambda g: g.table)
            rounds.append(tuple(tuple(seat.player for seat in sorted(game.seats, key=lambda s: s.seat))
                                for game in games))
            byes.update(round_.byes)
        if until is not None and stage.id == until.id:
            break
    return SeatingHistory(rounds=tuple(rounds), byes=dict(byes))


def players_to_seat(tournament: Tournament, stage: Stage) -> tuple[str, ...]:
    """The stage's ``players``; when omitted, everyone in its rounds; for a stage without rounds,
    everyone in the file (the first stage) or whoever the previous stage advances [ours]. Never a
    player disqualified from the tournament (docs/rules/tournament.md)."""
    out = tuple(stage.players) if stage.players is not None else _listed_to_seat(tournament, stage)
    disqualified = tournament.disqualified()
    return tuple(pid for pid in out if pid not in disqualified) if disqualified else out


def _listed_to_seat(tournament: Tournament, stage: Stage) -> tuple[str, ...]:
    if stage.rounds:
        return tuple(stage.participants())
    index = tournament.stage_index(stage.id)
    if index == 0:
        return tuple(player.id for player in tournament.players)
    return compute_standings(tournament, tournament.stages[index - 1].id).advance


ZVEZDY_METHODS = frozenset({SeatingMethod.SWISS_ZVEZDY, SeatingMethod.SWISS_ZVEZDY_SPREAD})


def swiss_order(tournament: Tournament, stage: Stage, method: SeatingMethod) -> tuple[str, ...]:
    """Players best first for the Swiss methods (docs/rules/seating-methods.md).

    ``swiss_tens``: the stage's current standings (its tie-break chain included).
    ``swiss_zvezdy`` (and ``swiss_zvezdy_spread``): the stage's key — in qualifying the extra points (circle
    marks + judge's mark + best move), otherwise the points — with ties in standings order. Guests, who are not
    ranked, go to the bottom in id order.
    """
    players = players_to_seat(tournament, stage)
    standings = compute_standings(tournament, stage.id)
    ranked = [row for row in standings.rows if row.player in set(players)]
    if method in ZVEZDY_METHODS and tournament.stage_kind(stage) is StageKind.QUALIFYING:
        def extra_key(player: str) -> Fraction:
            row = standings.row(player)
            assert row is not None
            return sum((s.points.circles + s.points.extra + s.points.best_move for s in row.tally.seats),
                       Fraction(0))

        ranked.sort(key=lambda row: -extra_key(row.player))  # stable: ties keep standings order
    order = [row.player for row in ranked]
    rest = sorted(set(players) - set(order))
    return (*order, *rest)


@dataclass(frozen=True)
class PlannedBlock:
    stage: str
    first_round: int
    rounds: list[PlannedRound]

    def to_json(self) -> dict[str, object]:
        """The ``seat`` command's output (docs/command-line.md)."""
        return {
            "stage": self.stage,
            "rounds": [
                {"round": self.first_round + index,
                 "tables": [{"table": number, "seats": list(table)}
                            for number, table in enumerate(planned.tables, start=1)],
                 "byes": list(planned.byes)}
                for index, planned in enumerate(self.rounds)
            ],
        }


def plan_rounds(tournament: Tournament, stage_id: str, method: SeatingMethod, *, seed: int = 0,
                tables: int | None = None, rounds: int = 1, keep_apart: tuple[tuple[str, str], ...] = (),
                progress: Callable[[float], None] | None = None) -> PlannedBlock:
    """Plan the next ``rounds`` rounds of a stage with ``method`` from the whole history."""
    stage = tournament.stage(stage_id)
    ruleset, _ = ruleset_for(tournament)
    swiss = METHODS[method.value].swiss
    request = SeatingRequest(
        players=players_to_seat(tournament, stage),
        table_size=ruleset.params.table_size,
        method=method.value,
        history=seating_history(tournament),
        rounds=rounds,
        seed=seed,
        tables=tables,
        order=swiss_order(tournament, stage, method) if swiss else None,
        teams={p.id: p.team for p in tournament.players if p.team is not None},
        keep_apart=keep_apart,
        max_byes=ruleset.params.max_byes,
        guests=frozenset(p.id for p in tournament.players if p.guest),
    )
    first = max((r.number for r in stage.rounds), default=0) + 1
    return PlannedBlock(stage.id, first, plan(request, progress))


def seating_report(tournament: Tournament, stage_id: str | None = None) -> dict[str, object]:
    """The ``seating-report`` figures for one stage's rounds, or for the whole tournament."""
    ruleset, _ = ruleset_for(tournament)
    if stage_id is None:
        history = seating_history(tournament)
    else:
        stage = tournament.stage(stage_id)
        only = Tournament(ruleset=tournament.ruleset, players=tournament.players, stages=(stage,))
        history = seating_history(only)
    return report(history.rounds, table_size=ruleset.params.table_size,
                  teams={p.id: p.team for p in tournament.players if p.team is not None})
