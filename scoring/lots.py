"""Ties at a cut and the lots that break them (docs/rules/tournament.md, "Ties").

A tie "crosses a cut" when players who share a rank (nothing in the chain and no lot separates them)
stand on both sides of a line that decides something: the advancement count of a ``top`` stage, a
game's K of a ``per_game`` stage (tomsk 4.6, 4.7), the winner of a final (place 1 where the ruleset
takes the best ranked; the ``max_winners`` limit where it takes the last game's side), or any list of
places the caller names (prizes). The draw always orders the whole tied group, never only the part of
it inside one game: a lot among a part would put that part above the rest of the tie (``_by_lots``).

``decided_by_lot`` says whose place the lots decided, for the "by lot" mark of the standings pages.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .metrics import Value
from .model import Side, Stage, StageKind, Tournament
from .ranking import primary_key, rank_players
from .rulesets import Ruleset
from .standings import StandingRow, Standings
from .tally import PlayerTally


class CutKind(StrEnum):
    ADVANCE = "advance"  # the best N of the stage go on
    GAME = "game"  # fewer than K ranked above them in one of their games (per_game)
    WINNER = "winner"  # the winners of the final
    PLACE = "place"  # a place the caller names (a prize)


@dataclass(frozen=True)
class Cut:
    kind: CutKind
    through: int  # how many of the tied players the line lets through
    round: int | None = None  # per_game: the game's round and table
    table: int | None = None


@dataclass(frozen=True)
class CutTie:
    """Players sharing ``rank`` (in standings order), places ``rank``…``last``, and the lines they straddle."""

    rank: int
    players: tuple[str, ...]
    cuts: tuple[Cut, ...]

    @property
    def last(self) -> int:
        return self.rank + len(self.players) - 1


def _straddling(ranks: Sequence[int], cut: int) -> tuple[int, int] | None:
    """For ranks sorted best first and a line after the first ``cut`` of them: the rank of the run that
    straddles the line and how many of that run are above it; None when the line falls between runs."""
    if cut <= 0 or cut >= len(ranks):
        return None
    rank = ranks[cut - 1]
    if ranks[cut] != rank:
        return None
    return rank, cut - bisect_left(ranks, rank)


def ties_at_places(standings: Standings, places: Iterable[int], kind: CutKind = CutKind.PLACE) -> list[CutTie]:
    """The ties crossing a line after each of ``places`` (1: the line under place 1) in the stage's rows."""
    ranks = _ranks(standings.rows)
    found: dict[int, list[Cut]] = {}
    for place in places:
        hit = _straddling(ranks, place)
        if hit is not None:
            found.setdefault(hit[0], []).append(Cut(kind, hit[1]))
    return _ties(standings.rows, found)


def ties_at_cuts(tournament: Tournament, standings: Standings, ruleset: Ruleset,
                 places: Iterable[int] = ()) -> list[CutTie]:
    """Every tie of the stage's standings that crosses a cut: its advancement (``top`` or ``per_game``), its
    winners (a final with a result) and ``places``; one entry per tied group, best first. A stage with no
    game with a result has none."""
    stage = tournament.stage(standings.stage)
    if not any(game.has_result for round_ in stage.rounds for game in round_.games):
        return []  # before the first result everyone is tied: nothing to draw yet
    found: dict[int, list[Cut]] = {}
    ranks = _ranks(standings.rows)

    def add(sub_ranks: Sequence[int], cut: int, kind: CutKind, where: tuple[int, int] | None = None) -> None:
        hit = _straddling(sub_ranks, cut)
        if hit is not None:
            found.setdefault(hit[0], []).append(
                Cut(kind, hit[1], *(where or (None, None))))

    rule = _advance_rule(stage, standings.kind, ruleset)
    if rule is not None and rule[0] == "top":
        add(ranks, rule[1], CutKind.ADVANCE)
    elif rule is not None:
        rank_of = {row.player: row.rank for row in standings.rows if row.rank is not None}
        for round_ in stage.rounds:
            for game in round_.games:
                if game.has_result:
                    add(sorted(rank_of[s.player] for s in game.seats if s.player in rank_of), rule[1],
                        CutKind.GAME, (round_.number, game.table))
    if standings.kind is StageKind.FINAL and standings.winners is not None:
        eligible = [row for row in standings.rows if row.eligible and row.rank is not None]
        if ruleset.winners_rule == "last_game_side":
            limit = ruleset.params.max_winners
            side = _last_side(stage)
            if limit is not None:
                add(_ranks(row for row in eligible if row.player in side), limit, CutKind.WINNER)
        else:
            add(_ranks(eligible), 1, CutKind.WINNER)
    for place in places:
        add(ranks, place, CutKind.PLACE)
    return _ties(standings.rows, found)


