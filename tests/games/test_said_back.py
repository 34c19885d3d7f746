"""Every tap answers on the judge's screen (the dock): the winner, the phase, a check, a take-back, a named best,
the best move, which used to answer nothing, so a judge tapping fast could not tell a tap had landed."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import new_people
from tests.games.test_table_screen import Screen
from tests.helpers import ROLES

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
    assert said(screen.tap("sheriff_check", seat=2)).startswith("Записано: ночь 1: шериф проверяет место 2: ")
    assert said(screen.tap("log_undo")).startswith("Отменено: ночь 1: шериф проверяет место 2: ")
    assert said(screen.tap("best", seat=7)) == "Место 7 названо лучшим."
    assert said(screen.tap("best", seat=7)) == "Место 7 больше не названо лучшим."
    screen.tap("killed", seat=9)  # the first kill names the best move
    assert said(screen.tap("best_move", seat=1)) == "Лучший ход: место 1."
    assert said(screen.tap("best_move", seat=2)) == "Лучший ход: места 1, 2."
    screen.tap("best_move", seat=2)
    assert said(screen.tap("best_move", seat=1)) == "Лучший ход: никто не назван."
    if ruleset == "tomsk":  # its subjective marks (SP), every seat's before a winner
        assert said(screen.tap("subjective", seat=2, value="1,5")) == "Место 2: субъективная оценка 1,5."
        assert said(screen.tap("subjective_rest")) == "У всех мест без субъективной оценки теперь 0."
    assert said(screen.tap("winner", value="red")).startswith("Победа: красн")
    assert said(screen.tap("winner", value="red")).startswith("Победитель снят.")


def test_the_logs_taps_that_settle_nothing_and_a_take_back_that_settles_again(make_round: Any) -> None:
    """Votes that send nobody out, a heal before any shot, and a take-back after which the night's shots settle
    again (shot 7, heal 7, take the heal back: 7 is killed) each say what the log now holds; an awarded win and its
    taking back too."""
    round_ = make_round("kostroma")  # a doctor at the table
    screen = Screen(round_, new_people(round_)["judge"], "kostroma")
    screen.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    screen.tap("nominated", seat=4)
    assert said(screen.tap("votes", seat=4, count="2")) == "Записано: день 1: голосов за место 4: 2."
    screen.tap("phase", value="next")
    doctor = next(n for n, role in enumerate(ROLES["kostroma"], start=1) if role == "doctor")
    assert said(screen.tap("heal", seat=doctor)).startswith(f"Записано: ночь 1: доктор лечит место {doctor}")
    screen.tap("log_undo")
    screen.tap("shot", seat=7)
    screen.tap("heal", seat=7)
    answer = said(screen.tap("log_undo"))
    assert answer.startswith("Отменено: ночь 1: доктор лечит место 7.") and "место 7 убито" in answer, answer


def test_an_awarded_win_and_its_taking_back_are_said(make_round: Any) -> None:
    round_ = make_round("zvezdy")  # a removed player who spoke: the other side wins
    screen = Screen(round_, new_people(round_)["judge"], "zvezdy")
    screen.client.defaults["HTTP_ACCEPT_LANGUAGE"] = "ru"
    screen.tap("remove", seat=5, removal="oath")
    assert said(screen.tap("award", seat=5, award="removed_spoke")).startswith("Победа присуждена (чёрные)")
    assert said(screen.tap("unaward")) == "Присуждённая победа отменена."
