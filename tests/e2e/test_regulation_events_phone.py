"""The regulations' own events on a judge's phone, in Russian at 390×844 (docs/rules/game.md, "Warnings and awarded
wins"): zvezdy's verbal warning before the remark for shouting and the win awarded when a removed player speaks,
kostroma's verbal warning, fiim's judge's decision; each in one or two taps through the screen's queue, the
document's words on the seats and in the line above the winner; screenshots kept."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from tests.conftest import new_people, new_round
from tests.e2e.helpers import login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)

QUEUE_EMPTY = "() => JSON.parse(localStorage.getItem('mafia-table-queue:' + location.pathname) || '[]').length === 0"


@pytest.fixture
def lang() -> str:
    return "ru"


def judge_screen(open_page: Any, organizer: Any, ruleset: str) -> tuple[Page, Game]:
    round_ = new_round(organizer, ruleset, tables=1)
    people = new_people(round_, prefix=ruleset)
    game = service.open_protocol(table(round_, 1), people["judge"])

    def line_up(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES[ruleset], strict=True):
            seat.role = role

    game = service.change(game, people["judge"], game.version, line_up)
    page = open_page(phone=True)
    login(page, people["judge"].username)
    expect(page).to_have_url(re.compile(r"/live/$"))
    return page, game


def mode(page: Page, value: str) -> None:
    page.click(f"label[for=mode-{value}]")


def settled(page: Page) -> None:
    page.wait_for_function(QUEUE_EMPTY, timeout=20_000)


def test_zvezdy_warning_then_remark_and_the_awarded_win(open_page: Any, shot: Any, organizer: Any) -> None:
    page, game = judge_screen(open_page, organizer, "zvezdy")
    page.select_option("#controls select[name=reason]", "shouting")
    page.click("#seat-7")  # a remark for shouting before any warning: refused, the seat named
    settled(page)
    expect(page.locator("#dock-messages")).to_contain_text("Место 7")
    expect(page.locator("#offline-queue [data-refused] li")).to_have_count(0)  # said once, in the dock's message
    mode(page, "warn")
    page.select_option("#controls select[name=warning]", "shouting")
    page.click("#seat-7")
    settled(page)  # saved: the refusal seen as it happened leaves the dock, never beside the success
    expect(page.locator("#offline-queue [data-refused] li")).to_have_count(0)
    expect(page.locator("#dock-messages #screen-error")).to_have_count(0)
    mode(page, "foul")
    # a reason is one tap's: the refused remark's went back to "not chosen"
    expect(page.locator("#controls select[name=reason]")).to_have_value("")
    page.select_option("#controls select[name=reason]", "shouting")
    page.click("#seat-7")
    settled(page)
    expect(page.locator("#seat-7 .warnings-badge")).to_have_text("1 предупреждение")
    expect(page.locator("#seat-7 .fouls-badge")).to_be_visible()
    mode(page, "remove")
    page.select_option("#controls select[name=removal]", "oath")
    page.click("#seat-5")
    mode(page, "award")
    page.select_option("#controls select[name=award]", "removed_spoke")
    page.click("#seat-5")  # the removed player spoke: the other side wins
    settled(page)
    expect(page.locator("#awarded-line")).to_contain_text("Победа присуждена (чёрные)")
    expect(page.locator("#seat-5 .awarded-badge")).to_be_visible()
    shot(page, "zvezdy-awarded")
    row = Game.objects.get(pk=game.pk)
    assert (row.awarded, row.winner) == ({"reason": "removed_spoke", "seats": [5]}, "black")
    page.click("#unaward")
    settled(page)
    expect(page.locator("#awarded-line")).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_kostroma_warning_and_fiim_judge_s_decision(open_page: Any, shot: Any, organizer: Any) -> None:
    page, game = judge_screen(open_page, organizer, "kostroma")
    mode(page, "warn")
    expect(page.locator("#controls select[name=warning]")).to_be_visible()
    page.select_option("#controls select[name=warning]", "knocking")
    page.click("#seat-3")
    settled(page)
    expect(page.locator("#seat-3 .warnings-badge")).to_have_text("1 предупреждение")
    expect(page.locator("label[for=mode-award]")).to_have_count(0)  # kostroma awards no win this way
    shot(page, "kostroma-warning")
    assert Game.objects.get(pk=game.pk).seats.get(seat__number=3).warning_reasons == ["knocking"]

    page, game = judge_screen(open_page, organizer, "fiim")
    expect(page.locator("label[for=mode-warn]")).to_have_count(0)  # fiim's "warnings" are its remarks
    mode(page, "award")
    page.select_option("#controls select[name=award]", "disputed")
    page.click("#award-disputed-red")
    settled(page)
    expect(page.locator("#awarded-line")).to_contain_text("решение судьи в спорной ситуации")
    shot(page, "fiim-judge-decision")
    assert Game.objects.get(pk=game.pk).winner == "red"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert page.js_errors == []  # type: ignore[attr-defined]