def _ranks(rows: Iterable[StandingRow]) -> list[int]:
    """The ranks of the ranked rows, best first (the disqualified have none and cross no cut)."""
    return [row.rank for row in rows if row.rank is not None]


def _advance_rule(stage: Stage, kind: StageKind, ruleset: Ruleset) -> tuple[str, int] | None:
    """As ``standings._advancing`` reads it: the stage's own advance, else its kind's; a final sends nobody on."""
    if kind is StageKind.FINAL:
        return None
    if stage.advance is not None:
        return stage.advance.mode, stage.advance.count
    return ruleset.stage_format(kind).advance


def _last_side(stage: Stage) -> set[str]:
    """The players of the side that won the stage's last game with a result (by round, then table)."""
    games = [(round_.number, game.table, game) for round_ in stage.rounds for game in round_.games
             if game.has_result]
    if not games:
        return set()
    _, _, last = max(games, key=lambda item: (item[0], item[1]))
    winner: Side | None = last.winner
    return {seat.player for seat in last.seats if seat.effective_side == winner}


def _ties(rows: Sequence[StandingRow], found: dict[int, list[Cut]]) -> list[CutTie]:
    return [
        CutTie(rank, tuple(row.player for row in rows if row.rank == rank), tuple(dict.fromkeys(cuts)))
        for rank, cuts in sorted(found.items())
    ]


def decided_by_lot(standings: Standings) -> frozenset[str]:
    """The players whose order against someone tied with them came from the stage's lots: each group that the
    chain leaves tied and the lots split (ranked again without lots, from the rows' own tallies). Tiers are
    ranked apart (the engine's ``rank_in_tiers``): the disqualified have no rank, and in a final the players
    not eligible for awards follow the eligible ones whatever their points."""
    if not standings.lots:
        return frozenset()  # the stage was ranked without lots: no order came from them (nothing to rank again)
    decided: set[str] = set()
    for tier in _ranked_tiers(standings):
        decided.update(_decided_in(tier, standings))
    return frozenset(decided)


def _ranked_tiers(standings: Standings) -> list[list[StandingRow]]:
    final = standings.kind is StageKind.FINAL
    tiers: dict[tuple[bool, bool], list[StandingRow]] = {}
    for row in standings.rows:
        if row.rank is not None:
            tier = (final and not row.eligible, row.tally.games < standings.min_games)
            tiers.setdefault(tier, []).append(row)
    return list(tiers.values())


def _decided_in(rows: Sequence[StandingRow], standings: Standings) -> set[str]:
    primary = primary_key(standings.rank_by)
    if len({row.rank for row in rows}) == len(rows) and not _any_equal(rows, primary):
        return set()
    unbroken, _ = rank_players([row.player for row in rows], {row.player: row.tally for row in rows},
                               standings.chain, (), primary)
    groups: dict[int, list[str]] = {}
    for rank, pid in unbroken:
        groups.setdefault(rank, []).append(pid)
    actual = {row.player: row.rank for row in rows}
    decided: set[str] = set()
    for group in groups.values():
        if len(group) > 1 and len({actual[pid] for pid in group}) > 1:
            decided.update(group)
    return decided


def _any_equal(rows: Sequence[StandingRow], primary: Callable[[PlayerTally], Value]) -> bool:
    values = [primary(row.tally) for row in rows]
    return len(set(values)) != len(values)


class DrawOrderError(ValueError):
    """A drawn order that is not the tie: ``problem`` is ``missing``, ``twice`` or ``stranger``; ``player`` who."""

    def __init__(self, problem: str, player: str) -> None:
        super().__init__(f"{player}: {problem}")
        self.problem, self.player = problem, player


def check_draw_order(tie: Sequence[str], order: Sequence[str]) -> tuple[str, ...]:
    """The order as drawn, when it lists each tied player exactly once; else ``DrawOrderError`` naming one."""
    members = set(tie)
    seen: set[str] = set()
    for pid in order:
        if pid not in members:
            raise DrawOrderError("stranger", pid)
        if pid in seen:
            raise DrawOrderError("twice", pid)
        seen.add(pid)
    for pid in tie:
        if pid not in seen:
            raise DrawOrderError("missing", pid)
    return tuple(order)


def merge_lots(lots: Sequence[str] | None, drawn: Sequence[str]) -> list[str]:
    """The stage's lots with a draw added: the drawn players, in the drawn order, after the others. The lots
    only ever compare players of one tied group, so where the group goes in the list does not matter."""
    taken = set(drawn)
    return [pid for pid in lots or () if pid not in taken] + list(drawn)


def without_lots(lots: Sequence[str] | None, players: Iterable[str]) -> list[str]:
    """The stage's lots with a cancelled draw's players taken out again."""
    gone = set(players)
    return [pid for pid in lots or () if pid not in gone]
