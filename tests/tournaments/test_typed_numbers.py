"""Numbers as people type them: one reader (``tournaments.numbers``) for every typed number, a decimal
comma or point in either language, shown back with the reader's separator."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.utils import translation

from tournaments.numbers import TypedNumberField, typed_number, written


@pytest.mark.parametrize(("text", "value"), [
    ("1,5", Fraction(3, 2)), ("1.5", Fraction(3, 2)), ("−0,5", Fraction(-1, 2)), ("-0.25", Fraction(-1, 4)),
    ("+2", Fraction(2)), (" 3 ", Fraction(3)), ("1 000,5", Fraction(2001, 2)), ("1\u00a0000", Fraction(1000)),
    ("1/3", Fraction(1, 3)), ("0", Fraction(0)), (",5", Fraction(1, 2)), ("-,5", Fraction(-1, 2)),
])
def test_what_people_type_is_read_exactly(text: str, value: Fraction) -> None:
    assert typed_number(text) == value


@pytest.mark.parametrize("text", ["", "x", "1,234.5", "1,5,5", "1..5", "--1", "1e3", "inf", "nan", "1" * 41, "½"])
def test_what_is_not_a_number_is_refused_not_guessed(text: str) -> None:
    assert written(text) is None
    with pytest.raises(ValueError):
        typed_number(text)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_field_reads_both_separators_in_both_languages_and_shows_the_readers(language: str) -> None:
    field = TypedNumberField(required=False, decimal_places=2, min_value=-10, max_value=10)
    with translation.override(language):
        assert field.clean("1,5") == Decimal("1.5") and field.clean("1.5") == Decimal("1.5")
        assert field.clean("") is None
        assert field.prepare_value(Decimal("1.5")) == ("1,5" if language == "ru" else "1.5")
        assert field.prepare_value(Fraction(-1, 2)) == ("−0,5" if language == "ru" else "−0.5")
        for bad, code in (("1,555", "places"), ("11", "max_value"), ("-10,5", "min_value"), ("abc", "invalid")):
            with pytest.raises(Exception) as refused:
                field.clean(bad)
            assert refused.value.code == code  # type: ignore[attr-defined]


def test_a_fraction_field_keeps_a_third_exact() -> None:
    assert TypedNumberField().clean("1/3") == Fraction(1, 3)


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_judges_screen_takes_a_comma_for_sp_and_extra_points(make_round: Any, language: str) -> None:
    from tests.games.test_table_screen import Screen

    round_ = make_round("tomsk")
    screen = Screen(round_, round_.stage.tournament.organizers.get(), "tomsk")
    screen.client.cookies["django_language"] = language
    page = screen.tap("subjective", seat=2, value="1,5")
    assert 'id="screen-error"' not in page
    assert screen.game.seats.get(seat__number=2).subjective == Decimal("1.5")
    page = screen.tap("subjective", seat=3, value="−0,5")
    assert screen.game.seats.get(seat__number=3).subjective == Decimal("-0.5")
    assert ("SP +1,5" if language == "ru" else "SP +1.5") in page.replace("СП", "SP")


def test_the_protocol_page_shows_russian_numbers_not_floats(make_round: Any) -> None:
    from django.urls import reverse

    from tests.games.test_table_screen import Screen
    from tests.helpers import table

    round_ = make_round("tomsk")
    screen = Screen(round_, round_.stage.tournament.organizers.get(), "tomsk")
    screen.tap("subjective", seat=2, value="1,5")
    screen.tap("subjective", seat=4, value="0")
    screen.client.cookies["django_language"] = "ru"
    url = reverse("games:protocol", kwargs={"slug": round_.stage.tournament.slug, "table": table(round_, 1).pk})
    page = screen.client.get(url).content.decode()
    assert 'name="s2_subjective"' in page and 'value="1,5"' in page and 'value="0"' in page
    assert 'value="0.0"' not in page and 'value="1.5"' not in page
