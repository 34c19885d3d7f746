"""The seating figures of a stage so far, for the public seating page.

Computed by ``scoring`` from the stage's published seating up to the round shown (every table as
seated, whether its protocol is in yet or not, as the organizer's round page counts them):
``scoring.seating.report`` over those rounds and ``seating.shape_bound`` for that many rounds of
the shown round's shape. They describe the seating, not results, so hidden standings do not hide
them, and they are kept in the shared cache under the seating itself: a result saved does not
have them computed again (over a second for a large stage: bench/README.md).
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache

from base.release import release
from scoring import model as m
from scoring.seating import report, shape_bound
from tournaments.models import Seat, Stage

FIGURES_SECONDS = 24 * 3600


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


def stage_figures(model: m.Tournament, stage: Stage, upto: int, table_size: int) -> StageFigures | None:
    """Figures over the stage's published rounds numbered up to ``upto``; None before any of them."""
    rows = Seat.objects.published().filter(round__stage=stage, round__number__lte=upto)
    rounds: dict[int, dict[int, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    for number, table, seat, player in rows.values_list("round__number", "table__number", "number",
                                                          "participant__ext_id"):
        rounds[number][table].append((seat, player))
    if not rounds:
        return None
    history = tuple(tuple(tuple(p for _seat, p in sorted(tables[t])) for t in sorted(tables))
                    for _number, tables in sorted(rounds.items()))
    last = max(rounds)
    byes = next((len(r.byes) for r in model.stage(stage.ext_id).rounds if r.number == last), 0)
    teams = {p.id: p.team for p in model.players if p.team is not None}
    seating = repr((history, sorted(teams.items()), table_size, byes)).encode()
    key = f"public-figures:{release()}:{hashlib.sha256(seating).hexdigest()}"  # the same seatings, the same figures
    figures: StageFigures | None = cache.get(key)
    if figures is None:
        figures = compute(history, teams, table_size, byes)
        cache.set(key, figures, FIGURES_SECONDS)
    return figures


def compute(history: tuple[tuple[tuple[str, ...], ...], ...], teams: dict[str, str], table_size: int,
            byes: int) -> StageFigures:
    """The figures of these rounds (tables in order, players in seat order); ``byes`` of the last."""
    found: dict[str, Any] = report(history, table_size=table_size, teams=teams)
    players = sum(len(table) for table in history[-1]) + byes
    bound = shape_bound(players, table_size, len(history), len(history[-1]) or None) if players >= table_size else 0
    early = found["seat_spread"].get("early", {"min": 0, "max": 0})
    return StageFigures(
        rounds=len(history), pairs_twice=found["pairs_met_twice_or_more"], max_meetings=found["max_meetings"],
        q=found["q"], lower_bound=found["lower_bound"], shape_bound=bound,
        seat_repeats=found["same_seat_repeats"], early_min=early["min"], early_max=early["max"],
        teammates_together=found["teammates_together"], has_teams=bool(teams),
    )
