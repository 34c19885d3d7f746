"""What a judge chose on the table screen stays chosen, on a 390×844 phone in Russian, under each regulation:

- zvezdy's speech circle follows the day (it stayed on circle 1 on days 2 and 3, so day 2's marks went into circle
  1 and a tap on a seat marked there took its day-1 mark back), and each card shows the marks of every circle;
- the mode survives a reload (a phone reloads after a Wi-Fi drop or the screen's lock: «Shot» came back as «Foul»,
  and the next seat tap recorded a foul), with the day's vote chips;
- a foul taken back at once gives its reason back for the next foul (the wrong seat tapped, then «Take back a
  foul»: the right seat's foul was saved as «reason not chosen»);
- tomsk's SP chips have a 0, so an SP given to the wrong seat is undone with one tap."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from tests.e2e.helpers import QUEUE_EMPTY, RULESETS, on_the_screen

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


def saved(page: Page, pk: int) -> Game:
    page.wait_for_function(QUEUE_EMPTY)
    return Game.objects.get(table_id=pk)


def mode(page: Page) -> str:
    return str(page.eval_on_selector('#controls input[name="action"]:checked', "radio => radio.value"))


def test_the_speech_circle_follows_the_day(open_page: Any, shot: Any, make_round: Any) -> None:
    page = open_page(phone=True)
    pk = on_the_screen(page, make_round("zvezdy"), "zvezdy")
    page.click("label[for=mode-circle_best]")
    page.click("#seat-4")
    page.click("#phase-next")  # night 1
    page.click("#phase-next")  # day 2: taps made at once, on their way together
    page.click("label[for=mode-circle_best]")
    page.click("#seat-4")
    assert saved(page, pk).circles == [{"best": [4]}, {"best": [4]}]  # day 1's mark kept, day 2's in circle 2
    circle = page.locator("#controls select[name=circle]")
    expect(circle.locator("option:checked")).to_have_text("Круг выступлений 2 (по дню)")
    expect(page.locator("#seat-4 .mark-best")).to_have_text(["к1: лучший", "к2: лучший"])
    shot(page, "circles-day-2")
    circle.select_option("1")  # a mark given late, by hand
    page.click("#seat-5")
    assert saved(page, pk).circles == [{"best": [4, 5]}, {"best": [4]}]
    page.click("#phase-next")
    expect(circle).to_have_value("")  # the circle follows the day again
    assert page.js_errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_mode_is_kept_across_a_reload(open_page: Any, shot: Any, make_round: Any, ruleset: str) -> None:
    page = open_page(phone=True)
    pk = on_the_screen(page, make_round(ruleset), ruleset)
    page.click("#phase-next")  # night 1
    page.click("label[for=mode-shot]")
    page.wait_for_function(QUEUE_EMPTY)  # the phase saved: a reload is not a lost answer here
    page.reload()
    expect(page.locator("#seat-1")).to_be_visible()
    assert mode(page) == "shot"
    page.click("#seat-7")
    game = saved(page, pk)
    assert [e["kind"] for e in game.log if not e.get("derived")] == ["shot"]
    assert game.seats.get(seat__number=7).fouls == 0  # a shot, not a foul
    page.click("#phase-next")  # day 2: the game log goes on with the nominations
    page.click("#vote-chips [data-set-count='3']")
    page.wait_for_function(QUEUE_EMPTY)
    page.reload()
    expect(page.locator("#seat-1")).to_be_visible()
    assert mode(page) == "votes"
    expect(page.locator("#vote-chips")).to_be_visible()
    expect(page.locator("#vote-chips .active")).to_have_text("3")
    shot(page, f"{ruleset}-votes-after-reload")
    assert page.js_errors == []  # type: ignore[attr-defined]


REASON = {"tomsk": "religion", "kostroma": "out_of_turn", "fiim": "out_of_turn", "zvezdy": "out_of_turn"}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_foul_taken_back_at_once_gives_its_reason_back(open_page: Any, make_round: Any, ruleset: str) -> None:
    page = open_page(phone=True)
    pk = on_the_screen(page, make_round(ruleset), ruleset)
    reason = page.locator("#controls select[name=reason]")
    reason.select_option(REASON[ruleset])
    page.click("#seat-3")  # the wrong seat
    expect(reason).to_have_value("")  # a reason is the one tap's
    page.click("label[for=mode-unfoul]")
    page.click("#seat-3")
    page.click("label[for=mode-foul]")
    expect(reason).to_have_value(REASON[ruleset])  # given back, in sight, for the right seat
    page.click("#seat-8")
    expect(reason).to_have_value("")
    page.click("#seat-9")  # the next foul's reason is not chosen, as ever
    seats = {row.seat.number: row for row in saved(page, pk).seats.select_related("seat")}
    assert (seats[3].foul_reasons, seats[8].foul_reasons) == ([], [REASON[ruleset]])
    assert seats[9].foul_reasons == ["unstated"]
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_tomsk_sp_given_to_the_wrong_seat_is_undone_with_one_tap(open_page: Any, shot: Any, make_round: Any) -> None:
    page = open_page(phone=True)
    pk = on_the_screen(page, make_round("tomsk"), "tomsk")
    page.click("label[for=mode-subjective]")
    page.click("#sp-chips [data-value='2']")
    page.click("#seat-5")  # the wrong seat
    expect(page.locator("#seat-5")).to_contain_text("СП +2")
    page.click("#sp-chips [data-value='0']")
    shot(page, "sp-chips")
    page.click("#seat-5")  # within the double tap's 350 ms of the first: another value is a tap all the same
    expect(page.locator("#seat-5")).not_to_contain_text("СП +2")
    assert saved(page, pk).seats.get(seat__number=5).subjective == 0
    expect(page.locator("#seat-5")).not_to_contain_text("СП +2")
