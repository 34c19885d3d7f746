"""Ruleset parameters (docs/rules/parameters.md): defaults per ruleset, typed overrides, clear errors."""

from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.model import Role, Side
from scoring.params import PARAM_NAMES, ParamError
from scoring.rulesets import RULESETS, get_ruleset

DEFAULTS = {
    # name: (tomsk, kostroma, fiim, zvezdy) as in the table of docs/rules/parameters.md
    "table_size": (12, 10, 10, 10),
    "removal_points": (0, -1, 0, -3),
    "absence_points": (0, 0, -2, 0),
    "ineligible_after_absences": (None, None, 2, None),
    "bye_points": (0, 0, 0, 3),
    "max_byes": (None, None, None, 1),
    "extra_max_players": (0, 3, 2, 10),
    "extra_total_max": (None, 2, None, None),
    "circle_best_points": (0, 0, 0, 1),
    "circle_worst_points": (0, 0, 0, -1),
    "circle_max_marks": (0, 0, 0, 2),
    "missed_nights_points": (0, 0, 0, -3),
    "final_multiplier": (1, Fraction(3, 2), 1, 1),
    "max_winners": (6, None, None, None),
}
ORDER = ("tomsk", "kostroma", "fiim", "zvezdy")


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_defaults_follow_the_rules_table(name: str) -> None:
    assert tuple(getattr(get_ruleset(r).defaults, name) for r in ORDER) == DEFAULTS[name]


def test_win_points_and_best_move_defaults() -> None:
    kostroma = get_ruleset("kostroma").defaults
    assert (kostroma.win_points.for_side(Side.RED), kostroma.win_points.for_side(Side.BLACK)) == (3, 4)
    assert get_ruleset("fiim").defaults.best_move_civilian == {2: Fraction(1, 4), 3: Fraction(1, 2)}
    assert get_ruleset("zvezdy").defaults.best_move_sheriff == {3: 3}
    tomsk = get_ruleset("tomsk").defaults
    assert (tomsk.day_points, tomsk.sp_min, tomsk.sp_max) == (Fraction(1, 2), -3, 3)


def test_every_ruleset_has_every_parameter() -> None:
    assert set(RULESETS) == set(ORDER)
    for cls in RULESETS.values():
        assert set(cls.defaults.to_json()) == set(PARAM_NAMES)


def test_overrides_accept_numbers_decimal_strings_lists_ranges_and_maps() -> None:
    ruleset = get_ruleset("fiim").with_overrides({
        "removal_points": "-0.5",
        "win_points": {"red": 2, "black": "2.5"},
        "extra_values_loser": {"min": 0, "max": 1, "step": 0.25},
        "best_move_civilian": {"3": 1},
        "max_byes": None,
        "table_size": 9,
    })
    p = ruleset.params
    assert p.removal_points == Fraction(-1, 2)
    assert p.win_points.for_side(Side.BLACK) == Fraction(5, 2) and p.win_points.for_side(Side.MANIAC) == 0
    assert Fraction(3, 4) in p.extra_values_loser and Fraction(1, 3) not in p.extra_values_loser
    assert p.best_move_civilian == {3: 1}
    assert ruleset.expected_roles()[Role.CIVILIAN] == 5  # a table of 9: one civilian fewer


@pytest.mark.parametrize(("raw", "message"), [
    ({"nope": 1}, "params.nope: unknown parameter"),
    ({"bye_points": True}, "params.bye_points: expected a number or a decimal string, got true"),
    ({"bye_points": "3,5"}, "params.bye_points: expected a number or a decimal string, got '3,5'"),
    ({"table_size": 9.5}, "params.table_size: expected a whole number of 0 or more, got 9.5"),
    ({"table_size": 20}, "params.table_size: must be from 1 to 12"),
    ({"win_points": {"green": 1}}, "params.win_points: unknown side 'green'; sides are red, black, maniac"),
    ({"extra_values_winner": {"min": 0, "max": 1}},
     'params.extra_values_winner: a range needs exactly "min", "max" and "step"'),
    ({"best_move_sheriff": {"4": 1}}, "params.best_move_sheriff: the number of blacks named must be 0 to 3, got '4'"),
    ({"ineligible_after_absences": "two"},
     "params.ineligible_after_absences: expected a number or a decimal string, got 'two'"),
])
def test_bad_overrides_are_refused_naming_the_parameter(raw: dict[str, object], message: str) -> None:
    with pytest.raises(ParamError) as error:
        get_ruleset("fiim").with_overrides(raw)
    assert str(error.value) == message


def test_the_metric_ids_below_the_parameters_are_the_registered_metrics() -> None:
    """A chain is checked against ``scoring.metric_ids`` (below the parameters): it lists every metric, no more."""
    from scoring.metric_ids import METRIC_IDS
    from scoring.metrics import METRICS

    assert set(METRICS) == METRIC_IDS
