"""Typed ruleset parameters (docs/rules/parameters.md): the parameter set, its value types and how each is read.

Every ruleset shares one parameter set; each ruleset gives its own defaults. ``scoring.param_parsing`` reads a
tournament's ``params`` overrides into it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from . import messages as M
from .errors import Message, message
from .model import Role, Side
from .numbers import format_number, round_half_up, to_file_number, to_fraction


class ParamError(ValueError):
    """One bad parameter override: ``problem`` says what is wrong (a translatable message), ``name`` which
    parameter; ``str()`` is the line the command line prints, ``params.<name>: <problem>``."""

    def __init__(self, problem: Message, name: str = "") -> None:
        self.problem = problem
        self.name = name
        super().__init__(f"params.{name}: {problem}" if name else str(problem))

    def named(self, name: str) -> ParamError:
        return ParamError(self.problem, name)


class ParamsError(ParamError):
    """Several bad overrides at once (``Ruleset.with_overrides``), one line each."""

    def __init__(self, errors: list[ParamError]) -> None:
        self.errors = errors
        self.problem, self.name = errors[0].problem, errors[0].name
        ValueError.__init__(self, "\n".join(str(error) for error in errors))


@dataclass(frozen=True)
class WinPoints:
    """Points per player of a side, per side (a missing side gets 0): those of the winning side (``win_points``)
    or of a losing one (``loss_points``)."""

    red: Fraction
    black: Fraction
    maniac: Fraction

    @classmethod
    def same(cls, points: Fraction | int) -> WinPoints:
        value = Fraction(points)
        return cls(value, value, value)

    def for_side(self, side: Side) -> Fraction:
        if side == Side.RED:
            return self.red
        if side == Side.BLACK:
            return self.black
        if side == Side.MANIAC:
            return self.maniac
        raise KeyError(side)

    def to_json(self) -> object:
        if self.red == self.black == self.maniac:
            return _json_number(self.red)
        return {"red": _json_number(self.red), "black": _json_number(self.black),
                "maniac": _json_number(self.maniac)}


@dataclass(frozen=True)
class ValueSet:
    """Allowed values: an explicit list, or a range ``min..max`` in ``step`` increments."""

    values: tuple[Fraction, ...] = ()
    minimum: Fraction | None = None
    maximum: Fraction | None = None
    step: Fraction | None = None

    @classmethod
    def of(cls, *values: str | int) -> ValueSet:
        return cls(values=tuple(to_fraction(v) for v in values))

    @classmethod
    def range(cls, minimum: str | int, maximum: str | int, step: str | int) -> ValueSet:
        return cls(minimum=to_fraction(minimum), maximum=to_fraction(maximum), step=to_fraction(step))

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, Fraction | int):
            return False
        value = Fraction(value)
        if self.minimum is not None and self.maximum is not None and self.step is not None:
            if not self.minimum <= value <= self.maximum:
                return False
            return ((value - self.minimum) / self.step).denominator == 1
        return value in self.values

    def describe(self) -> Message:
        """``0 or 0.5``, ``0, 0.5 or 1``, ``from -2 to 2 in steps of 0.5`` as a translatable message."""
        if self.minimum is not None and self.maximum is not None and self.step is not None:
            return message(M.VALUES_RANGE, min=format_number(self.minimum), max=format_number(self.maximum),
                           step=format_number(self.step))
        words = [format_number(v) for v in self.values] or ["0"]
        if len(words) == 1:
            return message(M.VALUES_ONE, value=words[0])
        return message(M.VALUES_LIST, values=", ".join(words[:-1]), last=words[-1])

    def to_json(self) -> object:
        if self.minimum is not None and self.maximum is not None and self.step is not None:
            return {"min": _json_number(self.minimum), "max": _json_number(self.maximum),
                    "step": _json_number(self.step)}
        return [_json_number(v) for v in self.values]


NO_SIDE_POINTS = WinPoints.same(0)


@dataclass(frozen=True)
class ResultPoints:
    """What ``role_points`` adds to a player of one role: ``win`` when their side won, ``loss`` when it lost."""

    win: Fraction = Fraction(0)
    loss: Fraction = Fraction(0)

    def to_json(self) -> object:
        return {"win": _json_number(self.win), "loss": _json_number(self.loss)}


RANK_BY = ("points", "average")  # what ranks a stage first: the points, or the points per game played


def _json_number(value: Fraction) -> int | float | str:
    return to_file_number(value)


# How each parameter is read from JSON.
INT, OPT_INT, NUMBER, OPT_NUMBER, WIN, VALUES, BY_COUNT, CHAIN, BY_ROLE, CHOICE = (
    "int", "optional int", "number", "optional number", "win points", "values", "points by count",
    "metric ids", "points by role", "rank by")


@dataclass(frozen=True)
class Params:
    """The parameter set of docs/rules/parameters.md; each ruleset supplies the defaults (no defaults here)."""

    table_size: int
    win_points: WinPoints
    removal_points: Fraction
    absence_points: Fraction
    ineligible_after_absences: int | None
    bye_points: Fraction
    max_byes: int | None
    extra_max_players: int
    extra_values_winner: ValueSet
    extra_values_loser: ValueSet
    extra_total_max: Fraction | None
    best_move_civilian: Mapping[int, Fraction]
    best_move_sheriff: Mapping[int, Fraction]
    circle_best_points: Fraction
    circle_worst_points: Fraction
    circle_max_marks: int
    missed_nights_points: Fraction
    final_multiplier: Fraction
    day_points: Fraction
    sp_min: Fraction
    sp_max: Fraction
    max_winners: int | None
    # The options of rated tournaments (docs/rules/parameters.md, "Options of rated tournaments"): every ruleset
    # has them, and their defaults change nothing.
    tiebreaks: tuple[str, ...] | None = None  # replaces the ruleset's chain; None: the ruleset's own
    loss_points: WinPoints = NO_SIDE_POINTS
    role_points: Mapping[Role, ResultPoints] = dataclasses.field(default_factory=dict)
    ci_rate: Fraction = Fraction(0)  # 0: no first-night compensation
    ci_share: Fraction = Fraction(2, 5)
    ci_cap: Fraction | None = None  # None: equal to ci_rate
    rank_by: str = "points"
    min_games: int = 0

    @property
    def ci_limit(self) -> Fraction:
        """The most Ci one game gives: ``ci_cap``, or ``ci_rate`` when no cap is set."""
        return self.ci_rate if self.ci_cap is None else self.ci_cap

    def ci_divisor(self, stage_rounds: int) -> int:
        """Ci's B for a stage of ``stage_rounds`` rounds (N): max(1, round_half_up(ci_share × N))."""
        return max(1, round_half_up(self.ci_share * stage_rounds))

    def __hash__(self) -> int:  # the mappings are not hashable; parameters are compared, not hashed
        return hash(self.table_size)

    def to_json(self) -> dict[str, object]:
        """All parameters in the file's notation (used to show the defaults and to write them)."""
        out: dict[str, object] = {}
        for item in dataclasses.fields(self):
            out[item.name] = _value_to_json(getattr(self, item.name))
        return out


