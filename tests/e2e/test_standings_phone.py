"""The public standings on a phone, in Chromium at 390×844, in Russian: for each ruleset's tie-break chain
(tomsk, kostroma with the points per game ranking it, fiim, zvezdy with its head-to-head) the table fits the screen
(no sideways scrolling), with long Russian names and the by-lot, disqualified and not-eligible badges; a tap on a row
opens the line of its folded values, each with its column's long name; "find me" (static/js/find-me.js) finds a
player by number and by part of a name typed with е for ё, marks the row, keeps it through the 20-second poll and
on the next visit, and forgets it. The same page on a laptop keeps the whole table. Screenshots in
tests/e2e/artifacts/."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.running.test_lots import TIED, tied_file

pytestmark = pytest.mark.django_db(transaction=True)

RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]
NAMES = [
    "Ёлкин-Преображенский Константин Александрович", "Щербакова-Воскресенская Аполлинария Вячеславовна",
    "Тимофеев Сергей", "Кузнецова Дарья", "Новиков Илья", "Соколова Анна", "Лебедев Фёдор",
    "Козлов Артём", "Морозова Алёна", "Волков Пётр", "Зайцева Ксения", "Павлов Матвей",
]
REASON = "Неспортивное поведение за игровым столом во время голосования"


@pytest.fixture
def lang() -> str:
    return "ru"


def world(import_file: Any, ruleset: str, hidden: bool = False) -> Any:
    """tied_file's tie broken by lots at the cut, every player with a long Russian name (an ё in the first), a
    nickname, the last seated player disqualified; fiim: an eleventh player absent from two rounds (not eligible);
    kostroma: ranked by the points per game."""
    data = copy.deepcopy(tied_file(ruleset))
    qualifying = data["stages"][0]
    qualifying["lots"] = list(TIED[ruleset])
    if ruleset == "fiim":
        first = qualifying["rounds"][0]
        qualifying["rounds"] += [{**copy.deepcopy(first), "number": n, "absent": ["p11"]} for n in (2, 3)]
        data["players"].append({"id": "p11", "name": "x"})
        qualifying["players"] = [p["id"] for p in data["players"]]
    if ruleset == "kostroma":
        data["params"] = {"rank_by": "average"}
    for player, name in zip(data["players"], NAMES, strict=False):
        player["name"] = name
    data["players"][1]["nickname"] = "Ласточка"
    last = data["players"][-2 if ruleset == "fiim" else -1]["id"]
    data["tournament"] = {"name": f"Кубок {ruleset}", "standings_hidden": hidden,
                          "disqualifications": [{"player": last, "reason": REASON}]}
    return import_file(data, f"phone-{ruleset}")


def fits(page: Page) -> None:
    """No sideways scrolling: neither the page nor the table is wider than the screen."""
    widths = page.evaluate("""() => ({page: document.documentElement.scrollWidth, body: document.body.scrollWidth,
        table: document.getElementById("standings").scrollWidth,
        box: document.querySelector(".table-responsive").scrollWidth, screen: window.innerWidth})""")
    assert max(widths["page"], widths["body"], widths["table"], widths["box"]) <= widths["screen"], widths


def headers(page: Page) -> list[tuple[str, str, bool]]:
    """Each column's title (long name), its short head and whether it is shown."""
    return [tuple(h) for h in page.eval_on_selector_all(  # type: ignore[misc]
        "#standings thead th", "hs => hs.map(h => [h.title, h.textContent, getComputedStyle(h).display !== 'none'])")]


