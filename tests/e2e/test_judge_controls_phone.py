"""The judge's sticky controls on a 390×844 phone leave the seats room: they took 328 px (the phase, six rows of
tap modes, the reason), the dock 50 more, and two rows of seats were left in view. Under each regulation (its own
modes: tomsk's SP, zvezdy's circles and warnings, kostroma's warnings) they stay within 280 px (before: 258, 328,
328 and 398; now 208, 239, 239 and 269), every mode a target
of at least 24 px (WCAG 2.2's minimum), the page no wider than the phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import new_people
from tests.e2e.helpers import login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_controls_leave_the_seats_room(open_page: Any, shot: Any, make_round: Any, ruleset: str) -> None:
    round_ = make_round(ruleset)
    people = new_people(round_)
    page = open_page(phone=True)
    login(page, people["judge"].username)
    expect(page).to_have_url(re.compile(rf"/tables/{table(round_, 1).pk}/live/$"))
    for n, role in enumerate(ROLES[ruleset], start=1):
        page.select_option(f"#screen select[name=s{n}_role]", role)
    page.click("#screen form button[type=submit]")
    expect(page.locator("#seat-1")).to_be_visible()
    height = page.evaluate("document.getElementById('controls').getBoundingClientRect().height")
    assert height <= 280, height
    smallest = page.evaluate("Math.min(...Array.from(document.querySelectorAll('#modes label'))"
                             ".map(e => e.getBoundingClientRect().height))")
    assert smallest >= 24, smallest
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, f"{ruleset}-controls")
