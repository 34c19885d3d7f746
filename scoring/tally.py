"""Scored facts: every counted seat with its points, and each player's tally over a set of stages.

The tally is computed once per standings request; the tie-break metrics only read it.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter, OrderedDict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from .model import Game, Role, Round, Seat, Side, Stage, StageKind, Tournament
from .rulesets import Ruleset, SeatPoints
from .rulesets.base import ZERO as BASE_ZERO

ZERO = BASE_ZERO  # the very object the rulesets use, so parts can be tested by identity


@dataclass(frozen=True)
class ScoredSeat:
    """One seat of one game with a result, with its points; ``total`` is after the multiplier."""

    stage: str
    round: int
    game: Game
    seat: Seat
    points: SeatPoints
    multiplier: Fraction
    total: Fraction
    removed: bool = False  # removed from the table (``Ruleset.is_removed``), whatever the removal's points

    @classmethod
    def score(cls, stage: str, round_: int, game: Game, seat: Seat, points: SeatPoints,
              multiplier: Fraction, removed: bool = False) -> ScoredSeat:
        raw = points.total
        total = raw if multiplier == 1 else raw * multiplier
        return cls(stage, round_, game, seat, points, multiplier, total, removed)

    def counted(self, part: Fraction) -> Fraction:
        """One part of the seat's points as the standings count it: times the stage's multiplier."""
        return part if self.multiplier == 1 or not part else part * self.multiplier

    @property
    def won(self) -> bool:
        return self.game.won(self.seat)


@dataclass
class PlayerTally:
    """What one player did over some stages: the parts of their points and the tie-break facts."""

    player: str
    game_points: Fraction = ZERO
    bye_points: Fraction = ZERO
    absence_points: Fraction = ZERO
    penalty_points: Fraction = ZERO
    games: int = 0
    wins: int = 0
    wins_by_side: Counter[Side] = field(default_factory=Counter)
    removals: int = 0
    byes: int = 0
    absences: int = 0
    best: int = 0
    first_killed: int = 0
    extra: Fraction = ZERO  # as awarded, before any multiplier
    extra_total: Fraction = ZERO  # extra points and best-move points as the standings count them (multiplied)
    ci: Fraction = ZERO  # the first-night compensation as the standings count it (multiplied)
    days_survived: int = 0
    previous_rank: int | None = None  # the place in the previous stage's standings, when a metric asks for it
    wins_as: Counter[Role] = field(default_factory=Counter)
    games_as: Counter[Role] = field(default_factory=Counter)
    seats: list[ScoredSeat] = field(default_factory=list)

    def points_as(self, role: Role) -> Fraction:
        """Game points earned in the games played as ``role`` (computed when a metric asks)."""
        return sum((s.total for s in self.seats if s.seat.role is role and s.total), ZERO)

    def points_by_side(self, side: Side) -> Fraction:
        return sum((s.total for s in self.seats if s.seat.effective_side is side and s.total), ZERO)

    @property
    def points(self) -> Fraction:
        total = self.game_points
        for part in (self.bye_points, self.absence_points, self.penalty_points):
            if part is not ZERO:  # most are the zero object itself: adding it is a slow Fraction addition
                total = total + part
        return total

    @property
    def average(self) -> Fraction:
        """Points per game played (0 without a game): what ``rank_by: "average"`` ranks by."""
        return self.points / self.games if self.games else ZERO

    @property
    def losses(self) -> int:
        return self.games - self.wins

    def add_seat(self, scored: ScoredSeat) -> None:
        seat, total = scored.seat, scored.total
        self.seats.append(scored)
        if total is not ZERO and total:
            self.game_points = total if self.game_points is ZERO else self.game_points + total
        self.games += 1
        self.games_as[seat.role] += 1
        if scored.won:
            self.wins += 1
            self.wins_as[seat.role] += 1
            self.wins_by_side[scored.game.winner] += 1  # type: ignore[index]  # a won game has a winner
        if scored.removed:
            self.removals += 1
        points, extra = scored.points, seat.extra
        # Fraction's truth test is slow: at most once a seat, after the identity test; the parts by identity with ZERO.
        has_extra = extra is not ZERO and bool(extra)
        if has_extra or points.best_move is not ZERO:
            self.extra_total += scored.counted(points.extra + points.best_move)
        if points.ci is not ZERO:
            self.ci += scored.counted(points.ci)
        if seat.best:  # named best by the table's judges (fiim's regulation, ranking 2): the naming, not extra points
            self.best += 1
        if scored.game.first_killed == seat.seat:
            self.first_killed += 1
        if has_extra:
            self.extra += extra
        self.days_survived += seat.days_survived or 0


# What a game's scored seats depend on besides the game: its stage and round, the stage's multiplier and rounds, the
# ruleset (a number ``ScoredGames`` gives each class and parameters) and, with Ci, each seat's player's first kills.
GameKey = tuple[int, str, int, Fraction, int, int, tuple[int, ...] | None]
RULESETS_KEPT = 64  # the rulesets ``ScoredGames`` numbers at most: a server sees a few (each tournament's parameters)


class ScoredGames:
    """Games already scored, kept across ``StageScoring``s by whoever scores one tournament again and again: the web
    app ranks each results version, which differs from the one before by a game or a few, and keeps the unchanged
    games as the very same objects (``exchange.reading.ConvertedGames``). A game's model is frozen, so the same
    object scored under the same key (``GameKey``) has the same seats; an entry holds its game, so the object's id
    in the key cannot be another game's. The least recently used ``size`` games are kept; thread-safe."""

    def __init__(self, size: int = 8192) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.games: OrderedDict[GameKey, tuple[Game, tuple[ScoredSeat, ...]]] = OrderedDict()
        self.rulesets: dict[Hashable, int] = {}
        self.numbers = itertools.count()

    def ruleset_number(self, ruleset: Ruleset) -> int:
        """A number for the ruleset's class and parameters, the same for equal ones while they are remembered
        (hashing the parameters for every game would cost more than a number looked up once a scoring). Numbers are
        never given twice; past ``RULESETS_KEPT`` the ones remembered are forgotten, so equal parameters then get a
        new number and their games are scored again."""
        with self.lock:
            key = (type(ruleset), ruleset.params)
            if key not in self.rulesets:
                if len(self.rulesets) >= RULESETS_KEPT:
                    self.rulesets.clear()
                self.rulesets[key] = next(self.numbers)
            return self.rulesets[key]

    def get(self, key: GameKey, game: Game) -> tuple[ScoredSeat, ...] | None:
        with self.lock:
            found = self.games.get(key)
            if found is None or found[0] is not game:
                return None
            self.games.move_to_end(key)
            return found[1]

    def keep(self, key: GameKey, game: Game, seats: tuple[ScoredSeat, ...]) -> None:
        with self.lock:
            self.games[key] = (game, seats)
            self.games.move_to_end(key)
            while len(self.games) > self.size:
                self.games.popitem(last=False)


