"""In Chromium on a phone: the standings page refreshes as soon as its tab is visible again (a phone
unlocked, the tab chosen again), not at its next 20-second poll, and not while the tab is hidden; every page has
the site's icon, served with the static files."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.django_db(transaction=True)

HIDE_AND_SHOW = """state => { Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});
    document.dispatchEvent(new Event('visibilitychange')); }"""


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "tomsk", "zvezdy"])
def test_the_standings_refresh_when_the_tab_is_visible_again(open_page: Callable[..., Page], generated: Any,
                                                             ruleset: str) -> None:
    t = generated(f"visible-{ruleset}", players=20, rounds=2, ruleset=ruleset, standings_hidden=False)
    page = open_page(phone=True)
    page.goto(f"/p/{t.slug}/standings/")
    polls: list[str] = []
    page.on("request", lambda request: polls.append(request.url) if request.headers.get("hx-request") else None)
    page.evaluate(HIDE_AND_SHOW, "hidden")
    page.wait_for_timeout(500)
    assert not polls  # hidden: nothing asked
    before = page.locator("#live").inner_text()
    with page.expect_request(lambda request: bool(request.headers.get("hx-request")), timeout=3000):  # not 20 s
        page.evaluate(HIDE_AND_SHOW, "visible")
    assert polls and f"/p/{t.slug}/standings/" in polls[0]
    page.wait_for_load_state("networkidle")
    assert page.locator("#live").inner_text() == before  # the same standings, swapped in place, no error
    icon = page.locator('link[rel="icon"][type="image/svg+xml"]').get_attribute("href")
    assert icon and icon.endswith(".svg")
    answer = page.request.get(icon)
    assert answer.status == 200 and "svg" in answer.headers["content-type"]
    assert page.locator('link[rel="apple-touch-icon"]').count() == 1
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]
