"""Byes: who sits out when the players do not fill whole tables (docs/rules/seating-methods.md, "Byes")."""

from __future__ import annotations

import random

from .model import ByeLimitError


def choose_byes(
    candidates: list[int],
    count: int,
    byes: list[int],
    max_byes: int | None,
    rng: random.Random | None,
    first: frozenset[int] = frozenset(),
) -> list[int]:
    """Pick `count` players: those in `first` (the guests) before anyone else, then the fewest byes so far.

    `candidates` is in preference order for ties: the Swiss methods pass the order reversed (the
    bottom first); the others pass `rng`, which shuffles ties. `byes` is not changed.
    """
    if count == 0:
        return []
    pool = list(candidates)
    if rng is not None:
        rng.shuffle(pool)
    pool.sort(key=lambda p: (p not in first, byes[p]))  # stable: keeps the tie order
    allowed = pool if max_byes is None else [p for p in pool if byes[p] < max_byes]
    if len(allowed) < count:
        raise ByeLimitError(
            f"this round needs {count} bye(s) but only {len(allowed)} player(s) may still take one "
            f"(at most {max_byes} per player); add {count} guest(s) or seat fewer rounds"
        )
    return allowed[:count]


def bye_feasibility(players: int, table_size: int, rounds: int, max_byes: int | None) -> str | None:
    """None if `rounds` rounds fit the bye limit, else the problem and the fix in plain English.

    With r = players mod table_size byes a round, "at most b byes each" holds only when
    rounds * r <= players * b (docs/seating.md, "Byes").
    """
    if table_size < 2 or players < table_size:
        return (
            f"{players} player(s) cannot fill a table of {table_size}; "
            f"add {max(table_size - players, 0)} guest(s)"
        )
    rest = players % table_size
    if rest == 0 or max_byes is None:
        return None
    need = rounds * rest
    allowed = players * max_byes
    if need <= allowed:
        return None
    guests = table_size - rest
    fit = allowed // rest
    return (
        f"{players} players at tables of {table_size} leave {rest} on a bye each round: "
        f"{rounds} rounds need {need} byes, but at most {max_byes} bye(s) per player allows "
        f"{allowed}. Add {guests} guest(s) to fill a table ({players + guests} players), "
        f"or leave {rest} player(s) out, or play at most {fit} round(s)."
    )
