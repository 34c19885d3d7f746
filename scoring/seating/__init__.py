"""The seating engine: pure functions on plain data (docs/rules/seating-methods.md, docs/seating.md).

    plan(request: SeatingRequest, progress=None) -> list[PlannedRound]
    report(history_rounds, players=None, table_size=None, teams=None, keep_apart=()) -> dict
    bye_feasibility(players, table_size, rounds, max_byes) -> str | None
    shape_bound(players, table_size, rounds, tables=None) -> int

A `SeatingRequest` names the players to seat now (guests included), the table size, the method
id (`random`, `balanced`, `swiss_tens`, `swiss_zvezdy`; see `METHODS`), the history (every
earlier round of every stage, tables in physical order and players in seat order, plus the byes
each player has had), how many rounds to plan together, a seed, optionally the number of tables,
the order best first (Swiss methods; the caller computes standings or the stage key), teams and
keep-apart pairs, and the bye limit. The same request always gives the same plan.

Each `PlannedRound` lists tables in physical order (table 1 first), each in seat order (seat 1
first), and the byes. Byes go to those with the fewest byes so far (Swiss: from the bottom of the
order), never past `max_byes`; when that is impossible `ByeLimitError` (a `SeatingError`, itself
a `ValueError`) says so. Swiss methods seat one round at a time (`rounds` must be 1).

`balanced` searches who sits together (pair cost C(m,2) + 30 C(m,3)), then seats (no repeated
seat number while rounds <= table size where the history allows; early 1-3, middle and late
seats spread), then physical tables; `progress` gets fractions in [0, 1] during the search.
"""

from __future__ import annotations

from .bounds import shape_bound
from .byes import bye_feasibility
from .model import ByeLimitError, PlannedRound, SeatingError, SeatingHistory, SeatingRequest
from .plan import plan
from .registry import METHODS, SeatingAlgorithm, register
from .report import report

__all__ = [
    "METHODS",
    "ByeLimitError",
    "PlannedRound",
    "SeatingAlgorithm",
    "SeatingError",
    "SeatingHistory",
    "SeatingRequest",
    "bye_feasibility",
    "plan",
    "register",
    "report",
    "shape_bound",
]
