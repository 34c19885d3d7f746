"""The seating methods of docs/rules/seating-methods.md, registered by id."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar, TypeVar

from .context import Context
from .model import SeatingRequest

Progress = Callable[[float], None]
# A planned round as indices: tables in physical order, each in seat order; then the byes.
IndexRound = tuple[list[list[int]], list[int]]


class SeatingAlgorithm:
    """A way to seat rounds. Subclasses set `id` (a ``model.SeatingMethod`` value) and implement `seat`."""

    id: ClassVar[str] = ""
    swiss: ClassVar[bool] = False  # needs `order`, one round at a time

    def seat(
        self, request: SeatingRequest, ctx: Context, rng: random.Random, progress: Progress | None
    ) -> list[IndexRound]:
        raise NotImplementedError


METHODS: dict[str, type[SeatingAlgorithm]] = {}

M = TypeVar("M", bound=type[SeatingAlgorithm])


def register(cls: M) -> M:
    if not cls.id or cls.id in METHODS:
        raise ValueError(f"seating method id {cls.id!r} is empty or taken")
    METHODS[cls.id] = cls
    return cls
