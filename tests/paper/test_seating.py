"""Printable seating: one sheet per table with its judge, the alphabetical list; HTML and PDF."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse

from tests.conftest import PASSWORD

from .conftest import pdf_body, pdf_pages

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def urls(round_: Any) -> tuple[str, str]:
    kwargs = {"slug": round_.stage.tournament.slug, "stage": round_.stage.ext_id, "number": round_.number}
    return reverse("paper:seating", kwargs=kwargs), reverse("paper:seating_pdf", kwargs=kwargs)


def login(client: Any, user: User) -> None:
    assert client.login(username=user.username, password=PASSWORD)


def test_pdf_has_a_sheet_per_table_and_the_alphabetical_list(client: Any, round_: Any, people: Any) -> None:
    login(client, people["organizer"])
    pages = pdf_pages(pdf_body(client.get(urls(round_)[1])))
    assert len(pages) == 3  # two tables, and 20 players fit on one alphabetical page
    seats = list(round_.seats.select_related("participant__player", "table").order_by("table__number", "number"))
    for seat in seats:
        page = pages[seat.table.number - 1]
        assert seat.participant.player.surname in page
        assert f"{seat.number} {seat.participant.player.full_name}" in page.replace("\n", " ")
    assert "Table 1" in pages[0] and "Table 2" in pages[1]
    assert "Judge: judge" in pages[0] and "Judge: other" in pages[1]  # round and stage assignments
    alphabetical = pages[2]
    names = sorted((s.participant.player.full_name for s in seats), key=str.casefold)
    positions = [alphabetical.index(name) for name in names]
    assert positions == sorted(positions)
    for seat in seats:  # number, table and seat on the player's line
        line = next(x for x in alphabetical.splitlines() if x.startswith(seat.participant.player.full_name + " «"))
        assert line.endswith(f"{seat.participant.number} {seat.table.number} {seat.number}"), line


def test_print_page_and_russian_pdf(client: Any, round_: Any, people: Any) -> None:
    login(client, people["chief"])
    page = client.get(urls(round_)[0])
    assert page.status_code == 200
    text = page.content.decode()
    assert "<button type=\"button\" data-print>" in text and urls(round_)[1] in text  # static/js/site.js prints
    client.cookies["django_language"] = "ru"
    pages = pdf_pages(pdf_body(client.get(urls(round_)[1])))
    assert "Стол 1" in pages[0] and "Петров Иван" in pages[0] and "Судья: judge" in pages[0]
    assert "Где я сижу" in pages[2]


def test_draft_round_is_marked(client: Any, round_: Any, people: Any) -> None:
    round_.state = "draft"
    round_.save()
    login(client, people["organizer"])
    assert "Draft seating" in pdf_pages(pdf_body(client.get(urls(round_)[1])))[0]


@pytest.mark.parametrize("who, status", [("judge", 403), ("other", 403), ("chief", 200), ("organizer", 200)])
def test_only_organizers_and_the_chief_judge_print(client: Any, round_: Any, people: Any, who: str,
                                                   status: int) -> None:
    login(client, people[who])
    assert client.get(urls(round_)[0]).status_code == status


def test_anonymous_goes_to_login(client: Any, round_: Any) -> None:
    response = client.get(urls(round_)[1])
    assert response.status_code == 302 and "login" in response["Location"]
