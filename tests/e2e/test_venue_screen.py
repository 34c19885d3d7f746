"""The venue screen on a projector, Chromium at 1920×1080, in Russian: one slide at a time, rotating by
the organizer's seconds; the round timer counting down; the organizer's announcement arriving by itself; and when
the connection drops, the last state stays with the "offline" mark. Screenshots in tests/e2e/artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import TIMEOUT_MS
from venue_screen import services as screen_service

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


SHOW = """key => { const all = [...document.querySelectorAll('.venue-slide')];
    all.forEach(s => { s.hidden = s.dataset.key !== key; }); window.dispatchEvent(new Event('resize'));
    const slide = all.find(s => s.dataset.key === key);
    const lines = [...slide.querySelectorAll('.venue-line')];
    const name = slide.querySelector('.venue-seats li, .venue-names li, .venue-standings td');
    const box = document.getElementById('venue-live').getBoundingClientRect();
    const rect = slide.getBoundingClientRect();
    return {size: parseFloat(getComputedStyle(name || slide).fontSize),
            cut: lines.filter(l => l.scrollWidth > l.clientWidth + 1).map(l => l.textContent.trim()),
            inside: rect.bottom <= box.bottom + 1 && rect.right <= box.right + 1,
            tables: slide.querySelectorAll('.venue-table').length}; }"""


@pytest.mark.parametrize(("ruleset", "players"), [("fiim", 70), ("tomsk", 84), ("kostroma", 50), ("zvezdy", 50)])
def test_the_projector_is_readable_from_ten_metres(browser: Browser, live_server: Any, generated: Any,
                                                   shot: Callable[[Page, str], Any], ruleset: str,
                                                   players: int) -> None:
    """At 1920×1080 every slide's type is as large as the slide lets it be, never under 36 px for a name
    (about 2.5 cm on a 3 m screen, read from 10 m), no name cut, nothing past the screen's edge; fewer tables on a
    slide get larger type; the QR code of the public page is beside the slides, large enough to scan from the
    hall, and says the page's address."""
    t = generated(f"screen-{ruleset}", players=players, rounds=1, ruleset=ruleset, standings_hidden=False)
    screen_service.set_announcements(t, "Перерыв 15 минут.", 5)
    context = browser.new_context(base_url=live_server.url, locale="ru-RU", viewport={"width": 1920, "height": 1080},
                                  extra_http_headers={"Accept-Language": "ru"})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/p/{t.slug}/screen/")
    keys = page.evaluate("() => [...document.querySelectorAll('.venue-slide')].map(s => s.dataset.key)")
    sizes: dict[str, dict[str, Any]] = {}
    for key in keys:
        sizes[key] = page.evaluate(SHOW, key)
        shot(page, f"{ruleset}-{key}")
        assert sizes[key]["inside"] and not sizes[key]["cut"], (key, sizes[key])
        assert sizes[key]["size"] >= 36, (key, sizes[key])
    tables = {s["tables"]: s["size"] for k, s in sizes.items() if k.startswith("tables")}
    assert len(tables) == 2, sizes  # slides of 3 tables and of 2 (even slides): the fewer, the larger
    assert tables[min(tables)] > tables[max(tables)], tables
    qr = page.locator(".venue-qr svg").bounding_box()
    assert qr is not None and qr["width"] >= 200 and qr["x"] + qr["width"] <= 1920 and qr["y"] + qr["height"] <= 1080
    assert page.locator(".venue-address").inner_text().endswith(f"/p/{t.slug}/")
    assert not errors, errors
    context.close()
