"""``python -m scoring needs``: who has clinched the target, who is out, and what the others need (docs/needs.md).

The remaining games are the stage's seated games without a result plus ``rounds_left`` rounds not seated yet. Each
ranked player gets a range of what they can end with: their standings value now plus, for every remaining game of
theirs, the ruleset's fewest to most points for one game (``rulesets.bounds``, times the stage's multiplier), and
for every unseated round one game or a bye where the ruleset still allows them one. The ranges are taken as
independent (the games' real ties between players, such as a side winning together, are relaxed), so every
outcome lies inside them: a status drawn from them is never wrong, and "open" is the answer whenever they cannot
tell. Absences, penalties and disqualifications still to come are not outcomes of games and are left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from .errors import ScoringError
from .explain import number_text
from .model import Game, Side, Stage, StageKind, Tournament
from .rulesets import Ruleset
from .rulesets.bounds import one_game_points
from .standings import StandingRow, Standings, advance_rule, compute_standings
from .tally import StageScoring
from .validation import ruleset_for

Key = tuple[int, Fraction]  # (1, value), or (0, value) for a player short of ``min_games``: higher ranks higher
CLINCHED, ELIMINATED, OPEN = "clinched", "eliminated", "open"


class NoTarget(ScoringError):
    """The target does not exist for the stage (``--target advance`` where nobody is sent on): exit status 2."""


@dataclass(frozen=True)
class Reach:
    """What one player can end the stage with: points, and the ranking key (points or average, after the
    ``min_games`` tier), lowest and highest."""

    points: Fraction
    points_low: Fraction
    points_high: Fraction
    low: Key
    high: Key


def needs(tournament: Tournament, stage_id: str, target: str = "advance", rounds_left: int = 0) -> dict[str, object]:
    """The ``needs`` JSON of docs/command-line.md."""
    ruleset, _ = ruleset_for(tournament)
    standings = compute_standings(tournament, stage_id, ruleset)
    stage = tournament.stage(standings.stage)
    scoring = StageScoring(tournament, ruleset)
    rule = advance_rule(stage, standings.kind, ruleset)
    if target == "advance" and rule is None:
        raise NoTarget(f"stage {stage.id}: nobody goes on from this stage, so --target advance has no answer")
    multiplier = scoring.multiplier(stage)
    low, high = sorted(bound * multiplier for bound in one_game_points(ruleset))
    remaining = [(round_.number, game) for round_ in stage.rounds for game in round_.games if not game.has_result]
    seated = Counter(seat.player for _, game in remaining for seat in game.seats)
    byes = Counter(player for earlier in scoring.so_far(stage) for round_ in earlier.rounds for player in round_.byes)
    reach = {row.player: _reach(row, ruleset, standings, (low, high), seated[row.player], rounds_left,
                                byes[row.player]) for row in standings.rows}
    playing = [row.player for row in standings.rows if row.disqualified is None]
    if not remaining and not rounds_left:
        statuses = _settled(standings, target)
    elif target == "advance":
        assert rule is not None
        mode, count = rule
        if mode == "top":
            statuses = _top(playing, count, reach, exact_needs=standings.rank_by == "points" and not
                            standings.min_games)
        else:
            statuses = _per_game(stage, playing, count, reach, remaining, rounds_left)
    elif standings.kind is StageKind.FINAL and ruleset.winners_rule == "last_game_side":
        statuses = _last_game_side(stage, standings, ruleset, reach, remaining, rounds_left)
    else:
        contenders = [row.player for row in standings.rows if row.disqualified is None
                      and (row.eligible or standings.kind is not StageKind.FINAL)]
        statuses = _top(contenders, 1, reach, exact_needs=standings.rank_by == "points" and not standings.min_games)
    players = []
    for row in standings.rows:
        mine = reach[row.player]
        entry: dict[str, object] = {"player": row.player, "status": ELIMINATED}
        entry.update(statuses.get(row.player, {}))
        entry.update(points=number_text(mine.points), min=number_text(mine.points_low),
                     max=number_text(mine.points_high))
        players.append(entry)
    in_play = set(playing)
    exact = not rounds_left and all(sum(1 for seat in game.seats if seat.player in in_play) <= 1
                                    for _, game in remaining)
    return {"stage": stage.id, "target": target, "rounds_left": rounds_left, "remaining_games": len(remaining),
            "game_points": {"min": number_text(low), "max": number_text(high)}, "exact": exact, "players": players}


def _settled(standings: Standings, target: str) -> dict[str, dict[str, object]]:
    """Nothing left to play: the one outcome is the standings' own (tie-breaks and lots included)."""
    if target == "advance":
        reached = set(standings.advance)
    elif standings.kind is StageKind.FINAL:
        reached = set(standings.winners or ())
    else:
        reached = {row.player for row in standings.rows if row.rank == 1}
    return {row.player: {"status": CLINCHED if row.player in reached else ELIMINATED} for row in standings.rows}


