"""The organizer accepts kostroma applications in bulk in Chromium: "select all" (site.js, under the production
Content-Security-Policy) checks every waiting application's box, which belongs to the form below the table, and
one click accepts them all."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from base.csp import POLICY
from tests.e2e.helpers import login

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "en"


def test_select_all_then_accept_the_chosen(open_page: Callable[..., Page], make_tournament: Any, organizer: Any,
                                           settings: Any) -> None:
    from tournaments.models import Player
    from tournaments.services import registration

    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": POLICY}
    t = make_tournament("kostroma")
    rows = [registration.register(t, Player.objects.create(surname=f"Игрок{i}", city="Кострома",
                                                           birth_date=dt.date(2003, 1, 1))).participant
            for i in range(3)]
    page = open_page()
    login(page, organizer.username)
    page.goto(f"/t/{t.slug}/participants/")
    boxes = page.locator('input[name="ids"][form="bulk-decisions"]')
    expect(boxes).to_have_count(3)
    page.check("#select-all")
    for i in range(3):
        expect(boxes.nth(i)).to_be_checked()
    page.click('#bulk-decisions button[value="accept"]')
    expect(page.locator(".alert-success")).to_contain_text("3 applications are accepted.")
    expect(page.locator('input[name="ids"]')).to_have_count(0)
    assert sorted(t.participants.values_list("status", flat=True)) == ["accepted"] * 3
    assert all(row.history.latest().history_user == organizer for row in rows)
    assert not page.js_errors  # type: ignore[attr-defined]
