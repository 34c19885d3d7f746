"""Players as indices and what the history says about them: meetings, seats, tables, byes.

Everything the algorithms touch is a list of ints indexed by player, so the inner loops of the
search stay cheap; ids come back only at the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import SeatingError, SeatingRequest

# Pair weights per meeting in a planned round: an organizer's keep-apart pair outranks
# teammates, which outrank any number of ordinary repeats.
KEEP_APART_WEIGHT = 10_000
TEAMMATE_WEIGHT = 1_000


@dataclass
class Context:
    ids: list[str]
    index: dict[str, int]
    k: int
    tables: int
    meetings: list[list[int]]  # N x N: games shared in the history
    seat_counts: list[list[int]]  # per player, per seat 0..k-1: times sat there
    table_counts: list[dict[int, int]]  # per player: physical table index -> times
    byes: list[int]
    penalty: list[dict[int, int] | None]  # per player: partner -> weight per meeting
    guests: frozenset[int] = frozenset()  # who sits out first (``SeatingRequest.guests``)

    @property
    def n(self) -> int:
        return len(self.ids)


def build_context(request: SeatingRequest) -> Context:
    ids = list(request.players)
    if len(set(ids)) != len(ids):
        raise SeatingError("a player is listed twice in the players to seat")
    k = request.table_size
    if k < 2:
        raise SeatingError(f"table size must be at least 2, not {k}")
    if request.rounds < 1:
        raise SeatingError(f"rounds must be at least 1, not {request.rounds}")
    fit = len(ids) // k
    tables = fit if request.tables is None else request.tables
    if tables < 1 or tables > fit:
        raise SeatingError(
            f"{len(ids)} players fill at most {fit} table(s) of {k}; cannot seat {tables} table(s)"
            + (f": add {k - len(ids)} guest(s) to fill one table" if fit == 0 else "")
        )
    index = {p: i for i, p in enumerate(ids)}
    n = len(ids)
    meetings = [[0] * n for _ in range(n)]
    seat_counts = [[0] * k for _ in range(n)]
    table_counts: list[dict[int, int]] = [{} for _ in range(n)]
    for rnd in request.history.rounds:
        for t, table in enumerate(rnd):
            here = [index[p] for p in table if p in index]
            for s, p in enumerate(table):
                i = index.get(p)
                if i is None:
                    continue
                if s < k:
                    seat_counts[i][s] += 1
                table_counts[i][t] = table_counts[i].get(t, 0) + 1
            for x in here:
                row = meetings[x]
                for y in here:
                    if x != y:
                        row[y] += 1
    byes = [int(request.history.byes.get(p, 0)) for p in ids]
    penalty: list[dict[int, int] | None] = [None] * n

    def add(a: int, b: int, w: int) -> None:
        for x, y in ((a, b), (b, a)):
            d = penalty[x]
            if d is None:
                d = penalty[x] = {}
            d[y] = max(d.get(y, 0), w)

    by_team: dict[str, list[int]] = {}
    for p, team in request.teams.items():
        if p in index:
            by_team.setdefault(team, []).append(index[p])
    for members in by_team.values():
        for i, a in enumerate(members):
            for b in members[i + 1 :]:
                add(a, b, TEAMMATE_WEIGHT)
    for a_id, b_id in request.keep_apart:
        if a_id in index and b_id in index and a_id != b_id:
            add(index[a_id], index[b_id], KEEP_APART_WEIGHT)
    guests = frozenset(index[p] for p in request.guests if p in index)
    return Context(ids, index, k, tables, meetings, seat_counts, table_counts, byes, penalty, guests)
