"""`swiss_tens`, `swiss_zvezdy` and `swiss_zvezdy_spread` (docs/rules/seating-methods.md): tables from the order,
best first.

The rule fixes who sits at which table (up to the zvezdy draw); the seats are chosen to avoid repeated seats. The
zvezdy draw is random as written; `swiss_zvezdy_spread`, the organizer's choice, uses it to avoid repeated meetings.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

from .anneal import pair_weight
from .byes import choose_byes
from .context import Context
from .model import SeatingError, SeatingRequest
from .registry import IndexRound, Progress, SeatingAlgorithm, register
from .seats import assign_seats

DRAW_SAMPLE = 3_000  # draws tried per table when the pool allows more


def swiss_order(request: SeatingRequest, ctx: Context) -> tuple[list[int], list[int]]:
    """The seated players best first, and the byes (guests first, then the fewest byes, from the bottom of the
    order)."""
    if request.order is None:
        raise SeatingError(f"{request.method} needs the players' order (standings, best first)")
    if request.rounds != 1:
        raise SeatingError(f"{request.method} seats one round at a time: each needs fresh standings")
    if sorted(request.order) != sorted(ctx.ids):
        raise SeatingError("the order must list exactly the players to seat, each once")
    order = [ctx.index[p] for p in request.order]
    count = ctx.n - ctx.tables * ctx.k
    byes = choose_byes(order[::-1], count, ctx.byes, request.max_byes, None, ctx.guests)
    off = set(byes)
    return [p for p in order if p not in off], sorted(byes)


@register
class SwissTens(SeatingAlgorithm):
    """docs/rules/seating-methods.md `swiss_tens`: by current standings, table 1 gets places 1-10, table 2 places
    11-20, and so on (places 1..k, k+1..2k for tables of k); seats as in `balanced`."""

    id = "swiss_tens"
    swiss = True

    def seat(
        self, request: SeatingRequest, ctx: Context, rng: random.Random, progress: Progress | None
    ) -> list[IndexRound]:
        order, byes = swiss_order(request, ctx)
        k = ctx.k
        tables = [order[t * k : (t + 1) * k] for t in range(ctx.tables)]
        return [(assign_seats(ctx, [tables], rng)[0], byes)]


def group_cost(ctx: Context, members: list[int] | tuple[int, ...]) -> int:
    """What seating these players together adds to the pair cost (and constraints)."""
    m = ctx.meetings
    cost = 0
    for i, a in enumerate(members):
        row = m[a]
        pen = ctx.penalty[a]
        for b in members[i + 1 :]:
            cost += pair_weight(row[b] + 1) - pair_weight(row[b])
            if pen:
                cost += pen.get(b, 0)
    return cost


@register
class SwissZvezdy(SeatingAlgorithm):
    """docs/rules/seating-methods.md `swiss_zvezdy`, the "5 + 5" rule (zvezdy's regulation): by the stage's key, table 1
    gets places 1-5 plus 5 drawn at random from places 6-15; table 2 the 5 of 6-15 not drawn plus 5 drawn from
    16-25; and so on; the last table takes whoever is left. For tables of k: the first k//2 places, then each
    table draws what it lacks from the next twice as many places.

    The draw is random as the regulation writes it ("5 случайных"), repeatable by the seed; seats as in
    `balanced`. The draw with the fewest repeated meetings is the organizer's choice, `swiss_zvezdy_spread`.
    """

    id = "swiss_zvezdy"
    swiss = True
    spread = False

    def seat(
        self, request: SeatingRequest, ctx: Context, rng: random.Random, progress: Progress | None
    ) -> list[IndexRound]:
        order, byes = swiss_order(request, ctx)
        tables = zvezdy_tables(ctx, order, rng, spread=self.spread)
        return [(assign_seats(ctx, [tables], rng)[0], byes)]


@register
class SwissZvezdySpread(SwissZvezdy):
    """docs/rules/seating-methods.md `swiss_zvezdy_spread`: the "5 + 5" rule of `swiss_zvezdy`, but among the
    draws the one that adds the fewest repeated meetings (at this table, and among the players it leaves for the
    next) is taken, ties at random by the seed. Not the regulation's random draw: an organizer's choice, named
    as such wherever a round's method is shown.
    """

    id = "swiss_zvezdy_spread"
    spread = True


def zvezdy_tables(ctx: Context, order: list[int], rng: random.Random, *, spread: bool) -> list[list[int]]:
    k, g = ctx.k, ctx.tables
    carry = order[: k // 2]
    pos = k // 2
    tables: list[list[int]] = []
    for _ in range(g - 1):
        need = k - len(carry)
        pool = order[pos : pos + 2 * need]
        pos += len(pool)
        best = tuple(sorted(rng.sample(range(len(pool)), need))) if not spread else fewest_repeats(ctx, carry, pool,
                                                                                                   need, rng)
        tables.append(carry + [pool[i] for i in best])
        carry = [pool[i] for i in range(len(pool)) if i not in best]
    tables.append(carry + order[pos:])
    return tables


def fewest_repeats(ctx: Context, carry: list[int], pool: list[int], need: int, rng: random.Random) -> tuple[int, ...]:
    """The draw (indices into ``pool``) adding the fewest repeated meetings, ties at random."""
    draws: list[tuple[int, ...]]
    if comb(len(pool), need) <= DRAW_SAMPLE:
        draws = list(combinations(range(len(pool)), need))
    else:
        draws = [tuple(sorted(rng.sample(range(len(pool)), need))) for _ in range(DRAW_SAMPLE)]
    rng.shuffle(draws)
    best: tuple[int, ...] = draws[0]
    best_cost = -1
    for draw in draws:
        chosen = [pool[i] for i in draw]
        left = [pool[i] for i in range(len(pool)) if i not in draw]
        c = group_cost(ctx, carry + chosen) + group_cost(ctx, left)
        if best_cost < 0 or c < best_cost:
            best, best_cost = draw, c
    return best
