"""Offline, the dock is one line with the count on a 390×844 phone, under each regulation: it listed every waiting
tap («Offline: changes waiting to be sent: 5. They are sent when the connection is back.» and the list), growing
with each tap, and with the last answer's message it covered the screen from y≈600 down, seats 3–8 under it. The
list comes on demand (a toggle); the taps are still sent in order once the connection is back."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.helpers import QUEUE_EMPTY, RULESETS, on_the_screen

pytestmark = pytest.mark.django_db(transaction=True)

TAPPED = (1, 3, 4, 5, 6, 7, 8)


@pytest.fixture
def lang() -> str:
    return "ru"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_offline_the_dock_is_one_line_and_lists_on_demand(open_page: Any, shot: Any, make_round: Any,
                                                          ruleset: str) -> None:
    page = open_page(phone=True)
    pk = on_the_screen(page, make_round(ruleset), ruleset)
    page.click("#seat-2")
    expect(page.locator("#dock-messages #screen-said")).to_be_visible()
    page.wait_for_function(QUEUE_EMPTY)
    page.context.set_offline(True)
    for seat in TAPPED:
        page.click(f"#seat-{seat}")
    queue = page.locator("#offline-queue")
    expect(queue.locator("[data-count]")).to_have_text(f"Нет связи: ждут отправки: {len(TAPPED)}")
    expect(queue.locator("#offline-pending")).to_be_hidden()
    expect(page.locator("#dock-messages")).to_be_hidden()  # the last answer's message, of the screen before
    expect(queue.locator("[data-dismiss-refused]")).to_be_hidden()  # nothing refused: nothing to dismiss
    dock = page.locator("#table-dock").bounding_box()
    assert dock is not None and dock["height"] <= 50, dock  # one line (before: 240 px and growing)
    shot(page, f"{ruleset}-offline-one-line")
    toggle = page.locator("#offline-toggle")
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(queue.locator("[data-pending] li")).to_have_count(len(TAPPED))
    expect(queue.locator("[data-pending] li").first).to_be_visible()
    shot(page, f"{ruleset}-offline-list")
    toggle.click()
    expect(queue.locator("#offline-pending")).to_be_hidden()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(queue).to_be_hidden(timeout=15_000)
    expect(page.locator("#dock-messages")).to_be_visible()
    fouls = {row.seat.number: row.fouls for row in Game.objects.get(table_id=pk).seats.select_related("seat")}
    assert {n for n, k in fouls.items() if k} == {2, *TAPPED} and set(fouls.values()) == {0, 1}
    assert page.js_errors == []  # type: ignore[attr-defined]
