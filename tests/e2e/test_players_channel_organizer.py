"""The organizer's side of the players' channel on a laptop, in Russian, under kostroma (applications): two players
apply online on their phones; the organizer accepts one and rejects the other on the Registration tab, broadcasts
to the players on the Notifications tab and sees who has been told, by e-mail, in the player's language; the
accepted player's private page says so. Screenshots in tests/e2e/artifacts/."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import Page, expect

from entries.models import Entry
from notices.models import Message
from tests.e2e.helpers import login
from tests.entries.helpers import open_registration, typed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


def apply(page: Page, slug: str, n: int) -> str:
    """A player's application typed on their phone; their private page's address."""
    fields = typed(n)
    page.goto(f"/p/{slug}/register/")
    for name in ("surname", "first_name", "patronymic", "phone", "nickname", "club", "city", "birth_date", "email"):
        page.fill(f"#id_{name}", fields[name])
    page.check("#id_consent")
    page.click("#register-form button[type=submit]")
    expect(page.locator("#me-status")).to_be_visible()
    return page.url


def test_the_organizer_accepts_broadcasts_and_sees_who_was_told(
    open_page: Any, make_tournament: Any, organizer: Any, shot: Any,
) -> None:
    tournament = make_tournament("kostroma")
    open_registration(tournament)
    first, second = open_page(phone=True), open_page(phone=True)
    first_link = apply(first, tournament.slug, 1)
    apply(second, tournament.slug, 2)
    accepted = Entry.objects.get(tournament=tournament, details__surname="Орлов1")
    rejected = Entry.objects.get(tournament=tournament, details__surname="Орлов2")

    desk = open_page()
    login(desk, organizer.username)
    desk.goto(f"/t/{tournament.slug}/registration/")
    card = desk.locator(f"#entry-{accepted.pk}")
    expect(card).to_contain_text("Орлов1")
    card.locator("button[value=accept]").click()
    expect(desk.locator(f"#entry-{accepted.pk}")).not_to_contain_text("Принять")
    desk.locator(f"#entry-{rejected.pk} button[value=reject]").click()
    expect(desk.locator(f"#entry-{rejected.pk}")).not_to_contain_text("Принять")
    shot(desk, "registration")

    desk.goto(f"/t/{tournament.slug}/notices/")
    expect(desk.locator("#notices-none")).to_be_visible()
    desk.locator("#broadcast-form textarea").fill("Начинаем в 11:00, регистрация у входа.")
    desk.locator("#broadcast-form select").select_option(index=1)  # the players
    desk.click("#broadcast-form button[type=submit]")
    told = desk.locator("#notices-list")
    expect(told).to_contain_text("Орлов1")
    expect(desk.locator("#notices-totals")).to_contain_text("Сообщений: 1; передано в канал — 1")
    shot(desk, "who-has-been-told")

    message = Message.objects.get(tournament=tournament)
    assert message.handed_at is not None and message.address == "p1@example.org"
    assert [m.to for m in mail.outbox] == [["p1@example.org"]]
    assert "Начинаем в 11:00" in mail.outbox[0].body
    first.goto(first_link)
    expect(first.locator("#me-status")).to_contain_text("участник")
    assert not desk.js_errors and not first.js_errors  # type: ignore[attr-defined]