def _reach(row: StandingRow, ruleset: Ruleset, standings: Standings, game: tuple[Fraction, Fraction],
           seated: int, rounds_left: int, byes_so_far: int) -> Reach:
    """The player's range: ``seated`` remaining games, then each unseated round a game or, while the ruleset allows
    this player byes, a bye (``j`` byes among them, every ``j`` tried: the games played change the average)."""
    p = ruleset.params
    allowed = rounds_left if p.max_byes is None else max(0, min(rounds_left, p.max_byes - byes_so_far))
    now = row.points
    options = []
    for j in range(allowed + 1):
        games = seated + rounds_left - j
        options.append((now + games * game[0] + j * p.bye_points, now + games * game[1] + j * p.bye_points,
                        row.tally.games + games))
    points_low, points_high = min(o[0] for o in options), max(o[1] for o in options)
    if standings.rank_by == "average":
        value_low = min(_average(o[0], o[2]) for o in options)
        value_high = max(_average(o[1], o[2]) for o in options)
    else:
        value_low, value_high = points_low, points_high
    least_games, most_games = min(o[2] for o in options), max(o[2] for o in options)
    return Reach(now, points_low, points_high, (int(least_games >= standings.min_games), value_low),
                 (int(most_games >= standings.min_games), value_high))


def _average(points: Fraction, games: int) -> Fraction:
    return points / games if games else Fraction(0)


def _top(contenders: Sequence[str], places: int, reach: dict[str, Reach],
         exact_needs: bool) -> dict[str, dict[str, object]]:
    """The best ``places`` of ``contenders`` reach the target. Sure: fewer than ``places`` others can end level
    with or above P's lowest. Out: at least ``places`` others end above P's highest whatever happens."""
    out: dict[str, dict[str, object]] = {}
    for pid in contenders:
        mine = reach[pid]
        others = [reach[q] for q in contenders if q != pid]
        if sum(1 for other in others if other.high >= mine.low) < places:
            out[pid] = {"status": CLINCHED}
        elif sum(1 for other in others if other.low > mine.high) >= places:
            out[pid] = {"status": ELIMINATED}
        else:
            out[pid] = {"status": OPEN}
            if exact_needs:
                out[pid].update(_points_needed(mine, others, places))
    return out


def _points_needed(mine: Reach, others: Sequence[Reach], places: int) -> dict[str, object]:
    """In points gained from now: P is sure with more than ``to_clinch`` (None: P cannot gain that much), and
    certainly out with less than ``to_keep_chance`` (None: no result of P's own costs P the chance). Only where
    the points rank (``rank_by: "points"``, no ``min_games``): then every key is (1, points)."""
    highest = sorted((other.high[1] for other in others), reverse=True)[places - 1]
    lowest = sorted((other.low[1] for other in others), reverse=True)[places - 1]
    return {"to_clinch": number_text(highest - mine.points) if mine.points_high > highest else None,
            "to_keep_chance": number_text(lowest - mine.points) if mine.points_low < lowest else None}


def _per_game(stage: Stage, playing: Sequence[str], count: int, reach: dict[str, Reach],
              remaining: Sequence[tuple[int, Game]], rounds_left: int) -> dict[str, dict[str, object]]:
    """``per_game`` K: P goes on when fewer than K ranked players of one of P's games rank above P. Sure: one game
    (played, or seated and still to play) where fewer than K of the others can end level with or above P. Out:
    no round left to seat and, in every game of P's, at least K others end above P whatever happens."""
    ranked = set(playing)
    games = [game for round_ in stage.rounds for game in round_.games if game.has_result]
    games += [game for _, game in remaining]
    out: dict[str, dict[str, object]] = {}
    for pid in playing:
        mine = reach[pid]
        mates = [[reach[s.player] for s in game.seats if s.player in ranked and s.player != pid]
                 for game in games if any(s.player == pid for s in game.seats)]
        if any(sum(1 for other in game_mates if other.high >= mine.low) < count for game_mates in mates):
            out[pid] = {"status": CLINCHED}
        elif not rounds_left and all(sum(1 for other in game_mates if other.low > mine.high) >= count
                                     for game_mates in mates):
            out[pid] = {"status": ELIMINATED}
        else:
            out[pid] = {"status": OPEN}
    return out


def _last_game_side(stage: Stage, standings: Standings, ruleset: Ruleset, reach: dict[str, Reach],
                    remaining: Sequence[tuple[int, Game]], rounds_left: int) -> dict[str, dict[str, object]]:
    """tomsk, kostroma: the winners are the eligible ranked players of the side that won the final's last game (by
    round, then table), at most ``max_winners`` of them in standings order. With rounds still to seat, the last
    game is unknown: everyone eligible stays open."""
    eligible = [row.player for row in standings.rows if row.eligible and row.disqualified is None]
    if rounds_left:
        return {pid: {"status": OPEN} for pid in eligible}
    games = [(round_.number, game.table, game) for round_ in stage.rounds for game in round_.games]
    if not games:
        return {}
    _, _, last = max(games, key=lambda item: (item[0], item[1]))
    at_last = {seat.player for seat in last.seats}
    if not last.has_result:  # any side may win it: nobody is sure, and nobody seated at it is out
        return {pid: {"status": OPEN} for pid in eligible if pid in at_last}
    winner: Side | None = last.winner
    side = [pid for pid in eligible if any(s.player == pid and s.effective_side == winner for s in last.seats)]
    limit = ruleset.params.max_winners
    if limit is None:
        return {pid: {"status": CLINCHED} for pid in side}
    return _top(side, limit, reach, exact_needs=False)
