"""What people type may be one long unbroken word (a pasted address, «ааааа…»): on a 390 px phone it wraps inside
its cell or card instead of widening the page, on the round's page (a penalty's reason, a draw's note) and the
protests page (a protest's text, its decision's reason)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Protest
from games.services import protocol as service
from tests.e2e.helpers import login
from tests.helpers import table
from tournaments.models import Penalty

pytestmark = pytest.mark.django_db(transaction=True)

LONG = "Неспортивное" * 16  # 192 letters without a space


@pytest.fixture
def lang() -> str:
    return "ru"


def test_long_words_wrap_on_a_phone(open_page: Any, shot: Any, round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    first = table(round_, 1)
    Penalty.objects.create(round=round_, participant=first.seats.get(number=1).participant, points=-1, reason=LONG)
    game = service.open_protocol(first, people["judge"])
    Protest.objects.create(game=game, seat=2, text=LONG, decision="rejected", reason=LONG)
    page = open_page(phone=True)
    login(page, people["organizer"].username)
    for url in (reverse("running:round", kwargs={"slug": tournament.slug, "stage": round_.stage.ext_id,
                                                 "number": round_.number}),
                reverse("games:protests", kwargs={"slug": tournament.slug, "table": first.pk})):
        page.goto(url)
        assert page.locator(f"text={LONG[:24]}").count() >= 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, url
    shot(page, "protests-long-text")
    assert page.js_errors == []  # type: ignore[attr-defined]
