"""Plain-data input and output of the seating engine (see the package docstring)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

Table = tuple[str, ...]
Round = tuple[Table, ...]

_EMPTY: Mapping[str, int] = MappingProxyType({})
_NO_TEAMS: Mapping[str, str] = MappingProxyType({})


class SeatingError(ValueError):
    """The request cannot be seated as asked; the message says why and how to fix it."""


class ByeLimitError(SeatingError):
    """The byes a round needs cannot go to anyone without breaking `max_byes`."""


@dataclass(frozen=True)
class SeatingHistory:
    """Earlier rounds of all stages, in order.

    Each round lists its tables in physical order (table 1 first); each table lists player ids in
    seat order (seat 1 first). `byes` counts the byes each player has had so far.
    """

    rounds: tuple[Round, ...] = ()
    byes: Mapping[str, int] = field(default_factory=lambda: _EMPTY)


@dataclass(frozen=True)
class SeatingRequest:
    """What to seat now. `order` (best first) is required by the Swiss methods."""

    players: tuple[str, ...]
    table_size: int
    method: str
    history: SeatingHistory = field(default_factory=SeatingHistory)
    rounds: int = 1
    seed: int = 0
    tables: int | None = None
    order: tuple[str, ...] | None = None
    teams: Mapping[str, str] = field(default_factory=lambda: _NO_TEAMS)
    keep_apart: tuple[tuple[str, str], ...] = ()
    max_byes: int | None = None
    # Guests (tomsk 4.1: registered after the 96th) sit out before any registered player: a registered
    # player gets a bye only when every guest already has one in that round.
    guests: frozenset[str] = frozenset()
    effort: float = 1.0  # scales the search budget (tests and benchmarks); results stay repeatable


@dataclass(frozen=True)
class PlannedRound:
    """One planned round: tables in physical order, each in seat order, and who has a bye."""

    tables: tuple[Table, ...]
    byes: tuple[str, ...]
