"""The one path from a protocol's rows to ``scoring``'s model: the facts in memory, the ``scoring`` game built
from them, its problems and points.

The web never checks a rule itself: it builds ``scoring.model.Game`` from the facts and asks
``scoring.validation.game_problems``, so the judge's screen, the import and the CLI agree. The standings read
the same converter (``exchange.reading``), taking the protocol as recorded.
Derived facts [ours]: a player voted out on day N, killed on night N or removed on day N survived
N days; the others survived every day the judge's counter reached. The first kill is the player
killed on night 1 (the lowest seat if two were).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any, Protocol

from django.db.models import F
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import model as m
from scoring.errors import Location, Problem
from scoring.rulesets import Ruleset
from scoring.validation import game_problems
from tournaments.labels import PARTS as PART_LABELS
from tournaments.models import Round, Seat, Table

from ..models import Game, GameState, Left
from ..reasons import FOURTH_FOUL, OTHER, UNSTATED


@dataclass
class SeatFacts:
    number: int
    player: str
    role: str = ""
    side: str = ""
    foul_reasons: list[str] = field(default_factory=list)
    removal_reason: str = ""
    warning_reasons: list[str] = field(default_factory=list)  # verbal warnings (``Ruleset.verbal_warnings``)
    left: str = ""
    left_number: int | None = None
    extra: Fraction = Fraction(0)
    best: bool = False
    subjective: Fraction | None = None
    days_survived: int | None = None  # as stored (imported games); derived when departures are known
    recorded_removed: bool | None = None  # the row's mark as saved (a file may say 4 fouls, not removed)
    recorded_fouls: int | None = None  # the row's count as saved (what the standings read)
    removal_at: int | None = 4  # the remark that removes a player under the regulation (``Ruleset.foul_removal_at``)

    @property
    def fouls(self) -> int:
        return len(self.foul_reasons)

    @property
    def removed(self) -> bool:
        by_fouls = self.removal_at is not None and self.fouls >= self.removal_at
        return bool(self.removal_reason) or self.left == Left.REMOVED or by_fouls


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
    log: list[dict[str, int | str]] = field(default_factory=list)  # the game log: see scoring.model.LogEvent
    awarded: dict[str, Any] = field(default_factory=dict)  # the win awarded: {"reason", "seats"}, as the file's

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
        """Who left is recorded (or the game log is kept, which records every departure)."""
        return any(seat.left for seat in self.seats) or bool(self.log)

    def derived_first_killed(self) -> int | None:
        if not self.departures_known:
            return self.first_killed
        killed = [s.number for s in self.seats if s.left == Left.KILLED and s.left_number == 1]
        return min(killed) if killed else None

    def derived_days(self, seat: SeatFacts) -> int | None:
        if not self.departures_known and seat.days_survived is not None:
            return seat.days_survived
        return seat.left_number if seat.left and seat.left_number else self.day


class SeatPlace(Protocol):
    @property
    def number(self) -> int: ...
    @property
    def participant_id(self) -> int: ...


class SeatResult(Protocol):
    """What ``facts_of`` reads of a seat's result: a ``GameSeat`` with its ``seat``, or the same values read
    without model instances (``exchange.reading``: 12,000 of them were half the cost of a large model)."""

    @property
    def seat(self) -> SeatPlace: ...
    @property
    def role(self) -> str: ...
    @property
    def side(self) -> str: ...
    @property
    def fouls(self) -> int: ...
    @property
    def removed(self) -> bool: ...
    @property
    def extra(self) -> Any: ...
    @property
    def best(self) -> bool: ...
    @property
    def days_survived(self) -> int | None: ...
    @property
    def subjective(self) -> Any: ...
    @property
    def foul_reasons(self) -> Any: ...
    @property
    def removal_reason(self) -> str: ...
    @property
    def warning_reasons(self) -> Any: ...
    @property
    def left(self) -> str: ...
    @property
    def left_number(self) -> int | None: ...


def participant_key(row: SeatResult) -> str:
    return str(row.seat.participant_id)


def exact(value: Fraction | Decimal | int | str) -> Fraction:
    """The value as a Fraction; one already (as the model fields read it) is kept as it is: ``Fraction(x)`` of a
    Fraction still costs microseconds, and a large tournament's model reads 12,000 seats."""
    return value if isinstance(value, Fraction) else Fraction(value)


