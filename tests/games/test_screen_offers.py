"""The judge's screen offers what the regulation uses and says what a submission still needs: modes a
regulation does not score are not shown; «Submit» is offered only when the protocol can be submitted, otherwise the
screen lists what is missing, the seats with the same gap named together, in words (no ruleset ids)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.games.test_table_screen import Screen

pytestmark = pytest.mark.django_db

SHOWN = {  # mode: the regulations whose screen offers it
    "best_move": {"fiim", "zvezdy"}, "best": {"fiim"}, "circle_best": {"zvezdy"}, "subjective": {"tomsk"},
    "don_check": {"fiim", "kostroma", "zvezdy"}, "heal": {"kostroma", "tomsk"},
    "foul": {"fiim", "kostroma", "zvezdy", "tomsk"},
}


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_only_the_modes_the_regulation_uses_are_offered(make_round: Any, ruleset: str) -> None:
    round_ = make_round(ruleset)
    screen = Screen(round_, round_.stage.tournament.organizers.get(), ruleset)
    page = screen.client.get(screen.url).content.decode()
    modes = set(re.findall(r'id="mode-(\w+)"', page))
    for mode, where in SHOWN.items():
        assert (mode in modes) == (ruleset in where), (mode, ruleset)
    assert ('id="missed-nights"' in page) == (ruleset == "zvezdy")  # only zvezdy scores the three missed nights


def submit_area(page: str) -> str:
    return page.split('id="screen-actions"', 1)[1]


def test_tomsk_submission_names_the_seats_still_missing_an_sp_in_one_line(make_round: Any) -> None:
    round_ = make_round("tomsk")
    screen = Screen(round_, round_.stage.tournament.organizers.get(), "tomsk")
    screen.client.cookies["django_language"] = "ru"
    area = submit_area(screen.client.get(screen.url).content.decode())
    assert re.search(r'id="submit-ask"[^>]*disabled', area)
    missing = area.split('id="submit-missing"', 1)[1].split("</ul>", 1)[0]
    # before the winner: the winner, and the SP every seat needs whoever wins, the twelve seats in one line
    assert missing.count("<li>") == 2 and "победитель не указан" in missing
    assert "Места 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12:" in missing
    assert "tomsk" not in missing and "субъективная оценка" in missing
    screen.tap("subjective", seat=3, value="1,5")
    screen.tap("subjective", seat=7, value="−1")
    page = screen.client.get(screen.url).content.decode()
    assert "Места 1, 2, 4, 5, 6, 8, 9, 10, 11, 12:" in submit_area(page)
    assert "СП 0 для 10 мест без оценки" in page
    screen.tap("subjective_rest")  # one tap: the others 0, the two given kept
    seats = {s.seat.number: s.subjective for s in screen.game.seats.select_related("seat")}
    assert seats[3] == 1.5 and seats[7] == -1 and all(seats[n] == 0 for n in seats if n not in (3, 7))
    area = submit_area(screen.tap("winner", value="red"))
    assert 'id="submit-missing"' not in area and not re.search(r'id="submit-ask"[^>]*disabled', area)
    assert 'id="subjective-rest"' not in screen.client.get(screen.url).content.decode()


@pytest.mark.parametrize("language", ["en", "ru"])
def test_fiim_submission_waits_for_the_winner(round_: Any, people: dict[str, Any], language: str) -> None:
    screen = Screen(round_, people["judge"])
    screen.client.cookies["django_language"] = language
    area = submit_area(screen.client.get(screen.url).content.decode())
    assert re.search(r'id="submit-ask"[^>]*disabled', area)
    assert ("победитель не указан" if language == "ru" else "winner") in area
    area = submit_area(screen.tap("winner", value="black"))
    assert 'id="submit-missing"' not in area


TIMERS = {"tomsk": ["180", "30", "60"], "fiim": ["60", "30", "10"], "kostroma": ["60", "30"], "zvezdy": ["60", "30"]}


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_regulation_s_timers_one_tap_each(make_round: Any, ruleset: str) -> None:
    round_ = make_round(ruleset)
    screen = Screen(round_, round_.stage.tournament.organizers.get(), ruleset)
    screen.client.cookies["django_language"] = "ru"
    page = screen.client.get(screen.url).content.decode()
    assert re.findall(r'data-timer-start="(\d+)"', page) == TIMERS[ruleset]
    if ruleset == "tomsk":  # 9.2: three minutes of day, 30 s of defence, a minute of justification
        assert "день 3:00" in page and "оправдание 0:30" in page and "оправдательная речь 1:00" in page


def test_tomsk_fouls_and_removals_give_the_conduct_6_3_forbids(make_round: Any) -> None:
    round_ = make_round("tomsk")
    screen = Screen(round_, round_.stage.tournament.organizers.get(), "tomsk")
    screen.client.cookies["django_language"] = "ru"
    page = screen.client.get(screen.url).content.decode()
    reasons = page.split('name="reason"', 1)[1].split("</select>", 1)[0]
    removals = page.split('name="removal"', 1)[1].split("</select>", 1)[0]
    for code in ("night_info", "oath", "material_bet", "religion", "night_touch", "disputing_host", "food"):
        assert f'value="{code}"' in reasons and f'value="{code}"' in removals, code
    assert "еда за игровым столом" in reasons
    screen.tap("remove", seat=4, removal="disputing_host")
    assert screen.game.seats.get(seat__number=4).removal_reason == "disputing_host"
