"""The venue screen on a projector (issue 20), Chromium at 1920×1080, in Russian: one slide at a time, rotating by
the organizer's seconds; the round timer counting down; the organizer's announcement arriving by itself; and when
the connection drops, the last state stays with the "offline" mark. Screenshots in tests/e2e/artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from public import screen as screen_service
from tests.e2e.conftest import TIMEOUT_MS

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


def visible_key(page: Page) -> str:
    return str(page.evaluate("""() => [...document.querySelectorAll('.venue-slide')]
        .filter(s => !s.hidden).map(s => s.dataset.key).join(',')"""))


def test_the_projector_rotates_counts_down_and_survives_a_dropped_connection(
        browser: Browser, live_server: Any, import_file: Any, shot: Callable[[Page, str], Any]) -> None:
    t = import_file("kostroma-example.json", "screen-kostroma", standings_hidden=False)
    screen_service.set_announcements(t, "Перерыв 15 минут. Финал — в большом зале.", 5)
    screen_service.start_timer(t, 12, "До финала")
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport={"width": 1920, "height": 1080},
                                  extra_http_headers={"Accept-Language": "ru"})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/p/{t.slug}/screen/")
    first = visible_key(page)
    assert first and "," not in first  # one slide at a time
    expect(page.locator("#venue-timer")).to_contain_text("До финала 11:5")
    shot(page, "seating")
    page.wait_for_function(f"() => [...document.querySelectorAll('.venue-slide')].some(s => !s.hidden && "
                           f"s.dataset.key !== '{first}')", timeout=8000)
    assert visible_key(page) != first

    screen_service.set_announcements(t, "Финал начнётся в 18:00.", 5)
    page.wait_for_function("() => document.body.textContent.includes('Финал начнётся в 18:00.')", timeout=10000)

    page.route("**/screen/**", lambda route: route.abort())  # the venue's Wi-Fi drops
    expect(page.locator("#venue-offline")).to_be_visible(timeout=10000)
    expect(page.locator("#venue-offline")).to_contain_text("нет связи")
    assert page.locator(".venue-slide").count() > 1  # the last state stays
    shot(page, "offline")
    page.unroute("**/screen/**")
    expect(page.locator("#venue-offline")).to_be_hidden(timeout=10000)
    assert not errors, errors
    context.close()
