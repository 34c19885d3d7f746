"""A protocol's history says what each tap of the game log recorded or took back, and who did it by name: a tap
was a bare «сохранено», and the author a login."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import new_people
from tests.games.test_table_screen import Screen
from tests.helpers import table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_history_says_each_log_tap(make_round: Any, ruleset: str) -> None:
    round_ = make_round(ruleset)
    people = new_people(round_)
    judge = people["judge"]
    judge.first_name, judge.last_name = "Анна", "Судейская"
    judge.save(update_fields=["first_name", "last_name"])
    screen = Screen(round_, judge, ruleset)
    screen.tap("nominated", seat=4)
    screen.tap("nominated", seat=6)
    screen.tap("log_undo")
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(judge)
    url = reverse("games:history", kwargs={"slug": round_.stage.tournament.slug, "table": table(round_, 1).pk})
    page = client.get(url).content.decode()
    assert page.count("журнал игры: день 1: выставлено место 4") == 1
    assert page.count("журнал игры: день 1: выставлено место 6") == 1
    assert page.count("журнал игры, отменено: день 1: выставлено место 6") == 1
    assert "Анна Судейская" in page
