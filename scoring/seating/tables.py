"""Physical tables: which group plays at table 1, 2, ... (docs/seating.md, layer 3).

One assignment per round (group -> table) against each player's table history, so players
spread over the physical tables. Exact (Hungarian) up to 30 tables; beyond that a greedy start
and pairwise exchanges, which are near exact there and keep 100 tables fast.
"""

from __future__ import annotations

from .hungarian import assign

EXACT_LIMIT = 30


def place_round(groups: list[list[int]], table_counts: list[dict[int, int]]) -> list[list[int]]:
    """Reorder `groups` into physical table order and record the use in `table_counts`."""
    g = len(groups)
    cost = [[float(sum(table_counts[p].get(t, 0) for p in members)) for t in range(g)] for members in groups]
    cols = assign(cost) if g <= EXACT_LIMIT else _exchange(cost)
    placed: list[list[int]] = [[] for _ in range(g)]
    for i, members in enumerate(groups):
        placed[cols[i]] = members
        for p in members:
            table_counts[p][cols[i]] = table_counts[p].get(cols[i], 0) + 1
    return placed


def _exchange(cost: list[list[float]]) -> list[int]:
    g = len(cost)
    cols = list(range(g))
    improved = True
    rounds = 0
    while improved and rounds < 20:
        improved = False
        rounds += 1
        for i in range(g):
            for j in range(i + 1, g):
                a, b = cols[i], cols[j]
                if cost[i][b] + cost[j][a] < cost[i][a] + cost[j][b]:
                    cols[i], cols[j] = b, a
                    improved = True
    return cols
