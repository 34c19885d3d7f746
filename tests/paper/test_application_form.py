"""The printable application form of kostroma's annex 1.1: the annex's lines (surname, first name,
patronymic, contact phone, date, signature), then, apart, what the organizer asks beside it (the city of residence
and the date of birth, 2.1); its PDF; organizers and the chief judge only; no form where nobody applies."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from judges.services import staff

from .conftest import pdf_body, pdf_pages

pytestmark = pytest.mark.django_db
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]
ANNEX_LINES_RU = ["Приложение 1.1 к Положению", "Форма заявки", "Я,", "Фамилия", "Имя", "Отчество",
                  "прошу внести меня в состав участников", "Контактный телефон", "Дата", "Подпись:"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_form_where_players_apply_and_nowhere_else(client: Any, organizer: Any, make_tournament: Any,
                                                      ruleset: str) -> None:
    t = make_tournament(ruleset, slug=f"form-{ruleset}")
    client.force_login(organizer)
    page = client.get(reverse("paper:application_form", args=[t.slug]))
    participants = client.get(reverse("tournaments:participants", args=[t.slug])).content.decode()
    if ruleset != "kostroma":
        assert page.status_code == 404
        assert client.get(reverse("paper:application_form_pdf", args=[t.slug])).status_code == 404
        assert 'id="application-form-link"' not in participants
        return
    html = page.content.decode()
    assert page.status_code == 200 and 'id="application-form"' in html
    assert 'id="application-form-link"' in participants
    for line in ("Annex 1.1 to the regulation", "Application form", "surname", "first name", "patronymic",
                 "Contact phone", "Date", "Signature:", t.name):
        assert line in html, line
    # the city is not a line of the annex's form: it is asked apart, saying why (2.1)
    form, organizers = html.split('id="for-the-organizer"')
    assert "City of residence" not in form and "City of residence" in organizers
    assert "residents of the city aged 14 to 30" in organizers


def test_the_russian_form_is_the_annexs_and_the_pdf_prints_it(client: Any, organizer: Any,
                                                              make_tournament: Any) -> None:
    t = make_tournament("kostroma", slug="form-ru")
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("paper:application_form", args=[t.slug])).content.decode()
    form = html.split('id="application-form"')[1].split('id="for-the-organizer"')[0]
    positions = [form.find(line) for line in ANNEX_LINES_RU]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), positions
    assert "Город проживания" in html.split('id="for-the-organizer"')[1]
    text = " ".join(pdf_pages(pdf_body(client.get(reverse("paper:application_form_pdf", args=[t.slug])))))
    for line in ("Форма заявки", "Фамилия", "Отчество", "Контактный телефон", "Подпись", "Город проживания"):
        assert line in text, line


def test_only_organizers_and_the_chief_judge(client: Any, organizer: Any, stranger: Any, make_user: Any,
                                             make_tournament: Any) -> None:
    t = make_tournament("kostroma", slug="form-who")
    url = reverse("paper:application_form", args=[t.slug])
    assert client.get(url).status_code == 302  # to the login page
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    chief = make_user("chief-of-form")
    staff.add_judge(t, chief, chief=True)
    client.force_login(chief)
    assert client.get(url).status_code == 200
