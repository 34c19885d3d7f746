"""«Сдать протокол?» lists what the judge confirms: the marks the regulation gives points for (tomsk's SP, zvezdy's
circle marks) were missing, and tomsk, which has no extra points, had a «Доп. баллы —» line (found walking the
judge's phone)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import new_people
from tests.games.test_table_screen import Screen

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_summary_says_the_regulations_own_marks(make_round: Any, ruleset: str) -> None:
    round_ = make_round(ruleset)
    screen = Screen(round_, new_people(round_)["judge"], ruleset)
    screen.client.cookies["django_language"] = "ru"
    if ruleset == "tomsk":
        screen.tap("subjective", seat=3, value="1,5")
        screen.tap("subjective", seat=5, value="-1")
    if ruleset == "zvezdy":
        screen.tap("circle_best", seat=2, circle=1)
        screen.tap("circle_worst", seat=9, circle=1)
        screen.tap("circle_best", seat=4, circle=2)
    screen.tap("winner", value="red")
    asked = screen.tap("submit_ask")
    summary = " ".join(asked.split('id="submit-confirmation"', 1)[1].split("</dl>", 1)[0].split())
    assert ("Доп. баллы" in summary) == (ruleset != "tomsk")
    assert ("Субъективные оценки (СП)" in summary) == (ruleset == "tomsk")
    assert ("Круг 1" in summary) == (ruleset == "zvezdy")
    if ruleset == "tomsk":
        assert "3: +1,5; 5: −1 (10 мест без оценки)" in summary, summary
    if ruleset == "zvezdy":
        assert "Круг 1</dt>" in summary and "лучшие 2; худшие 9" in summary and "лучшие 4" in summary
