"""The judge's offline queue names each waiting tap in the judge's words (it listed «phase next» and
«submit_ask», the taps' action ids): a seat tap by its mode and seat, the phase buttons and the submission by their
labels."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_offline_table import judge_on_the_screen

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {"ru": ["Фол · 3", "следующая фаза", "предыдущая фаза"], "en": ["Foul · 3", "next phase", "previous phase"]}


def test_the_offline_queue_lists_taps_in_words(open_page: Any, shot: Any, round_: Any, people: dict[str, Any],
                                               lang: str) -> None:
    page = open_page(phone=True)
    judge_on_the_screen(page, people, round_)
    page.context.set_offline(True)
    page.locator("#seat-3").click()
    page.locator("#phase-next").click()
    page.locator("#phase-back").click()
    page.locator("#offline-toggle").click()  # the dock is one line; the list on demand
    pending = page.locator("#offline-queue [data-pending] li")
    expect(pending).to_have_count(3)
    expect(pending.last).to_be_visible()
    assert pending.all_inner_texts() == WORDS[lang]
    shot(page, "offline-words")
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=15_000)
    assert page.js_errors == []  # type: ignore[attr-defined]
