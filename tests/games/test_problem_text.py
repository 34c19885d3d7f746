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
            "игрок проигравшей стороны может получить 0 или 0,5 доп. балла в ФИИМ")
    side = Problem(WHERE, message(messages.ROLE_SIDE, role=Role.SHERIFF.value, side="red", given="black"))
    with translation.override("ru"):
        text = problem_text(side, with_location=False)
    assert "шериф" in text and "красн" in text and "{" not in text


def test_numbers_are_said_in_the_readers_format_but_a_files_value_as_written() -> None:
    """«субъективная оценка 3.5 вне диапазона -3..3» and «всего 2.5» on the judge's Russian screen (found walking
    the judge's phone); a value echoed from a file stays as the file wrote it."""
    sp = Problem(WHERE, message(messages.SUBJECTIVE_RANGE, value="3.5", min="-3", max="3"))
    total = Problem(WHERE, message(messages.EXTRA_TOTAL, total="2.5", ruleset="kostroma", most="2"))
    echoed = Problem(WHERE, message(messages.PARAM_NUMBER, value="1.5"))
    with translation.override("ru"):
        assert problem_text(sp, with_location=False) == "субъективная оценка 3,5 не в пределах от −3 до 3"
        assert "2,5" in problem_text(total) and "2.5" not in problem_text(total)
        assert problem_text(echoed).endswith("1.5")
    with translation.override("en"):
        assert problem_text(sp, with_location=False) == "subjective mark 3.5 is outside −3..3"


def test_plain_strings_pass_through() -> None:
    assert problem_text(Problem(Location(seat=1), "no role yet"), with_location=False) == "no role yet"
