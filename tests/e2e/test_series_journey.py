"""A series in the browser (docs/series.md), in Russian: on a laptop the organizer creates a series, types its
points table, adds two finished tournaments of theirs and weighs the second ×1.5; then a spectator reads the public
series page on a 390×844 phone: the leader first, the points in the Russian number format, each tournament's
points with the place, the player column kept in view while the table scrolls. Screenshots in tests/e2e/artifacts/
(and /tmp/series-*.png)."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from series.models import Series
from series.services import series_table
from tests.e2e.helpers import login
from tests.series.conftest import share_players

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ёлкин-Преображенский Константин", "Щербакова-Воскресенская Аполлинария", "Тимофеев Сергей",
         "Кузнецова Дарья", "Новиков Илья", "Соколова Анна", "Лебедев Фёдор", "Козлов Артём", "Морозова Алёна",
         "Волков Пётр"]


@pytest.fixture
def lang() -> str:
    return "ru"


def finished(generated: Any, slug: str, name: str) -> Any:
    tournament = generated(slug, players=20, rounds=2, stages=2)
    tournament.name = name
    tournament.save()
    last = tournament.stages.order_by("-order").first()
    last.closed = True
    last.save()
    return tournament


def keep(path: Any, name: str) -> None:
    shutil.copy(path, f"/tmp/series-{name}.png")


def test_organizer_builds_a_series_and_a_phone_reads_it(open_page: Callable[..., Page], shot: Any, generated: Any,
                                                        organizer: Any) -> None:
    autumn = finished(generated, "autumn", "Осенний кубок")
    winter = finished(generated, "winter", "Зимний кубок")
    share_players(autumn, winter)
    from tournaments.models import Player

    for player, name in zip(Player.objects.filter(participations__tournament=autumn).order_by("pk"), NAMES * 2,
                            strict=False):
        surname, first = name.split(" ")
        Player.objects.filter(pk=player.pk).update(surname=surname, first_name=f"{first} {player.pk}")

    page = open_page()
    login(page, organizer.username)
    page.goto("/s/")
    page.click("#new-series")
    page.fill("#id_name", "Лига Зеленограда 2025")
    page.fill("#id_slug", "zelenograd-2025")
    page.fill("#id_points_text", "25; 18; 15; 12; 10; 8; 6; 4; 2; 1; 0,5")
    page.fill("#id_reference_players", "20")
    page.select_option("#id_tiebreak_1", "firsts")
    page.select_option("#id_tiebreak_2", "place_sum")
    page.select_option("#id_tiebreak_3", "")
    keep(shot(page, "new"), "laptop-new")
    page.click("#series-form button[type=submit]")
    page.wait_for_url("**/s/zelenograd-2025/edit/")
    for tournament in ("Осенний кубок", "Зимний кубок"):
        page.select_option("#id_tournament", label=tournament)
        page.click("#add-form button[type=submit]")
        expect(page.locator(".alert-success")).to_contain_text("Турнир добавлен")
    expect(page.locator("#entries tbody tr")).to_have_count(2)
    page.locator("#entries tbody tr").nth(1).locator(".entry-weight input").fill("1,5")
    page.click("#save-entries")
    expect(page.locator(".alert-success")).to_be_visible()
    # saved and shown back as Russian writes it (tournaments/numbers.py), not padded to two places
    expect(page.locator("#entries tbody tr").nth(1).locator(".entry-weight input")).to_have_value("1,5")
    assert str(Series.objects.get(slug="zelenograd-2025").entries.order_by("pk")[1].weight) in ("1.5", "1.50")
    keep(shot(page, "edit"), "laptop-edit")
    series = Series.objects.get(slug="zelenograd-2025")
    assert series.points[-1] == "0.5" and series.tiebreaks == ["firsts", "place_sum"]
    assert page.js_errors == []  # type: ignore[attr-defined]

    table = series_table(series)
    leader = table.players[table.rows[0].player].full_name
    phone = open_page(phone=True)
    phone.goto("/s/zelenograd-2025/")
    rows = phone.locator("#series-standings tbody tr")
    expect(rows).to_have_count(len(table.rows))
    expect(rows.first.locator("td").nth(1)).to_have_text(leader)
    points = rows.first.locator("td").nth(2).inner_text()
    assert "." not in points and points.replace(",", "").isdigit()  # "37,5", not "37.5"
    expect(phone.locator("#series-tournaments")).to_contain_text("коэффициент 1,5")
    expect(phone.locator("#how-points")).to_contain_text("больше побед в турнирах")
    keep(shot(phone, "phone"), "phone")
    # the table scrolls sideways inside its box; the player column stays in view
    box = phone.locator(".table-responsive")
    box.evaluate("b => b.scrollLeft = b.scrollWidth")
    name_cell = rows.first.locator("td").nth(1).bounding_box()
    assert name_cell is not None and 0 <= name_cell["x"] < 390
    keep(shot(phone, "phone-scrolled"), "phone-scrolled")
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 390
    assert phone.js_errors == []  # type: ignore[attr-defined]
