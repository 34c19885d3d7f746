"""A stage's team table and the team competition's cut (docs/rules/tournament.md, "Teams"; tomsk 4.5).

A team's score is the sum of the stage points of its ranked members. Where the ruleset runs a team
competition (``Ruleset.team_advance``), the teams still in it (the contenders) are ranked first and
the best ``cut`` of them go on; an unbroken tie at the cut lets every tied team through, as for players.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .model import Tournament


@dataclass(frozen=True)
class TeamRow:
    rank: int
    team: str
    name: str
    points: Fraction
    # Still in the team competition: every team in a first stage, later those the last team cut sent on.
    contending: bool = True
    advances: bool = False


@dataclass(frozen=True)
class TeamTable:
    rows: tuple[TeamRow, ...] | None  # None: the tournament has no teams
    cut: int | None = None  # how many teams this stage sends on; None: no team cut here
    advance: tuple[str, ...] = ()  # the teams going on, in table order
    best: tuple[str, ...] = ()  # the contenders sharing the best rank


def team_table(tournament: Tournament, points: Mapping[str, Fraction], cut: int | None,
               contenders: Collection[str] | None, has_result: bool) -> TeamTable:
    """The team table of a stage from the stage points of its ranked players.

    ``contenders``: the teams still in the team competition (None: all). Teams go on only once the
    stage has a game with a result: before that every team would tie on zero.
    """
    if not tournament.teams:
        return TeamTable(None)
    team_of = {p.id: p.team for p in tournament.players if p.team is not None}
    totals = {team.id: Fraction(0) for team in tournament.teams}
    for player, value in points.items():
        team = team_of.get(player)
        if team in totals:
            totals[team] += value
    names = {team.id: team.name for team in tournament.teams}
    contending = {tid for tid in totals if contenders is None or tid in contenders}
    # Contenders first, each part best first; ids settle the order of equal totals, not the rank.
    ordered = sorted(totals, key=lambda tid: (tid not in contending, -totals[tid], tid))
    rows: list[TeamRow] = []
    for index, tid in enumerate(ordered):
        last = rows[-1] if rows else None
        same = last is not None and last.points == totals[tid] and last.contending == (tid in contending)
        rank = last.rank if same and last is not None else index + 1
        advances = cut is not None and has_result and tid in contending and rank <= cut
        rows.append(TeamRow(rank, tid, names[tid], totals[tid], tid in contending, advances))
    best = tuple(row.team for row in rows if row.contending and row.rank == 1)
    return TeamTable(tuple(rows), cut, tuple(row.team for row in rows if row.advances), best)


def cut_line_after(rows: tuple[TeamRow, ...] | None) -> int | None:
    """How many rows of the team table sit above the cut line; None: no line (nobody goes on, or all do)."""
    going = sum(1 for row in rows or () if row.advances)
    if not rows or not going or going == len(rows) or not all(row.advances for row in rows[:going]):
        return None
    return going
