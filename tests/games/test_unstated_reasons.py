"""A foul or a verbal warning tapped without a reason is recorded as such ("reason not chosen"), never as the
regulations' "other (see the notes)": on the full protocol, in its history, and through a save of the full form,
which keeps the foul (a reason outside the form's list used to be dropped with its foul)."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from scoring.rulesets import get_ruleset
from tests.conftest import new_people
from tests.games.test_table_screen import Screen
from tests.helpers import table

pytestmark = pytest.mark.django_db


class FormValues(HTMLParser):
    """What a browser posts for the page's protocol form (``class="protocol-form"``), as it is shown."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}
        self.forms = 0
        self.select: str | None = None
        self.textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = {k: v or "" for k, v in attrs}
        if tag == "form" and "protocol-form" in given.get("class", ""):
            self.forms += 1
        if self.forms != 1 or (not given.get("name") and tag != "option"):
            return
        if tag == "input" and given.get("type") not in ("submit", "button"):
            if given.get("type") != "checkbox" or "checked" in given:
                self.values[given["name"]] = given.get("value", "on" if given.get("type") == "checkbox" else "")
        elif tag == "select":
            self.select = given["name"]
            self.values.setdefault(self.select, "")
        elif tag == "option" and self.select and "selected" in given:
            self.values[self.select] = given.get("value", "")
        elif tag == "textarea":
            self.textarea = given["name"]
            self.values[self.textarea] = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None
        elif tag == "form" and self.forms == 1:
            self.forms = 2

    def handle_data(self, data: str) -> None:
        if self.textarea:
            self.values[self.textarea] += data


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_foul_without_a_reason_reads_so_everywhere_and_survives_the_full_form(make_round: Any,
                                                                                ruleset: str) -> None:
    round_ = make_round(ruleset)
    people = new_people(round_)
    screen = Screen(round_, people["judge"], ruleset)
    screen.tap("foul", seat=3, reason="")
    screen.tap("foul", seat=3, reason="out_of_turn" if ruleset != "tomsk" else "religion")
    warns = get_ruleset(ruleset).verbal_warnings
    if warns:
        screen.tap("warn", seat=5, warning="")
    seat = screen.game.seats.get(seat__number=3)
    assert seat.foul_reasons[0] == "unstated"
    slug, pk = round_.stage.tournament.slug, table(round_, 1).pk
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(people["judge"])
    protocol = reverse("games:protocol", kwargs={"slug": slug, "table": pk})
    page = client.get(protocol).content.decode()
    foul1 = page.split('name="s3_foul1"', 1)[1].split("</select>", 1)[0]
    assert '<option value="unstated" selected>причина не выбрана</option>' in foul1
    if warns:
        assert "причина не выбрана" in page.split('name="s5_role"', 1)[1].split('name="s6_role"', 1)[0]
    form = FormValues()
    form.feed(page)
    assert form.values["s3_foul1"] == "unstated" and form.values["version"]
    form.values["notes"] = "сохранено полной формой"
    response = client.post(protocol, form.values)
    refusals = re.findall(r"(?:alert-danger|invalid-feedback|text-danger)[^>]*>([^<]*)", response.content.decode())
    assert response.status_code == 302, refusals
    seat.refresh_from_db()
    assert seat.fouls == 2 and seat.foul_reasons[0] == "unstated"
    version = screen.game.version
    form = FormValues()  # the form saved again as it is: nothing changes, no empty version in the history
    form.feed(client.get(protocol).content.decode())
    assert "Ничего не изменилось" in client.post(protocol, form.values, follow=True).content.decode()
    assert screen.game.version == version
    history = client.get(reverse("games:history", kwargs={"slug": slug, "table": pk})).content.decode()
    assert "причина не выбрана" in history and "другое (см. примечания)" not in history
