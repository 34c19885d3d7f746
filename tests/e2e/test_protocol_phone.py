"""The full protocol on a chief judge's phone: no wider than the screen at 390 px, its numbers as Russian
writes them (SP 1,5, never 1.5 or 0.0), editable and saved from there; every regulation."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from tests.conftest import new_people, new_round
from tests.e2e.helpers import login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)


WIDEST = """Array.from(document.querySelectorAll('main *')).filter(e => e.getBoundingClientRect().right > 391)
  .slice(-3).map(e => e.tagName + '.' + e.className + '#' + (e.name || e.id) + ' ' + e.getBoundingClientRect().right)"""


@pytest.fixture
def lang() -> str:
    return "ru"  # the page's numbers are what this checks: in the language whose separator is a comma


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_protocol_fits_a_phone_with_russian_numbers(open_page: Any, shot: Any, organizer: Any,
                                                        ruleset: str) -> None:
    round_ = new_round(organizer, ruleset, tables=1)
    people = new_people(round_)
    game = service.open_protocol(table(round_, 1), people["judge"])

    def recorded(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES[ruleset], strict=True):
            seat.role = role
        facts.seats[1].foul_reasons = ["other"]
        if ruleset == "tomsk":
            facts.seats[1].subjective = Fraction(3, 2)

    service.change(game, people["judge"], game.version, recorded)
    page = open_page(phone=True)
    login(page, people["chief"].username)
    page.goto(f"/t/{round_.stage.tournament.slug}/tables/{table(round_, 1).pk}/")
    expect(page.locator("#seat-1")).to_be_visible()
    for name in ("winner", "best_move", "notes"):  # each field named by its label (axe-core's "label" rule)
        expect(page.locator(f"label[for=id_{name}]")).to_have_count(1)
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(WIDEST)
    assert width <= 390, (width, wide)
    if ruleset == "tomsk":
        expect(page.locator("input[name=s2_subjective]")).to_have_value("1,5")
        page.fill("input[name=s3_subjective]", "−0,5")
        page.click("#protocol-save")
        expect(page.locator("input[name=s3_subjective]")).to_have_value("−0,5")
        assert Game.objects.get(pk=game.pk).seats.get(seat__number=3).subjective == -0.5
    assert page.locator("input[value='0.0'], input[value$='.5']").count() == 0
    shot(page, f"{ruleset}-protocol-phone")
    height = page.evaluate("document.documentElement.scrollHeight")
    assert height < 6000, height  # a seat a block of two columns: 3,900-4,600 px, against 10,956 as a wide table
