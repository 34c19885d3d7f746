"""Who sits together: greedy fill, then simulated annealing over swaps (docs/seating.md, layer 1).

The cost of a pair that met m times is C(m, 2) + 30 C(m, 3), so the search lowers the most any
pair meets first and the repeated meetings second (docs/rules/seating-methods.md, `balanced`). Pairs the organizer
keeps apart and teammates add their weight per meeting. A swap of two players at different
tables of one round changes only their meetings with the two tables, so its cost is computed in
O(k) from the meetings matrix, never by recomputing the whole cost.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from .context import Context

Tables = list[list[int]]  # one round: tables of player indices


def pair_weight(m: int) -> int:
    return m * (m - 1) // 2 + 30 * (m * (m - 1) * (m - 2) // 6)


class PairSearch:
    """Block rounds under search, with the meetings matrix kept up to date."""

    def __init__(self, ctx: Context, rounds: list[Tables]) -> None:
        self.ctx = ctx
        self.rounds = rounds
        self.base = ctx.meetings
        depth = max((max(row, default=0) for row in self.base), default=0) + len(rounds) + 3
        self.inc = [pair_weight(m + 1) - pair_weight(m) for m in range(depth)]
        self.tab: list[list[int]] = []
        self.seated: list[list[int]] = []
        self.rebuild()

    def rebuild(self) -> None:
        self.meetings = [row[:] for row in self.base]
        self.tab = []
        self.seated = []
        for tables in self.rounds:
            tab = [-1] * self.ctx.n
            for t, members in enumerate(tables):
                for p in members:
                    tab[p] = t
                self._meet(members, 1)
            self.tab.append(tab)
            self.seated.append([p for members in tables for p in members])

    def _meet(self, members: list[int], step: int) -> None:
        m = self.meetings
        for x in members:
            row = m[x]
            for y in members:
                if x != y:
                    row[y] += step

    def cost(self) -> int:
        m = self.meetings
        total = 0
        for p in range(self.ctx.n):
            row = m[p]
            pen = self.ctx.penalty[p]
            for q in range(p + 1, self.ctx.n):
                if row[q] > 1:
                    total += pair_weight(row[q])
            if pen:
                total += sum(w * row[q] for q, w in pen.items() if q > p)
        return total

    def delta(self, r: int, a: int, b: int) -> int:
        tab = self.tab[r]
        table_a = self.rounds[r][tab[a]]
        table_b = self.rounds[r][tab[b]]
        inc = self.inc
        ma = self.meetings[a]
        mb = self.meetings[b]
        d = 0
        for x in table_a:
            if x != a:
                d += inc[mb[x]] - inc[ma[x] - 1]
        for y in table_b:
            if y != b:
                d += inc[ma[y]] - inc[mb[y] - 1]
        pen = self.ctx.penalty
        pa, pb = pen[a], pen[b]
        if pa:
            d += sum(pa.get(y, 0) for y in table_b if y != b) - sum(pa.get(x, 0) for x in table_a)
        if pb:
            d += sum(pb.get(x, 0) for x in table_a if x != a) - sum(pb.get(y, 0) for y in table_b)
        return d

    def swap(self, r: int, a: int, b: int) -> None:
        tab = self.tab[r]
        ta, tb = tab[a], tab[b]
        table_a = self.rounds[r][ta]
        table_b = self.rounds[r][tb]
        m = self.meetings
        ma, mb = m[a], m[b]
        for x in table_a:
            if x != a:
                ma[x] -= 1
                m[x][a] -= 1
                mb[x] += 1
                m[x][b] += 1
        for y in table_b:
            if y != b:
                mb[y] -= 1
                m[y][b] -= 1
                ma[y] += 1
                m[y][a] += 1
        table_a[table_a.index(a)] = b
        table_b[table_b.index(b)] = a
        tab[a], tab[b] = tb, ta

    def conflicted(self, r: int, a: int) -> bool:
        ma = self.meetings[a]
        table = self.rounds[r][self.tab[r][a]]
        if any(ma[x] > 1 for x in table):
            return True
        pa = self.ctx.penalty[a]
        return bool(pa) and any(x in pa for x in table)  # type: ignore[operator]

    def anneal(
        self,
        moves: int,
        rng: random.Random,
        target: int,
        progress: Callable[[float], None] | None = None,
        epoch: int = 0,
        hot: float = 1.2,
        cold: float = 0.08,
    ) -> int:
        """Run up to `moves` swaps; stop at `target` (a lower bound). Returns the best cost."""
        active = [r for r, tables in enumerate(self.rounds) if len(tables) > 1]
        current = self.cost()
        best = current
        if not active or best <= target:
            return best
        best_rounds = [[t[:] for t in tables] for tables in self.rounds]
        epoch = epoch or max(20_000, 40 * self.ctx.n * len(active))
        temp = hot
        done = 0
        rand = rng.random
        while done < moves:
            for step in range(min(epoch, moves - done)):
                if step % 256 == 0:
                    temp = hot * (cold / hot) ** (step / epoch)
                r = active[int(rand() * len(active))]
                seated = self.seated[r]
                tab = self.tab[r]
                a = seated[int(rand() * len(seated))]
                for _ in range(3):  # aim most moves at players who meet someone again
                    if self.conflicted(r, a):
                        break
                    a = seated[int(rand() * len(seated))]
                b = a
                while tab[b] == tab[a]:
                    b = seated[int(rand() * len(seated))]
                d = self.delta(r, a, b)
                if d <= 0 or rand() < math.exp(-d / temp):
                    self.swap(r, a, b)
                    current += d
                    if current < best:
                        best = current
                        best_rounds = [[t[:] for t in tables] for tables in self.rounds]
                        if best <= target:
                            return best
            done += min(epoch, moves - done)
            if progress is not None:
                progress(done / moves)
            if current > best:  # the next epoch restarts from the best so far
                self.rounds[:] = [[t[:] for t in tables] for tables in best_rounds]
                self.rebuild()
                current = best
        self.rounds[:] = best_rounds
        self.rebuild()
        return best


def greedy_round(
    ctx: Context, meetings: list[list[int]], seated: list[int], rng: random.Random
) -> Tables:
    """Seat players one by one (random order) at the open table where they add the least cost."""
    k, g = ctx.k, len(seated) // ctx.k
    order = seated[:]
    rng.shuffle(order)
    tables: Tables = [[] for _ in range(g)]
    if len(seated) * g > 20_000:  # large shapes: random start, the search does the rest
        return [order[t * k : (t + 1) * k] for t in range(g)]
    for p in order:
        row = meetings[p]
        pen = ctx.penalty[p]
        best_t, best_c = -1, 0
        for t, members in enumerate(tables):
            if len(members) >= k:
                continue
            c = sum(row[x] * (row[x] + 1) for x in members)  # ~ the added C(m,2), steeper with m
            if pen:
                c += 2 * sum(pen.get(x, 0) for x in members)
            if best_t < 0 or c < best_c or (c == best_c and len(members) < len(tables[best_t])):
                best_t, best_c = t, c
        tables[best_t].append(p)
        for x in tables[best_t]:
            if x != p:
                row[x] += 1
                meetings[x][p] += 1
    return tables
