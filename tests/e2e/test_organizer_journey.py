"""The organizer's day, in a real browser: a fiim tournament from the preset, 20 pasted players, round 1
seated (background job, polled) and published, two protocols (one refused for a rule, then corrected),
the standings."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import login

pytestmark = pytest.mark.django_db(transaction=True)

SURNAMES = ["Иванов", "Петров", "Сидоров", "Смирнов", "Кузнецов", "Попов", "Васильев", "Соколов", "Михайлов",
            "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов",
            "Orwell", "Ле Гуин"]
ROLES = ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6


def player_list() -> str:
    lines = ["surname;first_name;nickname;city;birth_date"]
    lines += [f"{s};Имя{i};ник{i};Москва;19{80 + i}-02-0{1 + i % 9}" for i, s in enumerate(SURNAMES)]
    return "\n".join(lines)


def fill_protocol(page: Page, roles: list[str], winner: str) -> None:
    for n, role in enumerate(roles, start=1):
        page.select_option(f"select[name=s{n}_role]", role)
    page.select_option("select[name=winner]", winner)
    if page.locator("input[name=last_day]").count():
        page.fill("input[name=last_day]", "3")


def save_submit_confirm(page: Page) -> None:
    page.click("main form[method=post] button.btn-lg[type=submit]")
    expect(page.locator("#problems")).to_have_count(0)
    page.click("#protocol-state button[name=action][value=submit]")
    page.click("#protocol-state button[name=action][value=confirm]")
    expect(page.locator("#protocol-state .badge.text-bg-success")).to_be_visible()


def test_organizer_journey(open_page: Any, shot: Any, organizer: Any, lang: str) -> None:
    page = open_page()
    login(page, organizer.username)

    # A fiim tournament from the preset.
    page.goto("/new/?ruleset=fiim")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    page.fill("input[name=name]", "Кубок «Полночь» e2e")
    page.fill("input[name=slug]", "midnight-e2e")
    page.fill("input[name=city]", "Зеленоград")
    page.fill("input[name=starts]", "2025-03-15")
    page.fill("input[name=ends]", "2025-03-16")
    shot(page, "1-create")
    page.click("main form[method=post] button[type=submit]")
    page.wait_for_url("**/t/midnight-e2e/")

    # 20 players pasted, checked, imported.
    page.goto("/t/midnight-e2e/participants/import/")
    page.fill("textarea[name=text]", player_list())
    page.click("form[enctype] button[type=submit]")
    expect(page.locator("#preview tbody tr")).to_have_count(20)
    expect(page.locator("#preview .bad-row")).to_have_count(0)
    shot(page, "2-players-preview")
    page.click("form:has(input[name=confirm]) button[type=submit]")
    page.goto("/t/midnight-e2e/")
    expect(page.locator("#count-accepted")).to_have_text("20")

    # Round 1 seated in the background (the page polls), then published.
    page.click("a[href='/t/midnight-e2e/stages/qualifying/']")
    page.click("#plan-form button[type=submit]")
    page.wait_for_url(re.compile(r".*/stages/qualifying/rounds/1/$"), timeout=60_000)
    expect(page.locator(".table-card")).to_have_count(2)
    expect(page.locator(".seat-table tr")).to_have_count(20)
    page.click("form:has(input[name=action][value=publish]) button")
    expect(page.locator("#round-state.text-bg-success")).to_be_visible()
    shot(page, "3-round-published")

    # Table 1: two dons are refused with the rule named, nothing is saved; corrected, saved, confirmed.
    page.goto("/t/midnight-e2e/protocols/")
    page.locator(".list-group-item").first.click()
    fill_protocol(page, ["don", "don", "mafia", "sheriff"] + ["civilian"] * 6, "red")
    page.click("main form[method=post] button.btn-lg[type=submit]")
    expect(page.locator("#problems, .seat-problem").first).to_be_visible()
    expect(page.locator("#protocol-state .badge")).to_have_class(re.compile("text-bg-secondary"))
    shot(page, "4-protocol-refused")
    fill_protocol(page, ROLES, "red")
    save_submit_confirm(page)

    # Table 2: black wins.
    page.goto("/t/midnight-e2e/protocols/")
    page.locator(".list-group-item").nth(1).click()
    fill_protocol(page, ROLES, "black")
    save_submit_confirm(page)
    shot(page, "5-protocol-confirmed")

    # The standings: 20 players, 10 of them with a win.
    page.goto("/t/midnight-e2e/stages/qualifying/standings/")
    shot(page, "6-standings")
    rows = page.locator("table tbody tr")
    expect(rows).to_have_count(20)
    expect(rows.first.locator("td").first).to_have_text("1")
    points = [text.strip() for text in rows.locator("td:nth-child(3)").all_inner_texts()]  # no team column
    assert points == ["2"] * 10 + ["0"] * 10  # ten winners of 2 points each
    assert not page.js_errors
