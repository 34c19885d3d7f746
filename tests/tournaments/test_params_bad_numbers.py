"""A parameter of the new-tournament form written as NaN, Infinity, 1e400 or a 5,000-digit number answered 500
(found by the fuzz suite: ``Fraction`` of an infinite float); each is a form error on its field now, and the
scoring parameters refuse non-finite floats whoever passes them."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.param_parsing import parse_overrides
from scoring.rulesets import get_ruleset
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e400", "1" + "0" * 5000, "[NaN]",
                                   '{"red": Infinity}'])
def test_a_parameter_that_is_no_number_is_a_form_error(client: Any, organizer: Any, value: str) -> None:
    from tournaments.forms.params import ParamsForm

    form = ParamsForm({"param-table_size": value, "param-win_points": value}, ruleset_id="fiim", prefix="param")
    assert not form.is_valid() and "table_size" in form.errors and "win_points" in form.errors
    client.force_login(organizer)
    response = client.post("/new/", {"ruleset": "fiim", "name": "Кубок", "slug": "cup", "starts": "2025-03-15",
                                     "param-table_size": value})
    assert response.status_code == 400
    assert Tournament.objects.count() == 0


@pytest.mark.parametrize("value", [float("nan"), float("inf"), -float("inf")])
def test_scoring_refuses_non_finite_parameters(value: float) -> None:
    defaults = get_ruleset("fiim")().params
    _params, errors = parse_overrides(defaults, {"table_size": value})
    assert errors
