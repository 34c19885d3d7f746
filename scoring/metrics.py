"""Tie-break metrics, each a small class registered by the id used in the standings' ``tiebreaks``.

A metric gives each player of a tied group a value; higher ranks higher. Most values depend on
the player alone; head-to-head depends on who else is in the group (``per_group``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import ClassVar

from .model import Role, Side
from .tally import ZERO, PlayerTally

Value = Fraction | int


class Metric:
    id: ClassVar[str]
    label: ClassVar[str]
    per_group: ClassVar[bool] = False

    def value(self, tally: PlayerTally) -> Value:
        raise NotImplementedError

    def values(self, group: Sequence[str], tallies: Mapping[str, PlayerTally]) -> dict[str, Value]:
        return {player: self.value(tallies[player]) for player in group}


METRICS: dict[str, Metric] = {}


def register(cls: type[Metric]) -> type[Metric]:
    METRICS[cls.id] = cls()
    return cls


@register
class Wins(Metric):
    id, label = "wins", "wins"

    def value(self, tally: PlayerTally) -> Value:
        return tally.wins


@register
class TimesBest(Metric):
    """fiim: times named best (extra points above 0 or ``best: true``)."""

    id, label = "best", "times named best"

    def value(self, tally: PlayerTally) -> Value:
        return tally.best


class RoleWins(Metric):
    roles: ClassVar[tuple[Role, ...]]

    def value(self, tally: PlayerTally) -> Value:
        return sum(tally.wins_as[role] for role in self.roles)


@register
class DonWins(RoleWins):
    id, label, roles = "don_wins", "wins as don", (Role.DON,)


@register
class SheriffWins(RoleWins):
    id, label, roles = "sheriff_wins", "wins as sheriff", (Role.SHERIFF,)


@register
class MafiaWins(RoleWins):
    id, label, roles = "mafia_wins", "wins as mafia", (Role.MAFIA,)


@register
class DonSheriffWins(RoleWins):
    """kostroma 4.4: wins as don or sheriff, counted together."""

    id, label, roles = "don_sheriff_wins", "wins as don or sheriff", (Role.DON, Role.SHERIFF)


@register
class FirstKilled(Metric):
    """fiim: times killed in the first night; more ranks higher."""

    id, label = "first_killed", "times killed in the first night"

    def value(self, tally: PlayerTally) -> Value:
        return tally.first_killed


@register
class ExtraPoints(Metric):
    """kostroma 4.4: total extra points as awarded, before the final's multiplier."""

    id, label = "extra", "extra points"

    def value(self, tally: PlayerTally) -> Value:
        return tally.extra


@register
class DaysSurvived(Metric):
    id, label = "days_survived", "days survived"

    def value(self, tally: PlayerTally) -> Value:
        return tally.days_survived


@register
class RedPoints(Metric):
    """zvezdy: points earned in games as a red player (civilian or sheriff)."""

    id, label = "red_points", "points as red"

    def value(self, tally: PlayerTally) -> Value:
        return tally.points_by_side(Side.RED)


@register
class BlackPoints(Metric):
    """zvezdy: points earned in games as a black player (mafia or don)."""

    id, label = "black_points", "points as black"

    def value(self, tally: PlayerTally) -> Value:
        return tally.points_by_side(Side.BLACK)


class RoleAverage(Metric):
    role: ClassVar[Role]

    def value(self, tally: PlayerTally) -> Value:
        games = tally.games_as[self.role]
        return tally.points_as(self.role) / games if games else ZERO


@register
class SheriffAverage(RoleAverage):
    """zvezdy: average points per game as sheriff, 0 if never sheriff."""

    id, label, role = "sheriff_average", "average as sheriff", Role.SHERIFF


@register
class DonAverage(RoleAverage):
    """zvezdy: average points per game as don, 0 if never don."""

    id, label, role = "don_average", "average as don", Role.DON


@register
class HeadToHead(Metric):
    """zvezdy: for the group still tied, each one's points in the games where they sat with at
    least one other member of the group. Applied once; a subgroup still tied goes to lots."""

    id, label, per_group = "head_to_head", "head-to-head", True

    def values(self, group: Sequence[str], tallies: Mapping[str, PlayerTally]) -> dict[str, Value]:
        members = set(group)
        out: dict[str, Value] = {}
        for player in group:
            total = ZERO
            for scored in tallies[player].seats:
                if any(seat.player in members and seat.player != player for seat in scored.game.seats):
                    total += scored.total
            out[player] = total
        return out
