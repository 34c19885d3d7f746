"""The line-up by tapping: a role, then its seats; the next role is chosen by itself, every seat left is a
civilian, the line-up saved in one step. A reload keeps the taps made; a refused line-up keeps every role and names
the seats. Every regulation's table, on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.conftest import new_people, new_round
from tests.e2e.helpers import login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)


def specials(ruleset: str) -> list[tuple[int, str]]:
    """The seats ``ROLES`` gives a special role, in the palette's order (don, mafia, sheriff, doctor, maniac)."""
    order = ["don", "mafia", "sheriff", "doctor", "maniac"]
    seats = [(n, role) for n, role in enumerate(ROLES[ruleset], start=1) if role != "civilian"]
    return sorted(seats, key=lambda seat: (order.index(seat[1]), seat[0]))


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_line_up_is_one_tap_a_special_role(open_page: Any, shot: Any, organizer: Any, ruleset: str) -> None:
    round_ = new_round(organizer, ruleset, tables=1)
    people = new_people(round_)
    pk = table(round_, 1).pk
    page = open_page(phone=True)
    login(page, people["judge"].username)
    expect(page).to_have_url(re.compile(rf"/tables/{pk}/live/$"))
    expect(page.locator("#lineup-palette")).to_be_visible()
    taps = specials(ruleset)
    half = len(taps) // 2
    for seat, _role in taps[:half]:
        page.click(f"[data-lineup-seat='{seat}']")
    page.reload()  # a reload keeps what was tapped
    for seat, role in taps[:half]:
        expect(page.locator(f"select[name=s{seat}_role]")).to_have_value(role)
    for seat, _role in taps[half:]:
        page.click(f"[data-lineup-seat='{seat}']")
    shot(page, f"{ruleset}-lineup-tapped")
    page.click("#roles-form button[type=submit]")
    expect(page.locator("#seat-1")).to_be_visible()
    game = Game.objects.get(table_id=pk)
    roles = [row.role for row in game.seats.select_related("seat").order_by("seat__number")]
    assert roles == ROLES[ruleset]  # len(taps) + 1 taps in all: the seats and «Save»
    page.reload()
    expect(page.locator("#roles-form")).to_have_count(0)  # saved: no line-up kept to come back
    assert page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('mafia-table-lineup:')).length") == 0
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_refused_tapped_line_up_keeps_every_role(open_page: Any, organizer: Any) -> None:
    round_ = new_round(organizer, "fiim", tables=1)
    people = new_people(round_)
    page = open_page(phone=True)
    login(page, people["judge"].username)
    for seat in (1, 2, 3, 4):  # don, mafia, mafia, sheriff
        page.click(f"[data-lineup-seat='{seat}']")
    page.click("#lineup-don + label")
    page.click("[data-lineup-seat='5']")  # a second don
    page.click("#roles-form button[type=submit]")
    expect(page.locator("#lineup-problems")).to_contain_text("5")
    expect(page.locator("select[name=s5_role]")).to_have_class(re.compile("is-invalid"))
    expect(page.locator("select[name=s2_role]")).to_have_value("mafia")
    page.click("#lineup-don + label")
    page.click("[data-lineup-seat='5']")  # tapped again with the same role: a civilian again
    page.click("#roles-form button[type=submit]")
    expect(page.locator("#seat-1")).to_be_visible()