def facts_of(game: Game, rows: Sequence[SeatResult], player: Callable[[SeatResult], str] = participant_key, *,
             removal_at: int | None = 4) -> ProtocolFacts:
    """``rows`` with ``seat`` loaded, in seat order; ``player`` names each seat's player (by default the
    participant's key); ``removal_at``: the regulation's ``Ruleset.foul_removal_at``."""
    fouls_remove = 5 if removal_at is None else removal_at
    return ProtocolFacts(
        seats=[
            SeatFacts(
                number=row.seat.number,
                player=player(row),
                role=row.role,
                side=row.side,
                foul_reasons=list(row.foul_reasons) if row.foul_reasons else [UNSTATED] * row.fouls,
                removal_reason=row.removal_reason or (OTHER if row.removed and row.fouls < fouls_remove else ""),
                warning_reasons=list(row.warning_reasons or ()),
                left=row.left,
                left_number=row.left_number,
                extra=exact(row.extra),
                best=row.best,
                subjective=None if row.subjective is None else exact(row.subjective),
                days_survived=row.days_survived,
                recorded_removed=row.removed,
                recorded_fouls=row.fouls,
                removal_at=removal_at,
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
        log=[dict(event) for event in game.log or ()],
        awarded=dict(game.awarded or {}),
    )


def tracks_days(ruleset: Ruleset) -> bool:
    """Tomsk's OP counts days survived and its SP is a jury's mark."""
    return bool(ruleset.params.day_points) or ruleset.params.sp_min != ruleset.params.sp_max


def scoring_game(facts: ProtocolFacts, ruleset: Ruleset | None = None, *, table: int = 1, judge: str | None = None,
                 notes: str | None = None, protests: Sequence[m.Protest] = ()) -> m.Game:
    """The facts as ``scoring`` sees them; every seat must have a role.

    With a ``ruleset`` (a protocol being edited), days survived and the first kill are derived from the
    departures where the ruleset counts days; without one, the protocol is taken as recorded (the stored
    days, first kill and removals: what the standings read)."""
    days = ruleset is not None and tracks_days(ruleset)
    recorded = ruleset is None
    return m.Game(
        table=table,
        seats=tuple(
            m.Seat(
                seat=s.number,
                player=s.player,
                role=m.Role(s.role),
                side=m.Side(s.side) if s.side else None,
                fouls=s.recorded_fouls if recorded and s.recorded_fouls is not None else min(s.fouls, 4),
                removed=s.recorded_removed if recorded and s.recorded_removed is not None else s.removed,
                extra=s.extra,
                best=s.best,
                days_survived=facts.derived_days(s) if days else s.days_survived,
                subjective=s.subjective,
                warnings=len(s.warning_reasons),
            )
            for s in facts.seats
        ),
        winner=m.Side(facts.winner) if facts.winner else None,
        first_killed=facts.first_killed if recorded else facts.derived_first_killed(),
        best_move=tuple(facts.best_move),
        circles=tuple(m.Circle(tuple(c.get("best", ())), tuple(c.get("worst", ()))) for c in facts.circles),
        mafia_missed_three_nights=facts.mafia_missed_three_nights,
        judge=judge,
        notes=notes,
        protests=tuple(protests),
        log=tuple(m.LogEvent(str(e["kind"]), int(e["phase"]), None if e.get("seat") is None else int(e["seat"]),
                             None if e.get("count") is None else int(e["count"]),
                             None if e.get("by") is None else int(e["by"])) for e in facts.log),
        awarded=awarded_win(facts.awarded),
    )


def awarded_win(awarded: Mapping[str, Any]) -> m.AwardedWin | None:
    """The protocol's ``awarded`` as scoring's model (None: the game was played out)."""
    if not awarded.get("reason"):
        return None
    return m.AwardedWin(str(awarded["reason"]), tuple(int(n) for n in awarded.get("seats", ())))


def problems(facts: ProtocolFacts, ruleset: Ruleset, *, need_result: bool = False) -> list[Problem]:
    """Every rule the protocol breaks (``scoring``'s checks), plus what a protocol must have."""
    found = [Problem(Location(seat=s.number), _("no role yet")) for s in facts.seats if not s.role]
    found += [Problem(Location(seat=s.number), _("more than 4 fouls")) for s in facts.seats if s.fouls > 4]
    # the reason is first in the removals' list: a hurried judge's pick said a player with 1 foul left by the 4th
    found += [Problem(Location(seat=s.number), ngettext(
        "removed for the fourth foul, but %(k)s foul is recorded",
        "removed for the fourth foul, but %(k)s fouls are recorded", s.fouls) % {"k": s.fouls})
        for s in facts.seats if s.removal_reason == FOURTH_FOUL and s.fouls < 4]
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


@dataclass(frozen=True)
class StageContext:
    """What a seat's points need beyond its own game, for the first-night compensation Ci (``Ruleset.ci_points``):
    how many other games of the stage with a result each player (by ``participant_key``) was killed first in,
    and the stage's rounds. Empty while the tournament gives no Ci."""

    first_kills: Mapping[str, int] = field(default_factory=dict)
    stage_rounds: int = 0


def stage_context(table: Table, ruleset: Ruleset) -> StageContext:
    """The ``StageContext`` of a table's game as the standings count it: the stage's published rounds, and the
    first kills of its other games with a result (submitted or confirmed, as recorded). Two queries, none
    without Ci."""
    if not ruleset.params.ci_rate:
        return StageContext()
    stage = table.round.stage_id
    rounds = Round.objects.published().filter(stage=stage).count()
    killed = (Seat.objects.published().filter(round__stage=stage, number=F("table__game__first_killed"))
              .exclude(table=table).exclude(table__game__state=GameState.DRAFT).exclude(table__game__winner="")
              .values_list("participant_id", flat=True))
    return StageContext(Counter(str(pid) for pid in killed), rounds)


def breakdown(facts: ProtocolFacts, ruleset: Ruleset, multiplier: Fraction,
              context: StageContext | None = None) -> dict[int, SeatBreakdown]:
    """Each seat's points by part, times the stage multiplier; empty while there is no result. ``context``:
    the stage's facts Ci needs (``stage_context``)."""
    if not facts.winner or any(not s.role for s in facts.seats):
        return {}
    context = context or StageContext()
    game = scoring_game(facts, ruleset)
    result = {}
    for seat in game.seats:
        kills = context.first_kills.get(seat.player, 0) + (1 if game.first_killed == seat.seat else 0)
        points = ruleset.seat_points(game, seat, first_kills=kills, stage_rounds=context.stage_rounds)
        parts = [(str(PART_LABELS[name]), value * multiplier) for name, value in points.parts().items()]
        result[seat.seat] = SeatBreakdown(seat.seat, parts, points.total * multiplier)
    return result
