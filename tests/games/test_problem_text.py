"""``scoring``'s problem messages reach the pages translated, with the seat and role named."""

from __future__ import annotations

from django.utils import translation

from scoring import messages
from scoring.errors import Location, Problem, message
from scoring.model import Role
from scoring.rulesets import get_ruleset
from tournaments.problem_text import TEMPLATES, problem_text

WHERE = Location(stage="q", round=3, table=2, seat=4)


def test_every_scoring_template_is_in_the_catalogue_and_translated() -> None:
    assert set(TEMPLATES) == set(messages.ALL)
    with translation.override("ru"):
        untranslated = [t for t in messages.ALL if translation.gettext(t) == t and t != messages.VALUES_ONE]
    assert untranslated == []


def test_a_problem_in_russian_names_place_role_and_values() -> None:
    problem = Problem(WHERE, message(messages.ROLE_COUNT, count=2, roles="dons", role="don", ruleset="fiim",
                                     expected=1))
    with translation.override("en"):
        assert problem_text(problem) == "stage q, round 3, table 2, seat 4: 2 dons at the table; FIIM expects 1"
    with translation.override("ru"):
        assert problem_text(problem) == "этап q, тур 3, стол 2, место 4: дон: за столом 2, ФИИМ требует 1"


def test_nested_messages_are_translated_too() -> None:
    allowed = get_ruleset("fiim").defaults.extra_values_loser.describe()
    problem = Problem(WHERE, message(messages.EXTRA_LOSER, allowed=allowed, ruleset="fiim"))
    with translation.override("ru"):
        assert problem_text(problem, with_location=False) == (
            "игрок проигравшей стороны может получить 0 или 0.5 доп. балла в ФИИМ")
    side = Problem(WHERE, message(messages.ROLE_SIDE, role=Role.SHERIFF.value, side="red", given="black"))
    with translation.override("ru"):
        text = problem_text(side, with_location=False)
    assert "шериф" in text and "красн" in text and "{" not in text


def test_plain_strings_pass_through() -> None:
    assert problem_text(Problem(Location(seat=1), "no role yet"), with_location=False) == "no role yet"
