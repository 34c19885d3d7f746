"""Every tap answers on the judge's screen (the dock): the winner, the phase, a check, a take-back, a named best,
the best move, which used to answer nothing, so a judge tapping fast could not tell a tap had landed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import new_people
from tests.games.test_table_screen import Screen

pytestmark = pytest.mark.django_db


def said(page: str) -> str:
    assert 'id="screen-error"' not in page, page.split('id="screen-error"', 1)[1][:300]
    return page.split('id="screen-said">', 1)[1].split("</div>", 1)[0]


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_tap_says_what_it_recorded(make_round: Any, ruleset: str) -> None:
    round_ = make_round(ruleset)
    screen = Screen(round_, new_people(round_)["judge"], ruleset)
    screen.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    assert said(screen.tap("nominated", seat=4)) == "Записано: день 1: выставлено место 4."
    assert said(screen.tap("phase", value="next")) == "Сейчас: ночь 1."
    sheriff = screen.game.seats.get(role="sheriff").seat.number
    assert said(screen.tap("sheriff_check", seat=2)).startswith("Записано: ночь 1: шериф проверяет место 2: ")
    assert said(screen.tap("log_undo")).startswith("Отменено: ночь 1: шериф проверяет место 2: ")
    assert said(screen.tap("best", seat=7)) == "Место 7 названо лучшим."
    assert said(screen.tap("best", seat=7)) == "Место 7 больше не названо лучшим."
    screen.tap("killed", seat=9)  # the first kill names the best move
    assert said(screen.tap("best_move", seat=1)) == "Лучший ход: места 1."
    assert said(screen.tap("best_move", seat=1)) == "Лучший ход: никто не назван."
    if ruleset == "tomsk":  # its subjective marks (SP), every seat's before a winner
        assert said(screen.tap("subjective", seat=2, value="1,5")) == "Место 2: субъективная оценка 1,5."
        assert said(screen.tap("subjective_rest")) == "У всех мест без субъективной оценки теперь 0."
    assert said(screen.tap("winner", value="red")).startswith("Победа: красн")
    assert said(screen.tap("winner", value="red")).startswith("Победитель снят.")
    assert sheriff  # the line-up has its sheriff: the check above was a real one
