"""The ruleset base class: parameters, table composition, game points, stage format, winners.

A ruleset is data plus a few functions (docs/rules/parameters.md): a subclass sets its defaults and
overrides the few methods where its regulation differs. Subclasses register themselves with
``@register`` under their stable id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import ClassVar

from .. import messages as M
from ..errors import Message, message
from ..model import BLACK_ROLES, AwardRule, Game, Role, Seat, SeatingMethod, Side, StageKind
from ..model import ZERO as ZERO  # the model's one zero, re-exported: the parts below are tested by identity with it
from ..param_parsing import parse_overrides
from ..params import NO_SIDE_POINTS, ParamError, Params, ParamsError

# The parts of a seat's game points, in the order breakdowns show them (``SeatPoints.parts``).
PART_NAMES = ("win", "loss", "role", "days", "subjective", "best_move", "extra", "ci", "circles", "removal",
              "missed_nights")
# The parameters of docs/rules/parameters.md a regulation has no use for (a dash in its column): tomsk gives no
# extra points, and only tomsk has days survived and the jury's marks.
TOMSK_ONLY = frozenset({"day_points", "sp_min", "sp_max"})


@dataclass(frozen=True)
class SeatPoints:
    """The game points of one seat, broken down, before the stage multiplier (docs/rules/)."""

    win: Fraction = ZERO
    loss: Fraction = ZERO  # ``loss_points`` of a losing side
    role: Fraction = ZERO  # ``role_points`` of the seat's role, by result
    days: Fraction = ZERO  # tomsk OP: day_points × days survived
    subjective: Fraction = ZERO  # tomsk SP
    best_move: Fraction = ZERO
    extra: Fraction = ZERO
    ci: Fraction = ZERO  # the first-night compensation (``ci_points``)
    circles: Fraction = ZERO
    removal: Fraction = ZERO
    missed_nights: Fraction = ZERO

    @cached_property  # once an object: ``Ruleset.seat_points`` gives the seats of one outcome the same object
    def total(self) -> Fraction:
        # Only the non-zero parts are added: Fraction additions dominate the cost of standings. Most parts are the
        # ``ZERO`` object itself, which an identity test skips without Fraction's slow truth test.
        total = ZERO
        for part in (self.win, self.loss, self.role, self.days, self.subjective, self.best_move, self.extra,
                     self.ci, self.circles, self.removal, self.missed_nights):
            if part is not ZERO and part:
                total = part if total is ZERO else total + part
        return total

    def parts(self) -> dict[str, Fraction]:
        """The non-zero parts by name, for breakdowns on pages and in the CLI."""
        return {name: getattr(self, name) for name in PART_NAMES if getattr(self, name)}


@dataclass(frozen=True)
class AwardProposal:
    """An award a ruleset proposes: a computed kind (``scoring.awards.KINDS``), whether it is given unless the
    organizer turns it off (the regulation names it) or only suggested, and the fewest games a candidate needs
    in the role or side the kind counts."""

    kind: str
    enabled: bool = False
    min_games: int = 1


@dataclass(frozen=True)
class StageFormat:
    """What a stage of a kind gets when the file does not say (docs/rules/, a page per ruleset)."""

    advance: tuple[str, int] | None  # ("top", N) or ("per_game", K); None: nobody advances
    reset: bool
    multiplier: Fraction
    rounds: int
    seating: tuple[SeatingMethod, ...]  # per round, 1-based rounds map to index round-1 (last repeats)
    tables: int | None = None  # tables per round the preset proposes, when the regulation fixes it

    def seating_for(self, round_number: int) -> SeatingMethod:
        index = min(max(round_number, 1), len(self.seating)) - 1
        return self.seating[index]


class Ruleset:
    """Common behaviour; each regulation's class documents its clauses."""

    id: ClassVar[str]
    name: ClassVar[str]
    regulation: ClassVar[str]  # the seed file of the Russian original
    defaults: ClassVar[Params]
    # Special roles per table; civilians fill the remaining seats.
    special_roles: ClassVar[Mapping[Role, int]]
    # The tie-break chain after points, by metric id (see ``metrics``); lots always come last.
    tiebreaks: ClassVar[tuple[str, ...]]
    # Registration and procedure facts the web application shows and enforces.
    registration_cap: ClassVar[int | None] = None  # players beyond it are guests
    min_age: ClassVar[int | None] = None
    max_age: ClassVar[int | None] = None
    allows_extra_characters: ClassVar[bool] = False
    protest_minutes: ClassVar[int | None] = None  # the window after the game's end; past it a protest is refused
    protests_by_default: ClassVar[bool] = True  # whether a tournament takes protests unless its organizer says
    participant_cap: ClassVar[int | None] = None  # the most accepted participants a new tournament proposes
    residents_only: ClassVar[bool] = False  # players live in the tournament's city: an application states it
    standings_hidden_by_default: ClassVar[bool] = False
    # The consequences of remarks (fouls), from each regulation's own text: the remark that costs the player a
    # speech and the one that removes them from the table without a last word; None: the document sets none.
    foul_silence_at: ClassVar[int | None] = 3
    foul_removal_at: ClassVar[int | None] = 4
    # Whether the regulation names a verbal warning apart from the remark (``Seat.warnings``); no regulation gives a
    # count of warnings a consequence, so they are recorded and shown, and score nothing.
    verbal_warnings: ClassVar[bool] = False
    # The cases where the regulation awards the win instead of letting the game decide it: reason id → who it names
    # (``AwardedWin``); the awarded side scores as any winner.
    win_awards: ClassVar[Mapping[str, AwardRule]] = {}
    takes_applications: ClassVar[bool] = False  # players apply; the organizer accepts or rejects each
    team_size: ClassVar[int | None] = None  # the most players of one team, where the regulation sets it
    # The team competition: how many teams each kind of stage sends on (docs/rules/tournament.md, "Teams").
    # Empty: the regulation has none; a tournament with teams then only shows the team table.
    team_advance: ClassVar[Mapping[StageKind, int]] = {}

    # The awards the regulation names (given unless turned off), then the common nominations it is silent on,
    # only suggested (docs/rules/awards.md).
    awards: ClassVar[tuple[AwardProposal, ...]] = ()

    # The parameters that do not apply to this regulation (a dash in docs/rules/parameters.md): setting one is an
    # error saying so, never silently ignored.
    not_applicable: ClassVar[frozenset[str]] = TOMSK_ONLY

    def __init__(self, params: Params | None = None) -> None:
        self.params = params if params is not None else self.defaults
        # Tested once here, not for every seat: Fraction's truth test is slow.
        self._gives_ci = bool(self.params.ci_rate)
        # The points of a seat with no part of its own (see ``seat_points``), by the facts that decide them.
        self._outcome_points: dict[tuple[bool, Side, Side, Role, bool, bool], SeatPoints] = {}

    @classmethod
    def parse_params(cls, raw: Mapping[str, object]) -> tuple[Params, list[ParamError]]:
        """The defaults with ``raw`` overrides applied, and every error in them (``params.parse_overrides``)."""
        return parse_overrides(cls.defaults, raw, cls.not_applicable, cls.id)

    @classmethod
    def with_overrides(cls, raw: Mapping[str, object]) -> Ruleset:
        params, errors = cls.parse_params(raw)
        if errors:
            raise errors[0] if len(errors) == 1 else ParamsError(errors)
        return cls(params)

    def is_removed(self, seat: Seat) -> bool:
        """Removed from the table: marked so, or by the remark that removes a player under this regulation."""
        return seat.removed or (self.foul_removal_at is not None and seat.fouls >= self.foul_removal_at)

    # --- Table composition -------------------------------------------------------------

    def expected_roles(self) -> dict[Role, int]:
        """Role counts at a table: the special roles, and civilians for the other seats."""
        counts = dict(self.special_roles)
        counts[Role.CIVILIAN] = self.params.table_size - sum(counts.values())
        return counts

    def composition_problems(self, seats: tuple[Seat, ...]) -> list[Message]:
        """Messages like ``2 dons at the table; fiim expects 1``; empty when the table is right."""
        counts: dict[Role, int] = {}
        for seat in seats:
            counts[seat.role] = counts.get(seat.role, 0) + 1
        return self._compare_roles(counts, self.expected_roles())

    def _compare_roles(self, counts: Mapping[Role, int], expected: Mapping[Role, int],
                       template: str = M.ROLE_COUNT) -> list[Message]:
        if counts == {role: n for role, n in expected.items() if n}:  # the usual table: nothing to compare
            return []
        problems = []
        for role in Role:
            have, want = counts.get(role, 0), expected.get(role, 0)
            if have != want:
                problems.append(message(template, count=have, roles=role_word(have, role), role=role.value,
                                        ruleset=self.id, expected=want))
        return problems

    # --- Points --------------------------------------------------------------------------

    def seat_points(self, game: Game, seat: Seat, first_kills: int = 0, stage_rounds: int = 0) -> SeatPoints:
        """Points of one seat in a game with a result, before the stage's multiplier. ``first_kills`` and
        ``stage_rounds`` are the K and N of the first-night compensation (``ci_points``): the games of this
        stage in which the seat's player was killed first, and the stage's rounds."""
        assert game.winner is not None
        won = game.won(seat)
        days = self.day_points(seat)
        subjective = self.subjective_points(seat)
        best_move = self.best_move_points(game, seat)
        ci = self.ci_points(game, seat, first_kills, stage_rounds) if self._gives_ci else ZERO
        circles = self.circle_points(game, seat)
        removed = self.is_removed(seat)
        # "Black" is the mafia and the don (docs/rules/game.md), as for the best move below.
        missed = game.mafia_missed_three_nights and seat.role in BLACK_ROLES
        if days is ZERO and subjective is ZERO and best_move is ZERO and seat.extra is ZERO and ci is ZERO \
                and circles is ZERO:
            # Most seats: the points follow from the outcome alone, so the seats of one outcome share one
            # (frozen) object, built once: building it is most of the cost of scoring a seat.
            side = seat.effective_side
            key = (won, game.winner, side, seat.role, removed, missed)
            points = self._outcome_points.get(key)
            if points is None:
                points = self._outcome_points[key] = self._points(won, game.winner, side, seat.role, removed,
                                                                  missed)
            return points
        return self._points(won, game.winner, seat.effective_side, seat.role, removed, missed, days=days,
                            subjective=subjective, best_move=best_move, extra=seat.extra, ci=ci, circles=circles)

    def _points(self, won: bool, winner: Side, side: Side, role: Role, removed: bool, missed: bool,
                **own: Fraction) -> SeatPoints:
        """A seat's points from the outcome (won, the winning side, the seat's side and role, removed, the
        mafia's missed nights) and the parts of the seat's own (``own``)."""
        p = self.params
        role_points = p.role_points.get(role) if p.role_points else None
        return SeatPoints(
            win=p.win_points.for_side(winner) if won else ZERO,
            loss=ZERO if won or p.loss_points is NO_SIDE_POINTS else p.loss_points.for_side(side),
            role=ZERO if role_points is None else role_points.win if won else role_points.loss,
            removal=p.removal_points if removed else ZERO,
            missed_nights=p.missed_nights_points if missed else ZERO,
            **own,
        )

    def day_points(self, seat: Seat) -> Fraction:
        if not seat.days_survived or not self.params.day_points:  # the seat first: most have no days written
            return ZERO
        return self.params.day_points * seat.days_survived

    def subjective_points(self, seat: Seat) -> Fraction:
        return seat.subjective if seat.subjective is not None else ZERO

    def best_move_points(self, game: Game, seat: Seat) -> Fraction:
        """The first-killed player's guess: points by how many of the named seats are black."""
        if game.first_killed != seat.seat or not game.best_move or seat.effective_side is not Side.RED:
            return ZERO
        # A sheriff by its own table; every other red role (a civilian, a doctor, a red extra character) by the
        # civilian's [ours: the regulations name only the civilian and the sheriff].
        table = self.params.best_move_sheriff if seat.role is Role.SHERIFF else self.params.best_move_civilian
        if not table:
            return ZERO
        blacks = sum(1 for number in game.best_move
                     if (named := game.seat_at(number)) is not None and named.role in BLACK_ROLES)
        return table.get(blacks, ZERO)

    def ci_points(self, game: Game, seat: Seat, first_kills: int, stage_rounds: int) -> Fraction:
        """The first-night compensation (docs/rules/parameters.md): a red player killed in the first night of a
        game the red side lost receives min(ci_cap, ci_rate × K / B), K = ``first_kills`` (this stage's games
        with a result in which they were killed first, this one included), B = max(1, round_half_up(ci_share ×
        N)), N = ``stage_rounds``. With ci_rate 0.4, 12 rounds (B = round(4.8) = 5) and K = 2: 0.4 × 2 / 5 =
        0.16."""
        p = self.params
        if game.first_killed != seat.seat or seat.effective_side is not Side.RED or game.winner is Side.RED:
            return ZERO
        return min(p.ci_limit, p.ci_rate * max(first_kills, 1) / p.ci_divisor(stage_rounds))

    def circle_points(self, game: Game, seat: Seat) -> Fraction:
        if not game.circles:
            return ZERO
        best = sum(1 for circle in game.circles if seat.seat in circle.best)
        worst = sum(1 for circle in game.circles if seat.seat in circle.worst)
        if not best and not worst:
            return ZERO
        return self.params.circle_best_points * best + self.params.circle_worst_points * worst

    # --- Stage format ----------------------------------------------------------------------

    def stage_format(self, kind: StageKind) -> StageFormat:
        raise NotImplementedError

    # The stages the regulation's programme has, in order (a new tournament's preset proposes these).
    stage_kinds: ClassVar[tuple[StageKind, ...]] = (StageKind.QUALIFYING, StageKind.SEMIFINAL, StageKind.FINAL)

    def table_groups(self, kind: StageKind) -> tuple[tuple[int, ...], ...]:
        """The groups of tables of a stage the programme plays apart: group i's games (the tables listed, in
        every round of the stage) feed table i of the next stage. Empty: the stage is one group."""
        return ()

    def multiplier_for(self, kind: StageKind) -> Fraction:
        return self.params.final_multiplier if kind is StageKind.FINAL else Fraction(1)

    # --- Tie-breaks and winners ---------------------------------------------------------------

    def chain(self, black_wins: int, red_wins: int) -> tuple[str, ...]:
        """Metric ids after points: the tournament's ``tiebreaks`` parameter where it sets one, else the
        regulation's own chain (``tiebreak_chain``). ``black_wins``/``red_wins``: the tally so far (zvezdy)."""
        if self.params.tiebreaks is not None:
            return self.params.tiebreaks
        return self.tiebreak_chain(black_wins, red_wins)

    def tiebreak_chain(self, black_wins: int, red_wins: int) -> tuple[str, ...]:
        """The regulation's own metric ids after points. ``black_wins``/``red_wins``: the tally so far (zvezdy)."""
        return self.tiebreaks

    winners_rule: ClassVar[str] = "best_ranked"  # or "last_game_side" (tomsk, kostroma)

    def proposed_awards(self) -> tuple[AwardProposal, ...]:
        """The ruleset's own awards, then suggestions for each special role at its tables and for each side."""
        named = {proposal.kind for proposal in self.awards}
        roles = [role for role in (Role.DON, Role.SHERIFF, Role.MANIAC, Role.DOCTOR) if role in self.special_roles]
        common = [AwardProposal("best_player"), *(AwardProposal(f"best_role:{role.value}", min_games=2)
                                                  for role in roles),
                  AwardProposal("best_side:red", min_games=2), AwardProposal("best_side:black", min_games=2)]
        if self.counts_named_best:
            common.append(AwardProposal("most_best"))
        return (*self.awards, *(proposal for proposal in common if proposal.kind not in named))

    # Whether the judges name best players in its games (extra points, ``best``, circle marks): "most named best".
    counts_named_best: ClassVar[bool] = True

    # --- Per-ruleset seat checks beyond the common ones -------------------------------------

    def extra_seat_problems(self, game: Game, seat: Seat) -> list[Message]:
        return []


def role_word(count: int, role: Role) -> str:
    """The English word after a count: ``don``, ``dons``, ``sheriffs``, ``mafia``."""
    plural = count != 1 and role is not Role.MAFIA
    return role.value + ("s" if plural else "")


RULESETS: dict[str, type[Ruleset]] = {}


def register(cls: type[Ruleset]) -> type[Ruleset]:
    RULESETS[cls.id] = cls
    return cls


def get_ruleset(ruleset_id: str) -> type[Ruleset]:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise KeyError(f"unknown ruleset {ruleset_id!r}; known: {', '.join(sorted(RULESETS))}") from None

