"""The parsing of a tournament's ``params`` overrides into the typed parameters of ``scoring.params``.

An override with an unknown name, a value of the wrong type or one that does not apply to the ruleset is an error
naming the parameter; every error is collected, not only the first.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from . import messages as M
from .errors import message
from .metric_ids import METRIC_IDS
from .model import Role
from .numbers import is_number, to_fraction
from .params import (
    BY_COUNT,
    BY_ROLE,
    CHAIN,
    CHOICE,
    INT,
    NO_SIDE_POINTS,
    NUMBER,
    OPT_INT,
    OPT_NUMBER,
    PARAM_KINDS,
    RANK_BY,
    VALUES,
    WIN,
    ParamError,
    Params,
    ResultPoints,
    ValueSet,
    WinPoints,
)


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
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ParamError(message(M.PARAM_CHAIN, value=json_repr(value)))
    chain = list(value)
    if chain and chain[-1] == "lots":
        chain.pop()
    for item in chain:
        if item == "lots":
            raise ParamError(message(M.PARAM_LOTS_LAST))
        if item not in METRIC_IDS:
            raise ParamError(message(M.PARAM_METRIC, metric=repr(item), known=", ".join(sorted(METRIC_IDS))))
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