class StageScoring:
    """Scores the stages of one tournament under its ruleset, caching what repeats (and, given ``ScoredGames``, the
    games it scored before)."""

    def __init__(self, tournament: Tournament, ruleset: Ruleset, scored_games: ScoredGames | None = None) -> None:
        self.tournament = tournament
        self.ruleset = ruleset
        self._scored: dict[str, list[ScoredSeat]] = {}
        self._first_kills: dict[str, Counter[str]] = {}
        self._scored_games = scored_games
        self._ruleset_number = scored_games.ruleset_number(ruleset) if scored_games is not None else 0

    def kind(self, stage: Stage) -> StageKind:
        return self.tournament.stage_kind(stage)

    def multiplier(self, stage: Stage) -> Fraction:
        if stage.multiplier is not None:
            return stage.multiplier
        return self.ruleset.multiplier_for(self.kind(stage))

    def resets(self, stage: Stage) -> bool:
        if stage.reset is not None:
            return stage.reset
        return self.ruleset.stage_format(self.kind(stage)).reset

    def window(self, stage: Stage) -> list[Stage]:
        """The stages whose points count in ``stage``'s standings: back to the latest reset."""
        index = self.tournament.stage_index(stage.id)
        start = index
        while start > 0 and not self.resets(self.tournament.stages[start]):
            start -= 1
        return list(self.tournament.stages[start:index + 1])

    def so_far(self, stage: Stage) -> list[Stage]:
        """All stages up to and including ``stage`` (for eligibility and zvezdy's tally)."""
        return list(self.tournament.stages[:self.tournament.stage_index(stage.id) + 1])

    def scored_seats(self, stage: Stage) -> list[ScoredSeat]:
        if stage.id not in self._scored:
            multiplier, kills, rounds = self._stage_facts(stage)
            scored: list[ScoredSeat] = []
            for round_ in stage.rounds:
                for game in round_.games:
                    if game.has_result:
                        scored.extend(self._scored_game(stage.id, round_.number, game, multiplier, kills, rounds))
            self._scored[stage.id] = scored
        return self._scored[stage.id]

    def _scored_game(self, stage_id: str, round_number: int, game: Game, multiplier: Fraction,
                     kills: Counter[str] | None, rounds: int) -> Sequence[ScoredSeat]:
        memo = self._scored_games
        if memo is None:
            return [self._score(stage_id, round_number, game, seat, multiplier, kills, rounds) for seat in game.seats]
        key = (id(game), stage_id, round_number, multiplier, rounds, self._ruleset_number,
               None if kills is None else tuple(kills[seat.player] for seat in game.seats))
        seats = memo.get(key, game)
        if seats is None:
            seats = tuple(self._score(stage_id, round_number, game, seat, multiplier, kills, rounds)
                          for seat in game.seats)
            memo.keep(key, game, seats)
        return seats

    def score_seat(self, stage: Stage, round_number: int, game: Game, seat: Seat) -> ScoredSeat:
        """One seat of a game with a result of ``stage``, scored as the standings score it."""
        return self._score(stage.id, round_number, game, seat, *self._stage_facts(stage))

    def _stage_facts(self, stage: Stage) -> tuple[Fraction, Counter[str] | None, int]:
        """The stage's multiplier, and Ci's first kills (None without Ci) and rounds."""
        kills = self.first_kills(stage) if self.ruleset.params.ci_rate else None
        return self.multiplier(stage), kills, len(stage.rounds)

    def _score(self, stage_id: str, round_number: int, game: Game, seat: Seat, multiplier: Fraction,
               kills: Counter[str] | None, rounds: int) -> ScoredSeat:
        ruleset = self.ruleset
        points = ruleset.seat_points(game, seat, kills[seat.player] if kills else 0, rounds)  # first kills, rounds
        return ScoredSeat.score(stage_id, round_number, game, seat, points, multiplier, ruleset.is_removed(seat))

    def first_kills(self, stage: Stage) -> Counter[str]:
        """How many games of ``stage`` with a result each player was killed first in (Ci's K)."""
        if stage.id not in self._first_kills:
            counts: Counter[str] = Counter()
            for round_ in stage.rounds:
                for game in round_.games:
                    if game.has_result and game.first_killed is not None:
                        killed = game.seat_at(game.first_killed)
                        if killed is not None:
                            counts[killed.player] += 1
            self._first_kills[stage.id] = counts
        return self._first_kills[stage.id]

    def tallies(self, stages: Sequence[Stage], players: Iterable[str]) -> dict[str, PlayerTally]:
        tallies = {player: PlayerTally(player) for player in players}
        p = self.ruleset.params
        for stage in stages:
            for scored in self.scored_seats(stage):
                tally = tallies.get(scored.seat.player)
                if tally is not None:
                    tally.add_seat(scored)
            for round_ in stage.rounds:
                self._add_round_points(round_, tallies, p.bye_points, p.absence_points)
        return tallies

    @staticmethod
    def _add_round_points(round_: Round, tallies: dict[str, PlayerTally], bye: Fraction, absence: Fraction) -> None:
        for player in round_.byes:
            if player in tallies:
                tallies[player].byes += 1
                tallies[player].bye_points += bye
        for player in round_.absent:
            if player in tallies:
                tallies[player].absences += 1
                tallies[player].absence_points += absence
        for penalty in round_.penalties:
            if penalty.player in tallies:
                tallies[penalty.player].penalty_points += penalty.points

    def absences_so_far(self, stage: Stage) -> Counter[str]:
        counts: Counter[str] = Counter()
        for earlier in self.so_far(stage):
            for round_ in earlier.rounds:
                counts.update(round_.absent)
        return counts

    def side_wins_so_far(self, stage: Stage) -> Counter[Side]:
        counts: Counter[Side] = Counter()
        for earlier in self.so_far(stage):
            for round_ in earlier.rounds:
                counts.update(game.winner for game in round_.games if game.winner is not None)
        return counts
