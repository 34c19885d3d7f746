"""A tap that was not saved, as the judge sees it on a phone: htmx swaps no error answer in, so
``static/js/request-errors.js`` shows the server's message (the database unavailable) or, when the server
cannot be reached at all, a message of its own; the screen keeps its state, the same tap succeeds once the
fault is gone, and the message goes away."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import OperationalError
from playwright.sync_api import Page, Route, expect

from games.views import table as table_view
from tests.e2e.helpers import DOUBLE_TAP_MS, login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)

UNAVAILABLE = {"en": "The database is unavailable. Nothing was saved", "ru": "База данных недоступна."}


def open_screen(page: Page, round_: Any, people: dict[str, Any]) -> None:
    login(page, people["judge"].username)
    page.goto(f"/t/{round_.stage.tournament.slug}/tables/{table(round_, 1).pk}/live/")
    for n, role in enumerate(ROLES["fiim"], start=1):
        page.select_option(f"#screen select[name=s{n}_role]", role)
    page.click("#screen form button[type=submit]")
    expect(page.locator("#seat-5")).to_be_visible()


def test_a_tap_not_saved_says_so_and_can_be_repeated(open_page: Any, shot: Any, lang: str, round_: Any,
                                                     people: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    page = open_page(phone=True)
    open_screen(page, round_, people)
    seat, error = page.locator("#seat-5"), page.locator("#request-error")
    version = page.locator('#screen input[name="version"]')
    before = version.first.get_attribute("value")

    def database_gone(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("connection to server failed: Connection refused")

    monkeypatch.setattr(table_view, "apply_taps", database_gone)  # the phone sends its taps as a batch
    seat.click()
    expect(error).to_be_visible()
    expect(error).to_contain_text(UNAVAILABLE[lang])
    expect(seat.locator(".fouls-badge")).to_have_count(0)  # the screen as it was: no foul
    assert version.first.get_attribute("value") == before
    shot(page, "1-database-unavailable")

    monkeypatch.undo()
    page.wait_for_timeout(DOUBLE_TAP_MS)  # the judge reads the error first: no double tap on glass
    seat.click()  # the same tap, once the database is back
    expect(seat.locator(".fouls-badge")).to_contain_text("1")
    expect(error).to_be_hidden()

    def unreachable(route: Route) -> None:
        route.abort("connectionrefused")

    screen_url = re.compile(r".*/live/$")
    page.route(screen_url, unreachable)
    page.wait_for_timeout(DOUBLE_TAP_MS)  # a second foul on seat 5, tapped as a judge does: not a double tap
    seat.click()
    # unreachable: the tap is kept on the phone (static/js/table-screen.js), said as waiting, not as lost
    queue = page.locator("#offline-queue")
    expect(queue).to_be_visible()
    expect(queue.locator("[data-pending] li")).to_have_count(1)
    expect(error).to_be_hidden()
    shot(page, "2-server-unreachable")
    page.unroute(screen_url)
    # sent once the server answers again (every 5 s, or at once when the browser says it is online), once
    expect(seat.locator(".fouls-badge")).to_contain_text("2", timeout=15_000)
    expect(queue).to_be_hidden()
    assert not page.js_errors  # type: ignore[attr-defined]
