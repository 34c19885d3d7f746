"""A protocol's facts in memory, the ``scoring`` game built from them, its problems and points.

The web never checks a rule itself: it builds ``scoring.model.Game`` from the facts and asks
``scoring.validation.game_problems``, so the judge's screen, the import and the CLI agree.
Derived facts [ours]: a player voted out on day N, killed on night N or removed on day N survived
N days; the others survived every day the judge's counter reached. The first kill is the player
killed on night 1 (the lowest seat if two were).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from django.utils.translation import gettext as _

from scoring import model as m
from scoring.errors import Location, Problem
from scoring.rulesets import Ruleset
from scoring.validation import game_problems, ruleset_for
from tournaments.labels import PARTS as PART_LABELS
from tournaments.models import Stage, Tournament

from ..models import Game, GameSeat, Left
from ..reasons import OTHER


@dataclass
class SeatFacts:
    number: int
    player: str
    role: str = ""
    side: str = ""
    foul_reasons: list[str] = field(default_factory=list)
    removal_reason: str = ""
    left: str = ""
    left_number: int | None = None
    extra: Fraction = Fraction(0)
    best: bool = False
    subjective: Fraction | None = None
    days_survived: int | None = None  # as stored (imported games); derived when departures are known

    @property
    def fouls(self) -> int:
        return len(self.foul_reasons)

    @property
    def removed(self) -> bool:
        return bool(self.removal_reason) or self.left == Left.REMOVED or self.fouls >= 4


@dataclass
class ProtocolFacts:
    seats: list[SeatFacts]
    winner: str = ""
    best_move: list[int] = field(default_factory=list)
    circles: list[dict[str, list[int]]] = field(default_factory=list)
    mafia_missed_three_nights: bool = False
    notes: str = ""
    phase: int = 1
    first_killed: int | None = None  # as stored; derived when departures are known

    def seat(self, number: int) -> SeatFacts:
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise KeyError(number)

    @property
    def day(self) -> int:
        """The day of the judge's counter (night N follows day N)."""
        return (self.phase + 1) // 2

    @property
    def is_night(self) -> bool:
        return self.phase % 2 == 0

    @property
    def departures_known(self) -> bool:
        return any(seat.left for seat in self.seats)

    def derived_first_killed(self) -> int | None:
        if not self.departures_known:
            return self.first_killed
        killed = [s.number for s in self.seats if s.left == Left.KILLED and s.left_number == 1]
        return min(killed) if killed else None

    def derived_days(self, seat: SeatFacts) -> int | None:
        if not self.departures_known and seat.days_survived is not None:
            return seat.days_survived
        return seat.left_number if seat.left and seat.left_number else self.day


def facts_of(game: Game, rows: list[GameSeat]) -> ProtocolFacts:
    """``rows`` with ``seat`` loaded, in seat order."""
    return ProtocolFacts(
        seats=[
            SeatFacts(
                number=row.seat.number,
                player=str(row.seat.participant_id),
                role=row.role,
                side=row.side,
                foul_reasons=list(row.foul_reasons) if row.foul_reasons else [OTHER] * row.fouls,
                removal_reason=row.removal_reason or (OTHER if row.removed and row.fouls < 4 else ""),
                left=row.left,
                left_number=row.left_number,
                extra=Fraction(row.extra),
                best=row.best,
                subjective=None if row.subjective is None else Fraction(row.subjective),
                days_survived=row.days_survived,
            )
            for row in rows
        ],
        winner=game.winner,
        best_move=list(game.best_move or ()),
        circles=[dict(c) for c in game.circles or ()],
        mafia_missed_three_nights=game.mafia_missed_three_nights,
        notes=game.notes or "",
        phase=game.phase,
        first_killed=game.first_killed,
    )


def tracks_days(ruleset: Ruleset) -> bool:
    """Tomsk's OP counts days survived and its SP is a jury's mark."""
    return bool(ruleset.params.day_points) or ruleset.params.sp_min != ruleset.params.sp_max


