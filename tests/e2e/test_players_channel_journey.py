"""The players' own channel on phones (390×844, Russian): a player registers online and takes the last place;
a second one finds the tournament full and is put on the waiting list, told her number; the first withdraws from
his private page and she moves up at once; the round is published, and on her private page she finds her table and
seat, highlighted, with the start time. Screenshots in tests/e2e/artifacts/."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from entries.models import Entry, EntryState, SelfRegistration
from tournaments.models import Round, RoundState, Seat, Stage, Table

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


def fill_form(page: Page, surname: str, first: str, nickname: str, email: str) -> None:
    page.fill("#id_surname", surname)
    page.fill("#id_first_name", first)
    page.fill("#id_nickname", nickname)
    page.fill("#id_club", "Полночь")
    page.fill("#id_city", "Зеленоград")
    page.fill("#id_email", email)
    page.check("#id_consent")
    page.click("#register-form button[type=submit]")


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width


def test_register_wait_move_up_and_find_my_seat(open_page: Any, make_tournament: Any, add_participants: Any,
                                                 shot: Any) -> None:
    from django.utils import timezone

    tournament = make_tournament("fiim", participant_cap=9, venue="Клуб «Полночь»")
    add_participants(tournament, 8)
    now = timezone.now()
    SelfRegistration.objects.create(tournament=tournament, opens=now - dt.timedelta(hours=1),
                                    closes=now + dt.timedelta(days=3))

    he = open_page(phone=True)
    he.goto(f"/p/{tournament.slug}/register/")
    expect(he.locator("h2")).to_have_text("Регистрация")
    no_sideways_scroll(he)
    fill_form(he, "Громов", "Артём", "Гром", "grom@example.org")
    expect(he.locator(".alert-success").first).to_contain_text("Вы зарегистрированы")
    expect(he.locator("#me-status")).to_contain_text("Вы участник турнира")
    his_link = he.url

    she = open_page(phone=True)
    she.goto(f"/p/{tournament.slug}/register/")
    expect(she.locator("#register-full")).to_contain_text("заполнен")
    fill_form(she, "Лисицына", "Вера", "Лиса", "lisa@example.org")
    expect(she.locator("#me-status")).to_contain_text("Вы в листе ожидания под номером 1")
    shot(she, "waiting")
    her_link = she.url
    assert her_link != his_link and "/me/" in her_link
    she.goto(f"/p/{tournament.slug}/coming/")
    expect(she.locator("#coming-counts")).to_contain_text("9 участников")
    expect(she.locator("#coming-waiting")).to_contain_text("Вера Л. «Лиса»")

    he.goto(his_link)
    he.locator("#me-withdraw summary").click()
    he.check("#me-sure")
    he.click("#me-withdraw button[type=submit]")
    expect(he.locator(".alert-success").first).to_contain_text("Ваша регистрация отозвана")
    expect(he.locator("#me-status")).to_contain_text("Регистрация отменена")

    she.goto(her_link)
    expect(she.locator("#me-status")).to_contain_text("Вы участник турнира")
    expect(she.locator("#me-status")).to_contain_text("Переведены из листа ожидания")
    hers = Entry.objects.get(tournament=tournament, state=EntryState.ENTERED, details__nickname="Лиса")
    assert hers.promoted_after is not None and hers.promoted_after.details["nickname"] == "Гром"

    # the organizer publishes round 1: she sits at table 1, seat 7
    stage = Stage.objects.create(tournament=tournament, ext_id="q", kind="qualifying", order=1)
    starts = timezone.localtime(now).replace(second=0, microsecond=0) + dt.timedelta(hours=1)
    round_ = Round.objects.create(stage=stage, number=1, seating="random", state=RoundState.PUBLISHED,
                                  published_at=now, starts_at=starts)
    table = Table.objects.create(round=round_, number=1)
    others = list(tournament.participants.exclude(pk=hers.participant_id).order_by("number"))
    order = [*others[:6], hers.participant, *others[6:]]
    Seat.objects.bulk_create(Seat(table=table, round=round_, number=n, participant=p)
                             for n, p in enumerate(order, start=1))
    she.reload()
    mine = she.locator("#me-now")
    expect(mine).to_contain_text("Стол 1, место 7")
    expect(mine).to_contain_text(f"начало {starts.day}")
    expect(mine).to_have_class("card mb-3 border-primary border-2 my-seat")
    box = mine.bounding_box()
    assert box is not None and box["width"] <= 390 and box["y"] < 844  # on the first screen
    no_sideways_scroll(she)
    shot(she, "my-seat")
    assert not she.js_errors and not he.js_errors  # type: ignore[attr-defined]
