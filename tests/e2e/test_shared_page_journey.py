"""A spectator's phone in Chromium on the public pages every anonymous reader shares (public/conditional.py): the
page is marked for the proxy's cache, carries no CSRF token, and its language switch still works; a new result shows
on the next visit. (tests/deploy/test_proxy_cache.py runs the same pages through nginx, compressed.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from public.versioning import bump
from tests.helpers import flip_a_result

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "en"


def test_a_spectator_reads_switches_language_and_sees_a_new_result(
    open_page: Callable[..., Page], shot: Any, generated: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = generated("shared-phone", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    page = open_page(phone=True)
    url = f"/p/{tournament.slug}/standings/s1/"
    first = page.goto(url)
    assert first is not None and first.status == 200
    assert first.headers.get("cache-control") == "public, max-age=0, s-maxage=2, stale-while-revalidate=2"
    again = page.request.get(url, headers={"If-None-Match": first.headers["etag"]})
    assert again.status == 304  # the next visit of this version: revalidated by the ETag
    assert "csrfmiddlewaretoken" not in page.content()
    expect(page.locator("#standings")).to_be_visible()

    # the language switch posts without a token (the page is everyone's) and the page comes back in Russian
    page.locator(".navbar-toggler").tap()  # on a phone the switch is in the menu
    page.select_option("select[name=language]", "ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("#standings thead")).to_contain_text("Игрок")
    shot(page, "russian")
    before = page.locator("#standings tbody").inner_text()

    # a result changes (ten players' points with it): the next visit shows it
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    page.reload()
    expect(page.locator("#standings tbody")).not_to_have_text(before)
