"""A player opening their game on a phone sees their points: the marks' column pushed «Баллы» past a 390 px screen
(fiim 515 px in a 366 px scroller, tomsk 418 px; found walking as a player). On a phone the marks go under the name;
the four regulations' example games, in Russian."""

from __future__ import annotations

from typing import Any

import pytest

from public.snapshot import Snapshot

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


def test_a_games_points_are_in_view_on_a_phone(open_page: Any, shot: Any, import_file: Any) -> None:
    page = open_page(phone=True)
    for ruleset in ("tomsk", "kostroma", "fiim", "zvezdy"):
        t = import_file(f"{ruleset}-example.json", ruleset, standings_hidden=False)
        stage = Snapshot(t).stages[0].ext_id
        page.goto(f"/p/{t.slug}/games/{stage}/1/1/")
        points = page.locator("#protocol thead th").last
        assert points.inner_text() == "Баллы"
        box = points.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 390, (ruleset, box)
        wide = page.evaluate("(() => { const t = document.getElementById('protocol');"
                             " return [t.scrollWidth, t.parentElement.clientWidth]; })()")
        assert wide[0] <= wide[1], (ruleset, wide)
        assert page.locator("#protocol thead th", has_text="Отметки").is_hidden()
        under = page.locator(".seat-marks-under .badge")
        assert under.count() == 0 or under.first.is_visible()
        shot(page, f"public-game-{ruleset}")
        # the hall screen and the list of tournaments, opened on the phone, do not scroll sideways either
        for url in (f"/p/{t.slug}/screen/", "/"):
            page.goto(url)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
            if url == "/":
                assert page.locator("th", has_text="Игроки").first.bounding_box()["x"] < 390
    shot(page, "tournaments-list")
    assert page.js_errors == []  # type: ignore[attr-defined]
