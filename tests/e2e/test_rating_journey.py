"""The rating on a phone, in Chromium at 390×844, in Russian: a season of the four regulations'
examples; the table fits the screen, shows the API's numbers, finds a player by part of a name, and a tap opens
their page: the rating as a chart, wins by role, their tournaments (a tap opens the tournament). Then an
organizer on a laptop makes a tournament unrated and the rating follows. Screenshots in tests/e2e/artifacts/."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ratings.models import PlayerRating
from tests.e2e.helpers import login
from tournaments.models import Participant, Player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


def test_rating_on_a_phone_then_the_organizer_changes_a_tournament(
        open_page: Callable[..., Page], shot: Any, season: list[Any], organizer: Any, api: Any) -> None:
    top = PlayerRating.objects.order_by("-rating", "games", "player_id").first()
    assert top is not None
    Player.objects.filter(pk=top.player_id).update(surname="Ёлкина-Преображенская", first_name="Аполлинария",
                                                   club="Северный ветер", city="Кострома")
    page = open_page(phone=True)
    page.goto("/ratings/")
    expect(page.locator("h1")).to_have_text("Рейтинг")
    first = page.locator("#rating-table tbody tr").first
    expect(first).to_contain_text("Ёлкина-Преображенская")
    expect(first).to_contain_text(f"{top.rating:.1f}".replace(".", ","))
    widths = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert widths[0] <= widths[1], widths
    shot(page, "table")

    page.fill("#q", "елкина")  # е for ё, lower case
    page.click("#rating-filters button.btn-primary")
    expect(page.locator("#rating-table tbody tr")).to_have_count(1)
    page.click("#rating-table tbody tr a")
    expect(page.locator("h1")).to_contain_text("Ёлкина-Преображенская Аполлинария")
    expect(page.locator("#rating-chart polyline")).to_be_visible()
    expect(page.locator("#role-wins")).to_contain_text("Роль")
    expect(page.locator("#player-tournaments tbody tr")).to_have_count(
        Participant.objects.filter(player_id=top.player_id).count())
    shot(page, "player")
    assert not page.js_errors  # type: ignore[attr-defined]

    laptop = open_page()
    login(laptop, organizer.username)
    fiim = season[2]
    laptop.goto(f"/t/{fiim.slug}/participants/")
    laptop.uncheck("#id_settings_rated")
    laptop.click("#settings-form [type=submit]")
    expect(laptop.locator(".alert-success, .alert-info").first).to_be_visible()
    answer = api().get(f"/api/ratings/?tournament={fiim.slug}").json()
    assert answer and all(row["change"] == 0 for row in answer)
    shot(laptop, "settings")
