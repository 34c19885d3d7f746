"""Series points and the series standings, pure (docs/series.md): no Django, no database.

A row is one player's final place in one tournament of the series (``scoring.places``); the rules are the series'
points table, its scaling, its best-N and its tie-break chain. Every figure is a ``Fraction``: points are exact.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

PlayerId = int  # tournaments.Player's pk: the same person across tournaments
TournamentId = int


@dataclass(frozen=True)
class Placing:
    """One player's final place in one tournament, and how many players that tournament placed."""

    player: PlayerId
    tournament: TournamentId
    place: int
    players: int


@dataclass(frozen=True)
class Rules:
    points: tuple[Fraction, ...]  # points of the 1st, 2nd, … place; a place beyond the table gets 0
    reference: int | None = None  # scaling: points × players / reference; None: no scaling
    best_of: int | None = None  # only a player's N best results count; None: every result
    chain: tuple[str, ...] = ()  # tie-breaks, in order (``TIEBREAKS``)
    weights: Mapping[TournamentId, Fraction] = field(default_factory=dict)  # a tournament's coefficient (1 if absent)


def place_points(rules: Rules, placing: Placing) -> Fraction:
    """The table's points for the place, × players / reference when scaled, × the tournament's weight.

    25 points for 1st, reference 20, a tournament of 30 players with weight 1.5: 25 × 30/20 × 1.5 = 56.25."""
    if placing.place > len(rules.points):
        return Fraction(0)
    points = rules.points[placing.place - 1]
    if rules.reference:
        points *= Fraction(placing.players, rules.reference)
    return points * rules.weights.get(placing.tournament, Fraction(1))


@dataclass(frozen=True)
class Result:
    tournament: TournamentId
    place: int
    points: Fraction
    counted: bool  # False: beyond the player's best N


@dataclass(frozen=True)
class SeriesRow:
    rank: int
    player: PlayerId
    points: Fraction
    results: Mapping[TournamentId, Result]
    tiebreaks: Mapping[str, int]

    @property
    def played(self) -> int:
        return len(self.results)


def _count(place: int) -> Callable[[Sequence[Result]], int]:
    return lambda results: sum(1 for r in results if r.place == place)


def _countback(results: Sequence[Result]) -> tuple[int, ...]:
    """The number of 1st places, then of 2nd places, … (negated places sort better first)."""
    worst = max((r.place for r in results), default=0)
    return tuple(sum(1 for r in results if r.place == place) for place in range(1, worst + 1))


@dataclass(frozen=True)
class Tiebreak:
    id: str
    name: str  # English; series.labels gives the translated name
    key: Callable[[Sequence[Result]], int | tuple[int, ...]]  # higher is better
    shown: Callable[[Sequence[Result]], int]  # the figure its column shows


TIEBREAKS: Mapping[str, Tiebreak] = {t.id: t for t in (
    Tiebreak("firsts", "more tournaments won", _count(1), _count(1)),
    Tiebreak("seconds", "more 2nd places", _count(2), _count(2)),
    Tiebreak("thirds", "more 3rd places", _count(3), _count(3)),
    Tiebreak("countback", "more 1st places, then more 2nd places, and so on", _countback,
             lambda results: sum(1 for r in results if r.place == 1)),
    # a best place of 1 beats 2: negated, so that higher is better like the others
    Tiebreak("best_place", "best single place", lambda rs: -min(r.place for r in rs),
             lambda rs: min(r.place for r in rs)),
    Tiebreak("played", "more tournaments played", len, len),
    Tiebreak("place_sum", "smaller sum of places", lambda rs: -sum(r.place for r in rs),
             lambda rs: sum(r.place for r in rs)),
)}
DEFAULT_CHAIN = ("countback", "best_place", "played")


def series_standings(placings: Iterable[Placing], rules: Rules) -> list[SeriesRow]:
    """Every player with a place in a tournament of the series, ranked: the most series points, then the chain
    (computed over every tournament played, counted or not); players equal on all of it share a rank."""
    by_player: dict[PlayerId, list[Result]] = {}
    for placing in placings:
        by_player.setdefault(placing.player, []).append(
            Result(placing.tournament, placing.place, place_points(rules, placing), True))
    rows: list[tuple[tuple[Fraction, tuple[int | tuple[int, ...], ...]], SeriesRow]] = []
    for player, results in sorted(by_player.items()):
        counted = _best(results, rules.best_of)
        marked = [r if r.tournament in counted else Result(r.tournament, r.place, r.points, False) for r in results]
        points = sum((r.points for r in marked if r.counted), Fraction(0))
        key = tuple(TIEBREAKS[t].key(marked) for t in rules.chain)
        shown = {t: TIEBREAKS[t].shown(marked) for t in rules.chain}
        rows.append(((points, key), SeriesRow(0, player, points, {r.tournament: r for r in marked}, shown)))
    rows.sort(key=lambda pair: pair[0], reverse=True)  # stable: equal players stay in the players' order
    out: list[SeriesRow] = []
    for index, (sort_key, row) in enumerate(rows):
        rank = out[-1].rank if index and rows[index - 1][0] == sort_key else index + 1
        out.append(SeriesRow(rank, row.player, row.points, row.results, row.tiebreaks))
    return out


def _best(results: Sequence[Result], best_of: int | None) -> set[TournamentId]:
    """The tournaments whose points count: all, or the ``best_of`` highest (on equal points, the earlier
    tournament in the list: which one is dropped changes no total)."""
    if best_of is None or len(results) <= best_of:
        return {r.tournament for r in results}
    ranked = sorted(range(len(results)), key=lambda i: (-results[i].points, i))
    return {results[i].tournament for i in ranked[:best_of]}
