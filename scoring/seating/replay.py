"""Rounds seated one at a time that add up to a good block (both must be good).

Where a construction plans many rounds well (the exact constructions of construct.py, or, with
at least as many tables as seats, a searched offset matrix with a fixed seed), the first round's
tables fix a whole block plan: they are its round 0, players labelled by sorted ids. Every later
round, asked for alone with that history, is the next round of the same block, read back from
the block cache (cache.py) or recomputed identically, so the rounds seated one by one are the
block's rounds, seats included. A late arrival, an absence, a
hand-made change or another stage in the history falls back to planning the round alone.
"""

from __future__ import annotations

import random
from dataclasses import replace

from . import cache
from .anneal import greedy_round
from .construct import cyclic_rounds, exact_block, exact_horizon, relabel, search_offsets
from .context import Context, build_context
from .model import SeatingHistory, SeatingRequest
from .registry import IndexRound, Progress
from .seats import assign_seats
from .tables import place_round

SEARCH_MOVES = 1_000_000  # the searched offsets of a replayed block: a few seconds per round
BLOCK_VERSION = 2  # names the construction in the cache key; raise it when blocks change


def horizon(g: int, k: int) -> tuple[int, bool]:
    """Rounds of the replayed block, and whether its offsets are searched (not exact)."""
    exact = exact_horizon(g, k)
    if exact:
        return exact, False
    return (k, True) if g >= k else (0, False)


def block_from_first(
    ctx: Context, first: list[list[int]], progress: Progress | None = None
) -> list[list[list[int]]]:
    """The whole block (tables in physical order, seat order) whose round 0 is `first`.

    Kept between calls (cache.py): each later round asks for the same block again."""
    ids = ctx.ids
    groups = sorted((sorted(ids[p] for p in t) for t in first), key=lambda t: t[0])
    key = cache.digest(BLOCK_VERSION, SEARCH_MOVES, ids, ctx.k, ctx.tables, groups)
    everyone = set(ids)

    def valid(block: cache.Block) -> bool:
        return all({p for t in tables for p in t} == everyone for tables in block)

    def compute() -> cache.Block:
        block = build_block(ctx, [[ctx.index[p] for p in t] for t in groups], progress)
        return tuple(tuple(tuple(ids[p] for p in t) for t in tables) for tables in block)

    block = cache.cached_block(key, compute, valid)
    return [[[ctx.index[p] for p in t] for t in tables] for tables in block]


def build_block(
    ctx: Context, groups: list[list[int]], progress: Progress | None = None
) -> list[list[list[int]]]:
    """The block whose round 0 seats `groups` (sorted), searched or constructed afresh."""
    g, k = ctx.tables, ctx.k
    rounds, searched = horizon(g, k)
    made = None if searched else exact_block(g, k, rounds)
    if made is None:
        xor = g >= 4 and g & (g - 1) == 0
        f = search_offsets(g, k, rounds, SEARCH_MOVES, random.Random(0), 0, xor, progress)
        made = cyclic_rounds(list(range(g * k)), g, k, f, xor)
    labels = [0] * (g * k)
    for virtual, group in zip(made[0], groups, strict=True):  # round 0 of the block is `groups`
        for v, p in zip(virtual, group, strict=True):
            labels[v] = p
    seated = assign_seats(ctx, relabel(made, labels), random.Random(0))
    counts: list[dict[int, int]] = [{} for _ in range(ctx.n)]
    return [place_round(t, counts) for t in seated]


def replay_round(
    request: SeatingRequest, ctx: Context, rng: random.Random, progress: Progress | None = None
) -> IndexRound | None:
    """The next round of the block fixed by the history's first round, or None."""
    n, k, g = ctx.n, ctx.k, ctx.tables
    history = request.history.rounds
    done = len(history)
    if request.rounds != 1 or n != g * k or any(ctx.penalty):
        return None
    rounds, _ = horizon(g, k)
    if done >= rounds:
        return None
    everyone = set(ctx.ids)
    for rnd in history:
        if len(rnd) != g or any(len(t) != k for t in rnd) or {p for t in rnd for p in t} != everyone:
            return None
    fresh = build_context(replace(request, history=SeatingHistory()))
    if done == 0:
        first = greedy_round(fresh, [row[:] for row in fresh.meetings], list(range(n)), rng)
        return block_from_first(fresh, first, progress)[0], []
    block = block_from_first(fresh, [[ctx.index[p] for p in t] for t in history[0]], progress)
    ids = ctx.ids
    for rnd, tables in zip(history, block, strict=False):
        if {frozenset(t) for t in rnd} != {frozenset(ids[p] for p in t) for t in tables}:
            return None
    as_ids = [tuple(tuple(ids[p] for p in t) for t in tables) for tables in block]
    if all(rnd == mine for rnd, mine in zip(history, as_ids, strict=False)):
        return block[done], []
    # same tables, but seated otherwise (by hand): seat this round against the real history
    tables = assign_seats(ctx, [block[done]], rng)[0]
    return place_round(tables, [dict(c) for c in ctx.table_counts]), []
