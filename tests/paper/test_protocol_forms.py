"""Blank protocol forms: a page per table, pre-filled, with the fields of each regulation."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.urls import reverse

from judges.services import staff
from tests.conftest import PASSWORD

from .conftest import pdf_body, pdf_pages

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

EXPECTED = {  # what only some regulations' forms have
    "fiim": {"Extra points": True, "Days survived": False, "Circle marks": False, "lodged at": False,
             "maniac": False},
    "kostroma": {"Extra points": True, "Days survived": False, "Circle marks": False, "lodged at": True,
                 "doctor": True},
    "tomsk": {"Extra points": False, "Days survived": True, "Subjective mark": True, "Circle marks": False,
              "lodged at": False, "maniac": True},
    "zvezdy": {"Extra points": True, "Days survived": False, "Circle marks": True, "lodged at": False},
}


def forms_pdf(client: Any, round_: Any) -> list[str]:
    kwargs = {"slug": round_.stage.tournament.slug, "stage": round_.stage.ext_id, "number": round_.number}
    return pdf_pages(pdf_body(client.get(reverse("paper:forms_pdf", kwargs=kwargs))))


@pytest.mark.parametrize("ruleset", sorted(EXPECTED))
def test_a_page_per_table_with_the_regulations_fields(client: Any, make_round: Any, make_user: Callable[..., User],
                                                       ruleset: str) -> None:
    round_ = make_round(ruleset, tables=2)
    tournament = round_.stage.tournament
    judge = make_user("anna")
    judge.first_name, judge.last_name = "Анна", "Судейская"
    judge.save()
    staff.assign(staff.add_judge(tournament, judge), round_.stage, round_, 2)
    client.login(username="director", password=PASSWORD)
    pages = forms_pdf(client, round_)
    assert len(pages) == 2
    for number, page in enumerate(pages, start=1):
        text = " ".join(page.split())
        assert f"Table {number}" in text and tournament.name in text and "Round: 1" in text
        for seat in round_.tables.get(number=number).seats.select_related("participant__player"):
            assert f"{seat.number} {seat.participant.player.full_name} · №{seat.participant.number}" in text
        assert "Fouls" in text and "Winner" in text and "Best move" in text and "first night" in text
        assert "Judge's signature" in text
        for label, present in EXPECTED[ruleset].items():
            assert (label in text) is present, (ruleset, label)
    assert "Анна Судейская" in pages[1] and "Анна Судейская" not in pages[0]


def test_html_page_and_permissions(client: Any, round_: Any, people: Any) -> None:
    kwargs = {"slug": round_.stage.tournament.slug, "stage": round_.stage.ext_id, "number": round_.number}
    client.login(username="judge", password=PASSWORD)
    assert client.get(reverse("paper:forms", kwargs=kwargs)).status_code == 403
    client.login(username="chief", password=PASSWORD)
    page = client.get(reverse("paper:forms", kwargs=kwargs))
    assert page.status_code == 200 and reverse("paper:forms_pdf", kwargs=kwargs) in page.content.decode()
