"""`random` and `balanced` (docs/rules/seating-methods.md)."""

from __future__ import annotations

import random

from .anneal import PairSearch, greedy_round
from .bounds import round_pair_bound
from .byes import choose_byes
from .construct import cyclic_rounds, exact_block, relabel, search_offsets
from .context import Context
from .model import SeatingRequest
from .registry import IndexRound, Progress, SeatingAlgorithm, register
from .replay import replay_round
from .seats import assign_seats
from .tables import place_round


def block_byes(request: SeatingRequest, ctx: Context, rng: random.Random | None, order: list[int]) -> list[list[int]]:
    """Byes for each round of the block, the fewest-byes rule applied round after round."""
    byes = ctx.byes[:]
    count = ctx.n - ctx.tables * ctx.k
    out = []
    for _ in range(request.rounds):
        chosen = choose_byes(order, count, byes, request.max_byes, rng, ctx.guests)
        for p in chosen:
            byes[p] += 1
        out.append(chosen)
    return out


@register
class RandomSeating(SeatingAlgorithm):
    """docs/rules/seating-methods.md `random`: uniform random tables and seats, repeatable by the seed.

    Byes (that page's "Byes") go to those with the fewest byes so far, ties drawn at random.
    """

    id = "random"

    def seat(
        self, request: SeatingRequest, ctx: Context, rng: random.Random, progress: Progress | None
    ) -> list[IndexRound]:
        out: list[IndexRound] = []
        for byes in block_byes(request, ctx, rng, list(range(ctx.n))):
            off = set(byes)
            seated = [p for p in range(ctx.n) if p not in off]
            rng.shuffle(seated)
            k = ctx.k
            out.append(([seated[t * k : (t + 1) * k] for t in range(ctx.tables)], sorted(byes)))
        return out


def block_bound(ctx: Context, seated: list[list[int]], history_rounds: int) -> int:
    """Lower bound on the search cost: history pairs as they are, the pigeonhole bound for
    every pair of rounds that involves a planned round (docs/seating.md)."""
    if ctx.penalty and any(ctx.penalty):
        return 0  # constraints change the cost; no bound claimed
    fixed = sum(m * (m - 1) // 2 for row in ctx.meetings for m in row) // 2
    if history_rounds:
        return fixed  # a cheap valid bound; the exact one would need the history's groups
    k, g = ctx.k, ctx.tables
    total = 0
    for j in range(len(seated)):
        for i in range(j):
            free = len(set(seated[j]) - set(seated[i]))
            total += round_pair_bound([k] * g, free, [k] * g)
    return total


@register
class BalancedSeating(SeatingAlgorithm):
    """docs/rules/seating-methods.md `balanced` ("computer sample"): over the tournament so far, fewest second
    byes, then the fewest times any pair meets, then the fewest repeated meetings, then
    repeated seat numbers, with early (1-3), middle and late seats spread evenly; players also
    spread over the physical tables. Teammates and keep-apart pairs are kept apart first.
    """

    id = "balanced"

    def seat(
        self, request: SeatingRequest, ctx: Context, rng: random.Random, progress: Progress | None
    ) -> list[IndexRound]:
        replayed = replay_round(request, ctx, rng, progress)
        if replayed is not None:
            return [replayed]
        return self._block(request, ctx, rng, progress)

    def _block(
        self, request: SeatingRequest, ctx: Context, rng: random.Random, progress: Progress | None
    ) -> list[IndexRound]:
        n, k, g = ctx.n, ctx.k, ctx.tables
        all_byes = block_byes(request, ctx, rng, list(range(n)))
        seated = [[p for p in range(n) if p not in set(b)] for b in all_byes]
        fresh = not any(any(row) for row in ctx.meetings)
        no_constraints = not any(ctx.penalty)
        rounds: list[list[list[int]]]
        effort = max(request.effort, 0.0)
        target_rounds = len(seated)
        history_rounds = 0 if fresh else len(request.history.rounds)
        target = block_bound(ctx, [s for s in seated], history_rounds)
        if fresh and no_constraints and n == g * k and target_rounds > 1:
            labels = list(range(n))
            rng.shuffle(labels)
            exact = exact_block(g, k, target_rounds)
            if exact is not None:
                rounds = relabel(exact, labels)
            else:
                xor = g >= 4 and g & (g - 1) == 0  # (Z_2)^m does better than Z_g there
                first_half = None if progress is None else lambda x: progress(x / 2)
                f = search_offsets(g, k, target_rounds, int(1_000_000 * effort), rng, target, xor, first_half)
                rounds = cyclic_rounds(labels, g, k, f, xor)
        else:
            scratch = [row[:] for row in ctx.meetings]
            rounds = [greedy_round(ctx, scratch, s, rng) for s in seated]
        search = PairSearch(ctx, rounds)
        moves = int(min(600_000, max(150_000, 2_000 * n * len(rounds))) * effort)
        search.anneal(moves, rng, target, None if progress is None else lambda x: progress(0.5 + x / 2))
        seats = assign_seats(ctx, search.rounds[:target_rounds], rng)
        counts = [dict(c) for c in ctx.table_counts]
        out: list[IndexRound] = []
        for tables, byes in zip(seats, all_byes, strict=True):
            out.append((place_round(tables, counts), sorted(byes)))
        return out