def _value_to_json(value: object) -> object:
    if isinstance(value, WinPoints | ValueSet | ResultPoints):
        return value.to_json()
    if isinstance(value, Fraction):
        return _json_number(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Mapping):
        return {str(k): _value_to_json(v) for k, v in sorted(value.items())}
    return value


# Each parameter: how it is read from JSON, and what it means (shown to organizers).
PARAM_KINDS: dict[str, tuple[str, str]] = {
    "table_size": (INT, "seats per table"),
    "win_points": (WIN, "per player of the winning side"),
    "removal_points": (NUMBER, "added for a removal from the table"),
    "absence_points": (NUMBER, "per missed round"),
    "ineligible_after_absences": (OPT_INT, "this many absences or more: not eligible"),
    "bye_points": (NUMBER, "per bye"),
    "max_byes": (OPT_INT, "byes a player may get in a tournament"),
    "extra_max_players": (INT, "players per game who may get extra points"),
    "extra_values_winner": (VALUES, "allowed extra for a player of the winning side"),
    "extra_values_loser": (VALUES, "allowed extra for a player of the losing side"),
    "extra_total_max": (OPT_NUMBER, "most extra points in one game"),
    "best_move_civilian": (BY_COUNT, "first-killed civilian, by blacks named"),
    "best_move_sheriff": (BY_COUNT, "first-killed sheriff, by blacks named"),
    "circle_best_points": (NUMBER, "per mark as best of a speech circle"),
    "circle_worst_points": (NUMBER, "per mark as worst of a speech circle"),
    "circle_max_marks": (INT, "best (and worst) marks per speech circle"),
    "missed_nights_points": (NUMBER, "per black player when the mafia missed three nights"),
    "final_multiplier": (NUMBER, "multiplier of a final stage"),
    "day_points": (NUMBER, "tomsk OP per day survived"),
    "sp_min": (NUMBER, "lowest subjective mark"),
    "sp_max": (NUMBER, "highest subjective mark"),
    "max_winners": (OPT_INT, "most winners"),
    "tiebreaks": (CHAIN, "the tie-break chain after the points, replacing the ruleset's; lots come last"),
    "loss_points": (WIN, "per player of the losing side"),
    "role_points": (BY_ROLE, "added by role and result"),
    "ci_rate": (NUMBER, "first-night compensation Ci: the rate (0: none)"),
    "ci_share": (NUMBER, "first-night compensation Ci: the share of the stage's rounds"),
    "ci_cap": (OPT_NUMBER, "first-night compensation Ci: the most in one game (null: the rate)"),
    "rank_by": (CHOICE, "what ranks first: points, or points per game (average)"),
    "min_games": (INT, "fewer games than this: ranked after everyone else"),
}
PARAM_NAMES = tuple(PARAM_KINDS)


def describe(name: str) -> str:
    """What a parameter means, in a few words."""
    return PARAM_KINDS[name][1]
