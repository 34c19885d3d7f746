"""Registering a player who played before, in Chromium at laptop size in Russian: after "Add" the page asks
"Это тот же человек?" with the earlier player proposed (name, nickname, club, city, their tournaments and the
last one), and choosing them links the new participant to the same registry entry. A screenshot of the question
is written to /tmp/registry-question.png (and the artifacts) to read its wording."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from base.csp import POLICY
from tests.e2e.helpers import login

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


def test_a_player_who_played_before_is_the_same_entry(open_page: Callable[..., Page], make_tournament: Any,
                                                      organizer: Any, settings: Any,
                                                      shot: Callable[[Page, str], Path]) -> None:
    from tournaments.models import Participant, Player, Tournament

    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": POLICY}
    earlier = Tournament.objects.create(slug="autumn", name="Осенний кубок", ruleset="fiim",
                                        starts=dt.date(2024, 10, 5))
    player = Player.objects.create(surname="Фёдоров", first_name="Пётр", nickname="Ворон", club="Полночь",
                                   city="Тверь")
    Participant.objects.create(tournament=earlier, player=player, number=7, ext_id="p007")
    t = make_tournament("fiim")
    page = open_page()
    login(page, organizer.username)
    page.goto(f"/t/{t.slug}/participants/")
    page.fill("#id_surname", "Федоров")  # typed without ё, in another case: the same name as compared
    page.fill("#id_first_name", "петр")
    page.fill("#id_nickname", "Ворон")
    page.fill("#id_phone", "+7 900 000-00-07")
    page.click("#register-player")
    question = page.locator("#same-person")
    expect(question).to_contain_text("Это тот же человек?")
    expect(question).to_contain_text("Осенний кубок")
    expect(question).to_contain_text("Полночь")
    expect(page.locator(f"#same-{player.pk}")).to_be_checked()  # the single exact match, proposed and shown
    assert not t.participants.exists()  # nothing saved before the answer
    path = shot(page, "question")
    shutil.copy(path, "/tmp/registry-question.png")
    page.click("#register-player")
    expect(page.locator(".alert-success")).to_contain_text("зарегистрирован")
    participant = t.participants.get()
    assert participant.player_id == player.pk and Player.objects.count() == 1
    player.refresh_from_db()
    assert player.phone == "+7 900 000-00-07" and player.participations.count() == 2
    shutil.copy(shot(page, "registered"), "/tmp/registry-registered.png")
    assert not page.js_errors  # type: ignore[attr-defined]
