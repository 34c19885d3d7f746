"""Tie-break metrics, each a small class registered by the id used in the standings' ``tiebreaks``.

A metric gives each player of a tied group a value; more ranks higher unless the metric says
``fewer_ranks_higher`` (its docstring says which). Most values depend on the player alone;
head-to-head depends on who else is in the group (``per_group``). A value may be None (no previous
stage's place): it ranks below every value.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import ClassVar

from .metric_ids import METRIC_IDS
from .model import Role, Side
from .tally import ZERO, PlayerTally

Value = Fraction | int
NO_VALUE = float("-inf")  # the order key of a missing value: below every value


class Metric:
    id: ClassVar[str]
    label: ClassVar[str]
    per_group: ClassVar[bool] = False
    fewer_ranks_higher: ClassVar[bool] = False

    def value(self, tally: PlayerTally) -> Value:
        raise NotImplementedError

    def order_key(self, value: Value | None) -> Value | float:
        """What the chain compares, higher ranking higher: the value, or its negation for a metric where fewer
        ranks higher."""
        if value is None:
            return NO_VALUE
        return -value if self.fewer_ranks_higher else value

    def values(self, group: Sequence[str], tallies: Mapping[str, PlayerTally]) -> dict[str, Value]:
        return {player: self.value(tallies[player]) for player in group}


METRICS: dict[str, Metric] = {}


def register(cls: type[Metric]) -> type[Metric]:
    if cls.id not in METRIC_IDS:  # the parameters check a chain against METRIC_IDS: a metric missing there is unusable
        raise ValueError(f"metric {cls.id!r} is not listed in scoring.metric_ids.METRIC_IDS")
    METRICS[cls.id] = cls()
    return cls


@register
class Points(Metric):
    """The points that rank the stage; more ranks higher (a chain's step under ``rank_by: "average"``)."""

    id, label = "points", "points"

    def value(self, tally: PlayerTally) -> Value:
        return tally.points


@register
class PointsAverage(Metric):
    """Points per game played (0 without a game); more ranks higher."""

    id, label = "points_average", "points per game"

    def value(self, tally: PlayerTally) -> Value:
        return tally.average


@register
class Games(Metric):
    """Games with a result played; more ranks higher."""

    id, label = "games", "games"

    def value(self, tally: PlayerTally) -> Value:
        return tally.games


@register
class Wins(Metric):
    """Games won; more ranks higher."""

    id, label = "wins", "wins"

    def value(self, tally: PlayerTally) -> Value:
        return tally.wins


@register
class Losses(Metric):
    """Games lost; fewer ranks higher."""

    id, label, fewer_ranks_higher = "losses", "losses", True

    def value(self, tally: PlayerTally) -> Value:
        return tally.losses


class SideWins(Metric):
    side: ClassVar[Side]

    def value(self, tally: PlayerTally) -> Value:
        return tally.wins_by_side[self.side]


@register
class RedWins(SideWins):
    """Wins as a red player (civilian, sheriff, doctor, a red extra character); more ranks higher."""

    id, label, side = "red_wins", "wins as red", Side.RED


@register
class BlackWins(SideWins):
    """Wins as a black player (mafia, don, a black extra character); more ranks higher."""

    id, label, side = "black_wins", "wins as black", Side.BLACK


@register
class Removals(Metric):
    """Times removed from the table (the fourth remark or a disqualifying one); fewer ranks higher."""

    id, label, fewer_ranks_higher = "removals", "removals", True

    def value(self, tally: PlayerTally) -> Value:
        return tally.removals


@register
class Penalties(Metric):
    """The round penalties' points (0 or less); less negative ranks higher, so more ranks higher."""

    id, label = "penalties", "penalties"

    def value(self, tally: PlayerTally) -> Value:
        return tally.penalty_points


@register
class ExtraTotal(Metric):
    """Extra points plus best-move points as the standings count them (with the stage's multiplier); more
    ranks higher."""

    id, label = "extra_total", "extra and best-move points"

    def value(self, tally: PlayerTally) -> Value:
        return tally.extra_total


@register
class Compensation(Metric):
    """The first-night compensation Ci received, as the standings count it; more ranks higher."""

    id, label = "ci", "first-night compensation"

    def value(self, tally: PlayerTally) -> Value:
        return tally.ci


@register
class PreviousStageRank(Metric):
    """The player's place in the previous stage's standings; a better (smaller) place ranks higher, and a player
    without one (a first stage, or not ranked there) ranks below every place."""

    id, label, fewer_ranks_higher = "previous_stage_rank", "place in the previous stage", True

    def value(self, tally: PlayerTally) -> Value:
        return tally.previous_rank  # type: ignore[return-value]  # None: no place, ordered by ``order_key``


@register
class TimesBest(Metric):
    """fiim: times named best by the table's judges (``best: true``; extra points are not a naming); more ranks
    higher."""

    id, label = "best", "times named best"

    def value(self, tally: PlayerTally) -> Value:
        return tally.best


class RoleWins(Metric):
    """Wins in the roles listed; more ranks higher."""

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
    """kostroma 4.4: total extra points as awarded, before the final's multiplier; more ranks higher."""

    id, label = "extra", "extra points"

    def value(self, tally: PlayerTally) -> Value:
        return tally.extra


@register
class DaysSurvived(Metric):
    """tomsk: days survived; more ranks higher."""

    id, label = "days_survived", "days survived"

    def value(self, tally: PlayerTally) -> Value:
        return tally.days_survived


@register
class RedPoints(Metric):
    """zvezdy: points earned in games as a red player (civilian or sheriff); more ranks higher."""

    id, label = "red_points", "points as red"

    def value(self, tally: PlayerTally) -> Value:
        return tally.points_by_side(Side.RED)


@register
class BlackPoints(Metric):
    """zvezdy: points earned in games as a black player (mafia or don); more ranks higher."""

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
    """zvezdy: average points per game as sheriff, 0 if never sheriff; more ranks higher."""

    id, label, role = "sheriff_average", "average as sheriff", Role.SHERIFF


@register
class DonAverage(RoleAverage):
    """zvezdy: average points per game as don, 0 if never don; more ranks higher."""

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
