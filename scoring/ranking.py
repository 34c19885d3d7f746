"""Ranking a group of players along a tie-break chain: the points first (or the average), then each metric in
turn, the tiers that come before any metric (the disqualified, the ineligible, those short of games), and lots
last. ``scoring.standings`` ranks a stage with it; ``scoring.explain`` and ``scoring.lots`` follow the same
steps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .metrics import METRICS, Metric, Value
from .model import StageKind
from .tally import PlayerTally


def primary_key(rank_by: str) -> Callable[[PlayerTally], Value]:
    """What ranks a stage before the chain: the points, or the points per game (``Params.rank_by``)."""
    if rank_by == "average":
        return lambda tally: tally.average
    return lambda tally: tally.points


# What separates the tiers, in the order the standings apply it, by the name the standings JSON gives the fact.
TIER_FACTS = ("disqualified", "eligible", "short_of_games")


def tier_facts(kind: StageKind, disqualified: bool, eligible: bool, short_of_games: bool) -> tuple[bool, bool, bool]:
    """A player's facts for ``TIER_FACTS`` as the tiers use them: the disqualified form one tier (neither
    eligibility nor games split it); eligibility splits only a final (elsewhere it counts as eligible here)."""
    if disqualified:
        return True, False, False
    return False, eligible or kind is not StageKind.FINAL, short_of_games


def tier_key(facts: tuple[bool, bool, bool]) -> tuple[int, int, int]:
    """The order of the tiers, higher ranking higher: not disqualified, then eligible, then not short of games."""
    disqualified, eligible, short = facts
    return -int(disqualified), int(eligible), -int(short)


def rank_in_tiers(tiers: Sequence[Sequence[str]], tallies: Mapping[str, PlayerTally], chain: Sequence[str],
                  lots: Sequence[str], primary: Callable[[PlayerTally], Value] | None = None,
                  ) -> tuple[list[tuple[int, str]], dict[str, dict[str, Value]]]:
    """``rank_players`` of each tier, each tier's ranks following the previous one's. A player's
    games stay in the others' tallies whatever their tier: only the order changes."""
    order: list[tuple[int, str]] = []
    values: dict[str, dict[str, Value]] = {}
    for tier in tiers:
        if not tier:
            continue
        tier_order, tier_values = rank_players(tier, tallies, chain, lots, primary)
        order += [(len(order) + rank, pid) for rank, pid in tier_order]
        values.update(tier_values)
    return order, values


@dataclass(frozen=True)
class RankingStep:
    """One comparison the standings make between two players, for one of them: ``metric`` names it as the
    standings JSON does (a tier's fact, ``points`` or ``average``, a chain metric's id, ``lots``), ``value`` is the
    player's value as shown, ``key`` what is compared (higher ranks higher)."""

    metric: str
    value: Value | bool | None
    key: tuple[Value | float, ...]


def rank_players(players: Sequence[str], tallies: Mapping[str, PlayerTally], chain: Sequence[str],
                 lots: Sequence[str], primary: Callable[[PlayerTally], Value] | None = None,
                 ) -> tuple[list[tuple[int, str]], dict[str, dict[str, Value]]]:
    """Order players by ``primary`` (default: points), then the chain, then lots; return (rank, player) best
    first and each player's tie-break values. Ranks are competition ranks (1, 2, 2, 4)."""
    values: dict[str, dict[str, Value]] = {pid: {} for pid in players}
    for metric_id in chain:
        metric = METRICS[metric_id]
        if not metric.per_group:
            for pid, value in metric.values(players, tallies).items():
                values[pid][metric_id] = value
    first = primary or (lambda tally: tally.points)
    groups = _split(sorted(players), lambda pid: first(tallies[pid]))
    for metric_id in chain:
        metric = METRICS[metric_id]
        refined: list[list[str]] = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if metric.per_group:
                group_values = metric.values(group, tallies)
                for pid, value in group_values.items():
                    values[pid][metric_id] = value
                refined += _split(group, _keyed(metric, group_values))
            else:
                refined += _split(group, _keyed(metric, {pid: values[pid][metric_id] for pid in group}))
        groups = refined
    lot_place = {pid: index for index, pid in enumerate(lots)}
    ordered: list[tuple[int, str]] = []
    for group in groups:
        for subgroup in _by_lots(group, lot_place):
            rank = len(ordered) + 1
            ordered += [(rank, pid) for pid in sorted(subgroup)]
    return ordered, values


def _keyed(metric: Metric, found: Mapping[str, Value]) -> Callable[[str], Value | float]:
    """What the chain compares for each player of a group: the metric's order key of the value found."""
    return lambda pid: metric.order_key(found[pid])


def _split(group: Sequence[str], key: Callable[[str], Value | float]) -> list[list[str]]:
    """Split ``group`` into runs of equal key, highest first (ties keep id order)."""
    # Each key computed once; a stable sort, highest first, of the ids in order keeps the tied in id order.
    keyed = sorted(((key(pid), pid) for pid in sorted(group)), key=_first, reverse=True)
    runs: list[list[str]] = []
    last: object = object()
    for value, pid in keyed:
        if runs and value == last:
            runs[-1].append(pid)
        else:
            runs.append([pid])
        last = value
    return runs


def _first(pair: tuple[Value | float, str]) -> Value | float:
    return pair[0]


def _by_lots(group: list[str], lot_place: Mapping[str, int]) -> list[list[str]]:
    """Listed players above unlisted ones, in list order; the unlisted stay tied (docs/rules/tournament.md)."""
    if len(group) == 1:
        return [group]
    runs: list[list[str]] = []
    for pid in sorted(group, key=lambda pid: lot_key(lot_place, pid), reverse=True):
        if runs and lot_key(lot_place, runs[-1][0]) == lot_key(lot_place, pid):
            runs[-1].append(pid)
        else:
            runs.append([pid])
    return runs


def lot_key(lot_place: Mapping[str, int], player: str) -> tuple[int, int]:
    """What the lots compare, higher ranking higher: a listed player by their place in the list (0 first), above
    every unlisted one; the unlisted all equal."""
    place = lot_place.get(player)
    return (0, 0) if place is None else (1, -place)
