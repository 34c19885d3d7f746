"""Seat numbers inside each table (docs/seating.md, layer 2; docs/rules/seating-methods.md `balanced` (3)).

A player's seats over a block are a proper edge colouring of the bipartite graph players x
(round, table); by Kőnig's theorem k colours suffice when the block has at most k rounds, so
nobody repeats a seat. We start from such a colouring, then re-solve one table of one round at a
time as an assignment problem against each player's seats in every other round (history
included): a repeat costs far more than any imbalance of early (1-3), middle and late seats, so
the passes only ever trade balance, never repeats, once the colouring has none.
"""

from __future__ import annotations

import random

from .context import Context
from .hungarian import assign

REPEAT_WEIGHT = 100.0
THIRD_WEIGHT = 4.0


def third_of(seat: int, k: int) -> int:
    """0 early (seats 1-3), 2 late (the last three), 1 middle; seat is 0-based."""
    if seat < 3:
        return 0
    return 2 if seat >= k - 3 else 1


def third_sizes(k: int) -> list[int]:
    sizes = [0, 0, 0]
    for s in range(k):
        sizes[third_of(s, k)] += 1
    return sizes


def colour(rounds: list[list[list[int]]], n: int, k: int) -> list[list[list[int]]]:
    """Kőnig edge colouring: per round and table, the players in seat order (colour = seat)."""
    g_total = sum(len(tables) for tables in rounds)
    at = [[-1] * k for _ in range(n + g_total)]  # node -> colour -> neighbour
    nodes: list[tuple[int, int]] = []
    for r, tables in enumerate(rounds):
        for t, members in enumerate(tables):
            v = n + len(nodes)
            nodes.append((r, t))
            for u in members:
                alpha = at[u].index(-1)
                beta = at[v].index(-1)
                if at[v][alpha] != -1:
                    # swap alpha/beta along the path from v; it cannot reach u (bipartite)
                    path = [v]
                    c = alpha
                    x = v
                    while at[x][c] != -1:
                        x = at[x][c]
                        path.append(x)
                        c = beta if c == alpha else alpha
                    for i in range(len(path) - 1):
                        a, b = path[i], path[i + 1]
                        c_old = alpha if i % 2 == 0 else beta
                        if at[a][c_old] == b:
                            at[a][c_old] = -1
                        if at[b][c_old] == a:
                            at[b][c_old] = -1
                    for i in range(len(path) - 1):
                        a, b = path[i], path[i + 1]
                        c_new = beta if i % 2 == 0 else alpha
                        at[a][c_new] = b
                        at[b][c_new] = a
                at[u][alpha] = v
                at[v][alpha] = u
    out: list[list[list[int]]] = [[[] for _ in tables] for tables in rounds]
    for i, (r, t) in enumerate(nodes):
        out[r][t] = list(at[n + i])
    return out


def assign_seats(
    ctx: Context, rounds: list[list[list[int]]], rng: random.Random, passes: int = 4
) -> list[list[list[int]]]:
    """Order every table of the block by seat; history seats count as already taken."""
    k, n = ctx.k, ctx.n
    sizes = third_sizes(k)
    counts = [row[:] for row in ctx.seat_counts]
    if 1 < len(rounds) <= k and all(len(m) == k for tables in rounds for m in tables):
        coloured = colour(rounds, n, k)
        # a random relabelling of seats keeps the colouring proper and the result unbiased
        perm = list(range(k))
        rng.shuffle(perm)
        seated = [[[m[perm[s]] for s in range(k)] for m in tables] for tables in coloured]
    else:
        seated = []
        for tables in rounds:
            shuffled = []
            for m in tables:
                m2 = m[:]
                rng.shuffle(m2)
                shuffled.append(m2)
            seated.append(shuffled)
        passes = max(passes, 1)
    for tables in seated:
        for m in tables:
            for s, p in enumerate(m):
                counts[p][s] += 1
    for _ in range(passes):
        changed = False
        for tables in seated:
            for t, m in enumerate(tables):
                for s, p in enumerate(m):
                    counts[p][s] -= 1
                cost = []
                for p in m:
                    row = counts[p]
                    games = sum(row) + 1
                    thirds = [0, 0, 0]
                    for s in range(k):
                        thirds[third_of(s, k)] += row[s]
                    dev = [2 * (thirds[x] - games * sizes[x] / k) + 1 for x in range(3)]
                    cost.append([REPEAT_WEIGHT * row[s] + THIRD_WEIGHT * dev[third_of(s, k)] for s in range(k)])
                cols = assign(cost)
                new = [0] * k
                for i, p in enumerate(m):
                    new[cols[i]] = p
                    counts[p][cols[i]] += 1
                if new != m:
                    tables[t] = new
                    changed = True
        if not changed:
            break
    return seated
