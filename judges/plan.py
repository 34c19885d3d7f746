"""Who judges which table of a round: the allocation the judges page's "Allocate" fills the grid with.

Pure Python, no database and no Django: the service (``judges.services.allocation.proposal``) gathers the facts,
this module decides, its unit tests (tests/judges/test_judge_plan.py) hold the rules:

- a judge never sits at a table where they are barred: a player there is linked to their account, or is a
  teammate or a kept-apart partner of the judge's own player entry (the service says which, in words);
- nobody is on two tables; a table kept for a judge in every round of the stage keeps them (``fixed``), and that
  judge is on no other table;
- as many tables as possible get a judge; among the allocations that fill the most tables, the one with the least
  cost: a judge at a table they already judged in the stage costs ``REPEAT`` for each time (judges move round
  the room), each game they judged in the tournament ``LOAD`` (the work is shared), a rank below the best
  ``RANK`` a step (the best judges first, where the organizer ranks them), and the chief judge ``CHIEF`` (at the
  desk, judging a table only when no one else can);
- each table left without a judge says why: too few judges, or every judge still free is barred there (with
  each one's reasons).

The solution is exact: a minimum-cost assignment (the Hungarian method, O(n³), n the larger of the tables and
the judges: a large event's grid is quick, bench/README.md), ties broken by the order of the tables and the judges
given, so the same facts give the same grid.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scoring.seating.hungarian import assign

REPEAT = 100  # a table judged before in the stage, each time
LOAD = 10  # a game judged before in the tournament, each one
RANK = 1  # a step below the best rank
CHIEF = 10_000  # the chief judge, at the desk: a table only where nobody else can go
BARRED = 10**9  # never: a barred judge, or no judge at all (a dummy), leaves the table empty


@dataclass(frozen=True)
class Judge:
    id: int
    rank: int | None = None  # 1 the best; None: not ranked
    chief: bool = False
    judged: int = 0  # games judged in the tournament before this round


@dataclass(frozen=True)
class Facts:
    tables: Sequence[int]  # the round's table numbers, in order
    judges: Sequence[Judge]  # every judge who may be allocated, in the order ties are broken
    barred: Mapping[int, Mapping[int, Sequence[str]]] = field(default_factory=dict)  # table → judge → reasons
    before: Mapping[tuple[int, int], int] = field(default_factory=dict)  # (judge, table) → times in the stage
    fixed: Mapping[int, int] = field(default_factory=dict)  # table → the judge who hosts it in every round


@dataclass(frozen=True)
class Unfilled:
    table: int
    free: int  # judges not at another table
    barred: Mapping[int, Sequence[str]]  # of those, each barred one with their reasons (all of them: none fits)


@dataclass(frozen=True)
class Plan:
    chosen: dict[int, int | None]  # table → judge, or None
    unfilled: list[Unfilled]


def cost(judge: Judge, table: int, facts: Facts, best_rank: int | None) -> int:
    if judge.id in facts.barred.get(table, {}):
        return BARRED
    value = REPEAT * facts.before.get((judge.id, table), 0) + LOAD * judge.judged
    if judge.rank is not None and best_rank is not None:
        value += RANK * (judge.rank - best_rank)
    elif best_rank is not None:  # ranked judges come before those the organizer did not rank
        value += RANK * 1000
    return value + (CHIEF if judge.chief else 0)


def allocate(facts: Facts) -> Plan:
    """The round's grid: each table's judge (None: left empty) and why each empty table is empty."""
    fixed = {t: j for t, j in facts.fixed.items() if t in set(facts.tables)}
    tables = [t for t in facts.tables if t not in fixed]
    judges = [j for j in facts.judges if j.id not in set(fixed.values())]
    ranks = [j.rank for j in judges if j.rank is not None]
    best = min(ranks) if ranks else None
    matrix = [[cost(j, t, facts, best) for j in judges] for t in tables]
    columns = assignment(matrix, len(judges))
    chosen: dict[int, int | None] = {t: None for t in facts.tables}
    chosen.update(fixed)
    for row, table in enumerate(tables):
        column = columns[row]
        if column is not None and matrix[row][column] < BARRED:
            chosen[table] = judges[column].id
    used = {j for j in chosen.values() if j is not None}
    free = [j for j in facts.judges if j.id not in used]
    unfilled = [Unfilled(t, len(free), {j.id: list(facts.barred.get(t, {})[j.id]) for j in free
                                        if j.id in facts.barred.get(t, {})})
                for t in facts.tables if chosen[t] is None]
    return Plan(chosen, unfilled)


def assignment(matrix: list[list[int]], columns: int) -> list[int | None]:
    """Each row's column in a minimum-cost assignment (a column at most once); rows beyond the columns get None.
    ``scoring``'s Hungarian method (the seating's) on the matrix padded square with ``BARRED`` (dummy rows or
    columns)."""
    rows = len(matrix)
    n = max(rows, columns)
    if n == 0:
        return []
    padded = [[matrix[r][c] if r < rows and c < columns else BARRED for c in range(n)] for r in range(n)]
    return [column if column < columns else None for column in assign(padded)[:rows]]
