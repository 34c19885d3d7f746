"""The pigeonhole lower bound on repeated meetings (docs/seating.md, "Provable limits").

Q = sum over pairs of C(m, 2) counts, for every two rounds, the pairs that met in both. Take two
rounds: a table of the later round draws its players from the groups of the earlier one (its
tables, plus a free pool of players who did not play it), so at least sum C(x_i, 2) of its pairs
met before, with the x_i spread as evenly as the group sizes allow.
"""

from __future__ import annotations

from math import comb


def table_bound(size: int, groups: list[int], free: int) -> int:
    """Fewest old pairs a table of `size` can hold, drawing from groups of these sizes."""
    left = size - min(size, free)
    taken = [0] * len(groups)
    cost = 0
    for _ in range(left):
        best = -1
        for i, cap in enumerate(groups):
            if taken[i] < cap and (best < 0 or taken[i] < taken[best]):
                best = i
        if best < 0:  # not enough players: the shape is impossible; the bound stays valid
            break
        cost += taken[best]  # adding one more to a group of x makes x new old pairs
        taken[best] += 1
    return cost


def round_pair_bound(earlier: list[int], free: int, later: list[int]) -> int:
    """Bound for one pair of rounds: earlier group sizes, the free pool, later table sizes.

    The free players (off the earlier round) are shared by the later tables: each table's bound
    is convex in how many it gets, so handing them out one at a time where they save the most
    gives the least total.
    """
    costs = [[table_bound(t - z, earlier, 0) for z in range(min(t, free) + 1)] for t in later]
    given = [0] * len(later)
    total = sum(c[0] for c in costs)
    for _ in range(free):
        best, gain = -1, 0
        for i, c in enumerate(costs):
            if given[i] + 1 < len(c) and c[given[i]] - c[given[i] + 1] > gain:
                best, gain = i, c[given[i]] - c[given[i] + 1]
        if best < 0:
            break
        given[best] += 1
        total -= gain
    return total


def shape_bound(players: int, table_size: int, rounds: int, tables: int | None = None) -> int:
    """Lower bound on Q for `rounds` rounds of `players` at full tables, nobody absent.

    With byes the players off a round form the free pool of the bound for that pair of rounds.
    """
    g = players // table_size if tables is None else tables
    if g < 1:
        return 0
    rest = players - g * table_size
    per_pair = round_pair_bound([table_size] * g, rest, [table_size] * g)
    return comb(rounds, 2) * per_pair
