"""The fewest and the most points one seat can get in one game, from a ruleset's parameters (docs/needs.md).

Each part of a seat's points (``SeatPoints``) has a range under the parameters; for every role a table may seat
and both results (its side won or lost), the parts' lowest values are added, and the highest; the bounds are the
lowest and the highest of those sums. Facts a game does not write (roles of a game not yet played) are free, so
the bounds hold for any line-up. The parts are independent in the file (a removed player may still get extra
points), so each sum is reached by some seat of some game, except the circle marks' count, bounded below.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from ..model import EXTRA_CHARACTERS, ROLE_SIDE, Role, Side
from ..params import NO_SIDE_POINTS, ValueSet
from .base import Ruleset

DAYS = (1, 12)  # ``days_survived`` of a tomsk seat (the file's limits)


def most_circles(table_size: int) -> int:
    """The most speech circles (days) one game can have [ours]: three nights in a row without anybody leaving
    end the game, so a player leaves at least every three days, and fewer than ``table_size`` can leave."""
    return 3 * (table_size - 1)


def one_game_points(ruleset: Ruleset) -> tuple[Fraction, Fraction]:
    """The fewest and the most points one seat can get in one game with a result, before the stage's
    multiplier (with it: times the multiplier)."""
    lows: list[Fraction] = []
    highs: list[Fraction] = []
    for role, side in _seats(ruleset):
        for won in (True, False):
            low, high = _seat_range(ruleset, role, side, won)
            lows.append(low)
            highs.append(high)
    return min(lows), max(highs)


def _seats(ruleset: Ruleset) -> list[tuple[Role, Side]]:
    roles = [(role, ROLE_SIDE[role]) for role in (*ruleset.special_roles, Role.CIVILIAN)]
    if ruleset.allows_extra_characters:
        roles += [(role, side) for role in sorted(EXTRA_CHARACTERS) for side in (Side.RED, Side.BLACK)]
    return roles


def _seat_range(ruleset: Ruleset, role: Role, side: Side, won: bool) -> tuple[Fraction, Fraction]:
    p = ruleset.params
    parts: list[tuple[Fraction, Fraction]] = []
    if won:
        parts.append(_span([p.win_points.for_side(side)]))
    elif p.loss_points is not NO_SIDE_POINTS:
        parts.append(_span([p.loss_points.for_side(side)]))
    role_points = p.role_points.get(role) if p.role_points else None
    if role_points is not None:
        parts.append(_span([role_points.win if won else role_points.loss]))
    if p.day_points:  # tomsk: every seat of a game with a result has its days survived
        parts.append(_span([p.day_points * days for days in DAYS]))
    parts.append(_span([Fraction(0), p.sp_min, p.sp_max]))
    if p.extra_max_players:
        parts.append(_extra_span(p.extra_values_winner if won else p.extra_values_loser, p.extra_total_max))
    if side is Side.RED:
        table = p.best_move_sheriff if role is Role.SHERIFF else p.best_move_civilian
        parts.append(_span([Fraction(0), *table.values()]))
        if not won and p.ci_rate:
            parts.append(_span([Fraction(0), p.ci_limit]))
    if side is Side.BLACK and not won:
        parts.append(_span([Fraction(0), p.missed_nights_points]))
    if p.circle_max_marks:
        circles = most_circles(p.table_size)
        parts.append(_span([Fraction(0), circles * p.circle_best_points, circles * p.circle_worst_points]))
    parts.append(_span([Fraction(0), p.removal_points]))
    return sum((low for low, _ in parts), Fraction(0)), sum((high for _, high in parts), Fraction(0))


def _span(values: Iterable[Fraction]) -> tuple[Fraction, Fraction]:
    listed = list(values)
    return min(listed), max(listed)


def _extra_span(allowed: ValueSet, total_max: Fraction | None) -> tuple[Fraction, Fraction]:
    """No extra (0) or one allowed value; ``extra_total_max`` caps one player's extra when no value is negative."""
    if allowed.minimum is not None and allowed.maximum is not None:
        low, high = min(Fraction(0), allowed.minimum), max(Fraction(0), allowed.maximum)
    else:
        low, high = _span([Fraction(0), *allowed.values])
    if total_max is not None and low >= 0:
        high = min(high, total_max)
    return low, high
