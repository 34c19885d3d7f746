"""Typed ruleset parameters (docs/rules/parameters.md) and the parsing of a tournament's ``params`` overrides.

Every ruleset shares one parameter set; each ruleset gives its own defaults. An override with
an unknown name or a value of the wrong type is an error naming the parameter.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import messages as M
from .errors import Message, message
from .model import Role, Side
from .numbers import format_number, is_number, round_half_up, to_file_number, to_fraction


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


def parse_overrides(defaults: Params, raw: Mapping[str, object], not_applicable: frozenset[str] = frozenset(),
                    ruleset_id: str = "") -> tuple[Params, list[ParamError]]:
    """Apply ``raw`` overrides to ``defaults``; return the result and every error found. A parameter in
    ``not_applicable`` (a dash of docs/rules/parameters.md for ``ruleset_id``) is refused as not applying."""
    kinds = {name: kind for name, (kind, _) in PARAM_KINDS.items()}
    changes: dict[str, Any] = {}
    errors: list[ParamError] = []
    for name, value in raw.items():
        if name not in kinds:
            errors.append(ParamError(message(M.PARAM_UNKNOWN), name))
            continue
        if name in not_applicable:
            errors.append(ParamError(message(M.PARAM_NOT_APPLICABLE, ruleset=ruleset_id), name))
            continue
        try:
            changes[name] = _parse(kinds[name], value)
        except ParamError as error:
            errors.append(error.named(name))
    params = dataclasses.replace(defaults, **changes) if not errors else defaults
    if not errors:
        errors.extend(_check_consistency(params))
    return params, errors


def _check_consistency(params: Params) -> list[ParamError]:
    errors = []
    if not 1 <= params.table_size <= 12:
        errors.append(ParamError(message(M.PARAM_TABLE_SIZE), "table_size"))
    if params.sp_min > params.sp_max:
        errors.append(ParamError(message(M.PARAM_SP_ORDER), "sp_min"))
    if params.final_multiplier <= 0:
        errors.append(ParamError(message(M.PARAM_ABOVE_ZERO), "final_multiplier"))
    for name in ("ci_rate", "ci_share"):
        if getattr(params, name) < 0:
            errors.append(ParamError(message(M.PARAM_NOT_NEGATIVE), name))
    if params.ci_cap is not None and params.ci_cap < 0:
        errors.append(ParamError(message(M.PARAM_NOT_NEGATIVE), "ci_cap"))
    return errors


def _parse(kind: str, value: object) -> object:
    if kind == INT:
        return _whole(value)
    if kind == OPT_INT:
        return None if value is None else _whole(value)
    if kind == NUMBER:
        return _number(value)
    if kind == OPT_NUMBER:
        return None if value is None else _number(value)
    if kind == WIN:
        return _win_points(value)
    if kind == VALUES:
        return _value_set(value)
    if kind == BY_COUNT:
        return _by_count(value)
    if kind == CHAIN:
        return None if value is None else _chain(value)  # null: the ruleset's own chain
    if kind == BY_ROLE:
        return _by_role(value)
    if kind == CHOICE:
        if value not in RANK_BY:
            raise ParamError(message(M.PARAM_RANK_BY, value=json_repr(value)))
        return value
    raise AssertionError(kind)  # pragma: no cover - every kind is handled above


def _number(value: object) -> Fraction:
    if not is_number(value):
        raise ParamError(message(M.PARAM_NUMBER, value=json_repr(value)))
    return to_fraction(value)


def _whole(value: object) -> int:
    number = _number(value)
    if number.denominator != 1 or number < 0:
        raise ParamError(message(M.PARAM_WHOLE, value=json_repr(value)))
    return int(number)


def _win_points(value: object) -> WinPoints:
    points = _side_points(value)
    return NO_SIDE_POINTS if points == NO_SIDE_POINTS else points  # the one "none" object: tested by identity


def _side_points(value: object) -> WinPoints:
    if isinstance(value, Mapping):
        unknown = set(value) - {"red", "black", "maniac"}
        if unknown:
            raise ParamError(message(M.PARAM_SIDE, side=repr(sorted(unknown)[0])))
        return WinPoints(*(_number(value.get(side, 0)) for side in ("red", "black", "maniac")))
    return WinPoints.same(_number(value))


def _value_set(value: object) -> ValueSet:
    if isinstance(value, list):
        return ValueSet(values=tuple(_number(v) for v in value))
    if isinstance(value, Mapping):
        if set(value) != {"min", "max", "step"}:
            raise ParamError(message(M.PARAM_RANGE_KEYS))
        step = _number(value["step"])
        if step <= 0:
            raise ParamError(message(M.PARAM_RANGE_STEP))
        minimum, maximum = _number(value["min"]), _number(value["max"])
        if minimum > maximum:
            raise ParamError(message(M.PARAM_RANGE_ORDER))
        return ValueSet(minimum=minimum, maximum=maximum, step=step)
    raise ParamError(message(M.PARAM_VALUES, value=json_repr(value)))


def _by_count(value: object) -> dict[int, Fraction]:
    if not isinstance(value, Mapping):
        raise ParamError(message(M.PARAM_BY_COUNT, value=json_repr(value)))
    out: dict[int, Fraction] = {}
    for key, points in value.items():
        if not (isinstance(key, str) and key in {"0", "1", "2", "3"}):
            raise ParamError(message(M.PARAM_BLACKS_NAMED, key=repr(key)))
        out[int(key)] = _number(points)
    return out


def _chain(value: object) -> tuple[str, ...]:
    """An ordered list of metric ids (``scoring.metrics``); ``"lots"`` may close it, as lots always do."""
    from .metrics import METRICS  # the metrics read the tally, which reads the rulesets, which read this module

    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ParamError(message(M.PARAM_CHAIN, value=json_repr(value)))
    chain = list(value)
    if chain and chain[-1] == "lots":
        chain.pop()
    for item in chain:
        if item == "lots":
            raise ParamError(message(M.PARAM_LOTS_LAST))
        if item not in METRICS:
            raise ParamError(message(M.PARAM_METRIC, metric=repr(item), known=", ".join(sorted(METRICS))))
    repeated = sorted({item for item in chain if chain.count(item) > 1})
    if repeated:
        raise ParamError(message(M.PARAM_METRIC_TWICE, metric=repr(repeated[0])))
    return tuple(chain)


def _by_role(value: object) -> dict[Role, ResultPoints]:
    if not isinstance(value, Mapping):
        raise ParamError(message(M.PARAM_BY_ROLE, value=json_repr(value)))
    roles = {role.value: role for role in Role}
    out: dict[Role, ResultPoints] = {}
    for key, points in value.items():
        if key not in roles:
            raise ParamError(message(M.PARAM_ROLE, key=repr(key), known=", ".join(roles)))
        if not isinstance(points, Mapping) or not set(points) <= {"win", "loss"}:
            raise ParamError(message(M.PARAM_ROLE_POINTS, role=key, value=json_repr(points)))
        out[roles[key]] = ResultPoints(_number(points.get("win", 0)), _number(points.get("loss", 0)))
    return out


def json_repr(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return repr(value)
