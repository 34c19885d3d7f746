"""Steps shared by the browser journeys."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.conftest import PASSWORD, new_people
from tests.helpers import ROLES, table

RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]
# the judge's screen has sent every tap it queued and has the answers (static/js/table-screen.js)
QUEUE_EMPTY = "() => JSON.parse(localStorage.getItem('mafia-table-queue:' + location.pathname) || '[]').length === 0"


def login(page: Page, username: str, password: str = PASSWORD) -> None:
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main form[method=post] button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


# Above table-screen.js's DOUBLE_TAP_MS (350): a judge's deliberate second tap of one seat in one mode, which the
# screen counts (a quicker one is the finger's double tap, counted once).
DOUBLE_TAP_MS = 400


def on_the_screen(page: Page, round_: Any, ruleset: str) -> int:
    """The judge of table 1 on its screen with the regulation's roles dealt; the table's id."""
    people = new_people(round_)
    login(page, people["judge"].username)
    pk = table(round_, 1).pk
    expect(page).to_have_url(re.compile(rf"/tables/{pk}/live/$"))
    for n, role in enumerate(ROLES[ruleset], start=1):
        page.select_option(f"#screen select[name=s{n}_role]", role)
    page.click("#screen form button[type=submit]")
    expect(page.locator("#seat-1")).to_be_visible()
    return pk