def scoring_game(facts: ProtocolFacts, ruleset: Ruleset, table: int = 1) -> m.Game:
    """The facts as ``scoring`` sees them; every seat must have a role."""
    days = tracks_days(ruleset)
    return m.Game(
        table=table,
        seats=tuple(
            m.Seat(
                seat=s.number,
                player=s.player,
                role=m.Role(s.role),
                side=m.Side(s.side) if s.side else None,
                fouls=min(s.fouls, 4),
                removed=s.removed,
                extra=s.extra,
                best=s.best,
                days_survived=facts.derived_days(s) if days else s.days_survived,
                subjective=s.subjective,
            )
            for s in facts.seats
        ),
        winner=m.Side(facts.winner) if facts.winner else None,
        first_killed=facts.derived_first_killed(),
        best_move=tuple(facts.best_move),
        circles=tuple(m.Circle(tuple(c.get("best", ())), tuple(c.get("worst", ()))) for c in facts.circles),
        mafia_missed_three_nights=facts.mafia_missed_three_nights,
    )


def problems(facts: ProtocolFacts, ruleset: Ruleset, *, need_result: bool = False) -> list[Problem]:
    """Every rule the protocol breaks (``scoring``'s checks), plus what a protocol must have."""
    found = [Problem(Location(seat=s.number), _("no role yet")) for s in facts.seats if not s.role]
    found += [Problem(Location(seat=s.number), _("more than 4 fouls")) for s in facts.seats if s.fouls > 4]
    if need_result and not facts.winner:
        found.append(Problem(Location(), _("the winner is not recorded")))
    if any(not s.role for s in facts.seats):
        return found
    game = scoring_game(facts, ruleset)
    found += game_problems(ruleset, game, Location())
    if not game.has_result:
        # scoring checks the roles of a game once it has a result (a file may hold seated,
        # unplayed tables); the judge has dealt the cards, so the line-up is checked now.
        found += [Problem(Location(), text) for text in ruleset.composition_problems(game.seats)]
    return found


@dataclass(frozen=True)
class SeatBreakdown:
    number: int
    parts: list[tuple[str, Fraction]]
    total: Fraction


def breakdown(facts: ProtocolFacts, ruleset: Ruleset, multiplier: Fraction) -> dict[int, SeatBreakdown]:
    """Each seat's points by part, times the stage multiplier; empty while there is no result."""
    if not facts.winner or any(not s.role for s in facts.seats):
        return {}
    game = scoring_game(facts, ruleset)
    result = {}
    for seat in game.seats:
        points = ruleset.seat_points(game, seat)
        parts = [(str(PART_LABELS[name]), value * multiplier) for name, value in points.parts().items()]
        result[seat.seat] = SeatBreakdown(seat.seat, parts, points.total * multiplier)
    return result


def ruleset_of(tournament: Tournament) -> Ruleset:
    """The tournament's ruleset with its parameters (checked when they were saved)."""
    params = None if tournament.params is None else tuple((k, json.dumps(v)) for k, v in tournament.params.items())
    ruleset, _problems = ruleset_for(m.Tournament(ruleset=tournament.ruleset, players=(), stages=(), params=params))
    return ruleset


def stage_multiplier(stage: Stage, ruleset: Ruleset) -> Fraction:
    """The stage's multiplier, or the ruleset's for its kind (from its position when not given)."""
    if stage.multiplier is not None:
        return Fraction(stage.multiplier)
    if stage.kind and stage.kind != m.StageKind.OTHER:
        kind = m.StageKind(stage.kind)
    else:
        orders = sorted(Stage.objects.filter(tournament=stage.tournament_id).values_list("order", flat=True))
        if stage.order == orders[0]:
            kind = m.StageKind.QUALIFYING
        elif stage.order == orders[-1]:
            kind = m.StageKind.FINAL
        else:
            kind = m.StageKind.SEMIFINAL
    return ruleset.multiplier_for(kind)


def to_decimal(value: Fraction | None) -> Decimal | None:
    if value is None:
        return None
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.000001"))
