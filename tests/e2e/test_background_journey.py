"""Background work as a visitor and an organizer meet it, with the real workers (``real_workers``: the
database queue and ``db_worker``'s own workers): the results sheet and the diplomas asked for by an anonymous
visitor are "being prepared" at once, then the page reloads itself into the document; every regulation."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_document_is_prepared_by_the_worker_and_the_page_opens_it(open_page: Any, shot: Any, generated: Any,
                                                                     real_workers: Any, ruleset: str) -> None:
    tournament = generated(f"bg-{ruleset}", players=20, rounds=2, ruleset=ruleset, standings_hidden=False)
    page = open_page(phone=True)
    started = time.monotonic()
    answer = page.goto(f"/t/{tournament.slug}/results/")
    assert answer is not None and answer.status == 202 and time.monotonic() - started < 5  # at once, no wait
    expect(page.locator("#being-prepared")).to_contain_text("Страница попробует снова через 3 секунды")
    shot(page, f"{ruleset}-being-prepared")
    expect(page.locator("#being-prepared")).to_have_count(0, timeout=20_000)  # the page reloaded itself
    expect(page).to_have_title(re.compile(f"Generated bg-{ruleset}"))
    expect(page.locator("h1").first).to_be_visible()
    shot(page, f"{ruleset}-results")
    again = page.goto(f"/t/{tournament.slug}/diplomas/")
    assert again is not None and again.status in (200, 202)
    expect(page.locator("#being-prepared")).to_have_count(0, timeout=20_000)
    expect(page.locator("body")).to_contain_text("Сертификат участника")
