"""plan(): a request in, planned rounds out."""

from __future__ import annotations

import random

from . import methods as _methods  # noqa: F401  (registers random, balanced)
from . import swiss as _swiss  # noqa: F401  (registers the Swiss methods)
from .context import build_context
from .model import PlannedRound, SeatingError, SeatingRequest
from .registry import METHODS, Progress


def plan(request: SeatingRequest, progress: Progress | None = None) -> list[PlannedRound]:
    """Seat `request.rounds` rounds; the same request always gives the same rounds."""
    method = METHODS.get(request.method)
    if method is None:
        raise SeatingError(f"unknown seating method {request.method!r}; known: {', '.join(sorted(METHODS))}")
    ctx = build_context(request)
    rng = random.Random(f"{request.seed}:{request.method}")
    planned = method().seat(request, ctx, rng, progress)
    if progress is not None:
        progress(1.0)
    ids = ctx.ids
    return [
        PlannedRound(tuple(tuple(ids[p] for p in table) for table in tables), tuple(ids[p] for p in byes))
        for tables, byes in planned
    ]
