"""The seating figures of a stage so far, for the public seating page (issue 3).

Computed by ``scoring`` from the snapshot's model (published rounds only, no extra query):
``round_planning.seating_report`` over the stage's rounds up to the one shown, and
``seating.shape_bound`` for that many rounds of the shown round's shape. They describe the
seating, not results, so hidden standings do not hide them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from scoring import model as m
from scoring.round_planning import seating_report
from scoring.seating import shape_bound


@dataclass(frozen=True)
class StageFigures:
    rounds: int
    pairs_twice: int
    max_meetings: int
    q: int
    lower_bound: int
    shape_bound: int
    seat_repeats: int
    early_min: int
    early_max: int
    teammates_together: int
    has_teams: bool


def stage_figures(model: m.Tournament, stage_id: str, upto: int, table_size: int) -> StageFigures | None:
    """Figures over the stage's rounds numbered up to ``upto``; None before any of them."""
    stage = model.stage(stage_id)
    rounds = tuple(r for r in sorted(stage.rounds, key=lambda r: r.number) if r.number <= upto)
    if not rounds:
        return None
    only = replace(model, stages=(replace(stage, rounds=rounds),))
    report: dict[str, Any] = seating_report(only, stage_id)
    last = rounds[-1]
    players = sum(len(g.seats) for g in last.games) + len(last.byes)
    bound = shape_bound(players, table_size, len(rounds), len(last.games) or None) if players >= table_size else 0
    early = report["seat_spread"].get("early", {"min": 0, "max": 0})
    return StageFigures(
        rounds=len(rounds), pairs_twice=report["pairs_met_twice_or_more"], max_meetings=report["max_meetings"],
        q=report["q"], lower_bound=report["lower_bound"], shape_bound=bound,
        seat_repeats=report["same_seat_repeats"], early_min=early["min"], early_max=early["max"],
        teammates_together=report["teammates_together"],
        has_teams=any(p.team is not None for p in model.players),
    )
