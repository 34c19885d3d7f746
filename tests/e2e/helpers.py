"""Steps shared by the browser journeys."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.conftest import PASSWORD


def login(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main form[method=post] button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


# Above table-screen.js's DOUBLE_TAP_MS (350): a judge's deliberate second tap of one seat in one mode, which the
# screen counts (a quicker one is the finger's double tap, counted once).
DOUBLE_TAP_MS = 400