def find(page: Page, text: str) -> None:
    page.fill("#find-me-q", text)
    page.press("#find-me-q", "Enter")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_phone_standings_fold_and_find_me(open_page: Callable[..., Page], shot: Any, import_file: Any,
                                          ruleset: str) -> None:
    tournament = world(import_file, ruleset)
    page = open_page(phone=True)
    page.clock.install()
    page.goto(f"/p/{tournament.slug}/standings/q/")
    rows = page.locator("#standings > tbody > tr")
    expect(rows.first).to_be_visible()
    expect(page.locator("#standings .by-lot")).to_have_count(len(TIED[ruleset]))
    expect(page.locator("#standings .disqualified")).to_have_count(1)
    if ruleset == "fiim":
        expect(page.locator("#standings .text-bg-warning")).to_have_count(1)  # p11: not eligible
    fits(page)
    heads = headers(page)
    shown = [short for _title, short, visible in heads if visible]
    assert shown[:3] == ["#", "Игрок", "Баллы"] and len(shown) == (4 if ruleset == "kostroma" else 3), heads
    folded = [(title, short) for title, short, visible in heads if not visible]
    assert [title for title, _short in folded][:2] == ["игры", "победы"] and len(folded) > 2, heads
    assert all(title for title, _short in folded)
    shot(page, f"{ruleset}-1-folded")

    # A tap on the row (here on its points) opens the line of its folded values, each after its long name.
    row = rows.nth(1)
    button = row.locator(".fold-toggle")
    expect(button).to_have_attribute("aria-expanded", "false")
    row.locator("td").nth(2).tap()
    expect(button).to_have_attribute("aria-expanded", "true")
    line = page.locator("#standings tr.standing-detail")
    expect(line).to_have_count(1)
    cells = row.locator("td").evaluate_all("tds => tds.map(td => td.textContent.trim())")
    hidden_values = [value for value, (_title, _short, visible) in zip(cells, heads, strict=True) if not visible]
    terms = line.locator("dt").all_inner_texts()
    values = line.locator("dd").all_inner_texts()
    assert [t.rstrip(":") for t in terms] == [title for title, _short in folded]
    assert values == [v or "–" for v in hidden_values]
    fits(page)
    shot(page, f"{ruleset}-2-row-open")
    button.press("Enter")  # the keyboard closes it
    expect(line).to_have_count(0)
    expect(button).to_have_attribute("aria-expanded", "false")

    # Find me: by number, then by part of a name with е for ё; several matches are listed; none is said.
    expect(page.locator("#find-me")).to_be_visible()
    number = rows.nth(4).locator(".nr").inner_text()
    find(page, number)
    expect(page.locator("#standings tr.found")).to_have_count(1)
    expect(page.locator("#standings tr.found .nr")).to_have_text(number)
    expect(page.locator("#standings tr.found + tr.standing-detail")).to_have_count(1)
    find(page, "елкин-преобр")
    found = page.locator("#standings tr.found")
    expect(found).to_have_count(1)
    expect(found).to_contain_text(NAMES[0])
    expect(page.locator("#find-me-status")).to_contain_text(NAMES[0])
    fits(page)
    shot(page, f"{ruleset}-3-found")
    find(page, "ЛАСТОЧ")  # the nickname, not shown in the table
    expect(found).to_contain_text(NAMES[1])
    find(page, "ова")  # Щербакова-Воскресенская, Кузнецова, Соколова, …
    choices = page.locator("#find-me-choices button")
    expect(choices.first).to_be_visible()
    assert choices.count() >= 3
    shot(page, f"{ruleset}-4-several")
    choices.filter(has_text="Кузнецова").click()
    expect(found).to_contain_text("Кузнецова Дарья")
    find(page, "Жмуркин")
    expect(page.locator("#find-me-status")).to_contain_text("нет игроков по запросу «Жмуркин»")

    # The poll swaps the table every 20 s: the mark and the open line are there again in the new table.
    page.eval_on_selector("#standings", "t => t.setAttribute('data-before-swap', '1')")
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true"):
        page.clock.run_for(21_000)
    expect(page.locator("#standings[data-before-swap]")).to_have_count(0)
    expect(found).to_contain_text("Кузнецова Дарья")
    expect(page.locator("#standings tr.found + tr.standing-detail")).to_have_count(1)
    # The next visit finds the player again, until "forget me".
    page.reload()
    expect(found).to_contain_text("Кузнецова Дарья")
    page.click("#find-me-forget")
    expect(page.locator("#standings tr.found")).to_have_count(0)
    page.reload()
    expect(rows.first).to_be_visible()
    expect(page.locator("#standings tr.found")).to_have_count(0)
    expect(page.locator("#find-me-forget")).to_be_hidden()
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_laptop_keeps_the_whole_table(open_page: Callable[..., Page], shot: Any, import_file: Any) -> None:
    tournament = world(import_file, "fiim")
    page = open_page()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"/p/{tournament.slug}/standings/q/")
    expect(page.locator("#find-me")).to_be_visible()
    assert all(visible for _title, _short, visible in headers(page))
    expect(page.locator("#standings .fold-toggle").first).to_be_hidden()
    page.locator("#standings > tbody > tr").nth(1).locator("td").nth(2).click()
    expect(page.locator("#standings tr.standing-detail")).to_have_count(0)  # nothing to open
    find(page, "Морозова")
    expect(page.locator("#standings tr.found")).to_contain_text("Морозова Алёна")
    shot(page, "laptop")
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_find_me_in_the_alphabetical_list_of_hidden_standings(
        open_page: Callable[..., Page], shot: Any, import_file: Any) -> None:
    tournament = world(import_file, "zvezdy", hidden=True)
    page = open_page(phone=True)
    page.goto(f"/p/{tournament.slug}/standings/q/")
    expect(page.locator("#hidden-players li").first).to_be_visible()
    find(page, "алена")
    expect(page.locator("#hidden-players li.found")).to_contain_text("Морозова Алёна")
    number = page.locator("#hidden-players li.found .nr").inner_text()
    find(page, number)
    expect(page.locator("#hidden-players li.found")).to_contain_text("Морозова Алёна")
    shot(page, "found")
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_a_long_table_shows_its_top_and_opens_the_rest(open_page: Callable[..., Page], shot: Any,
                                                       import_file: Any) -> None:
    """150 players: the first 100 rows (and the rest of a tie at the hundredth) are laid out, the others wait in a
    hidden part (a phone styles none of
    them); "find me" of a player down there opens it and marks the row; it stays open through the poll;
    "Show all" opens it on a fresh visit; ``?all=1`` (the link itself, without a script) shows every row."""
    from scoring import fileio
    from scoring.generate import generate

    data = fileio.dump(generate("fiim", players=150, rounds=2, seed=3))
    data["tournament"] = {"name": "Большой турнир", "standings_hidden": False}
    tournament = import_file(data, "phone-long")
    page = open_page(phone=True)
    page.clock.install()
    page.goto(f"/p/{tournament.slug}/standings/")
    first = page.locator("#standings > tbody:first-of-type > tr").count()
    assert 100 <= first < 150  # the tie at row 100 is not split
    rest = page.locator("#standings-rest")
    expect(rest).to_be_hidden()
    expect(rest.locator("tr")).to_have_count(150 - first)
    rank = "tr > td:first-child"
    assert page.locator(f"#standings > tbody:first-of-type > {rank}").last.text_content() != \
        rest.locator(rank).first.text_content()
    expect(page.locator("#standings-more")).to_have_text("Показать всю таблицу (150 игроков)")
    last = rest.locator("tr:not(.standing-detail)").last
    name = last.locator("a").inner_text()
    shot(page, "long-1-top")
    find(page, name)
    expect(rest).to_be_visible()
    expect(page.locator("#standings tr.found")).to_contain_text(name)
    expect(page.locator("#standings-more")).to_be_hidden()
    expect(last.locator(".fold-toggle")).to_have_count(1)  # the rows opened fold like the first ones
    shot(page, "long-2-found-below")
    with page.expect_response(lambda r: r.request.headers.get("hx-request") == "true"):
        page.clock.run_for(21_000)
    expect(page.locator("#standings-rest")).to_be_visible()
    expect(page.locator("#standings tr.found")).to_contain_text(name)
    page.click("#find-me-forget")

    fresh = open_page(phone=True)
    fresh.goto(f"/p/{tournament.slug}/standings/")
    expect(fresh.locator("#standings-rest")).to_be_hidden()
    fresh.click("#standings-more")
    expect(fresh.locator("#standings-rest")).to_be_visible()
    expect(fresh.locator("#standings-more")).to_be_hidden()
    assert fresh.url.endswith("/standings/")  # opened in place, no new page
    fresh.goto(f"/p/{tournament.slug}/standings/?all=1")
    expect(fresh.locator("#standings > tbody > tr:not(.standing-detail)")).to_have_count(150)
    expect(fresh.locator("#standings-rest")).to_have_count(0)
    assert not page.js_errors and not fresh.js_errors  # type: ignore[attr-defined]
