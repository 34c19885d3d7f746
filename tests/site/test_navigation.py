"""Everyone finds their way from the page the login lands on (``/start/``: a judge's table to record, else the
tournament list): a judge to their tables and on to the table screen, an organizer to the judges and the
protocols, anyone to the public pages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD
from tests.helpers import table

pytestmark = pytest.mark.django_db


def links(html: str) -> set[str]:
    return set(re.findall(r'href="([^"]+)"', html))


def logged_in(username: str) -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    response = client.post(reverse("login"), {"username": username, "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("site:start")
    return client


def test_a_judge_goes_from_the_list_to_the_table_screen(round_: Any, people: Any) -> None:
    slug = round_.stage.tournament.slug
    client = logged_in("judge")
    html = client.get(reverse("site:tournaments")).content.decode()
    mine = reverse("games:protocols", args=[slug])
    assert mine in links(html) and "My tables" in html
    assert reverse("tournaments:detail", args=[slug]) not in links(html)  # not an organizer
    tables = client.get(mine).content.decode()
    protocol = reverse("games:protocol", args=[slug, table(round_, 1).pk])
    assert protocol in links(tables) and reverse("games:protocol", args=[slug, table(round_, 2).pk]) not in tables
    assert reverse("games:table", args=[slug, table(round_, 1).pk]) in links(client.get(protocol).content.decode())


def test_an_organizer_reaches_judges_and_protocols_from_every_tab(round_: Any, people: Any) -> None:
    slug = round_.stage.tournament.slug
    people["organizer"].set_password(PASSWORD)
    people["organizer"].save()
    client = logged_in(people["organizer"].username)
    html = client.get(reverse("site:tournaments")).content.decode()
    assert {reverse("tournaments:detail", args=[slug]), reverse("games:protocols", args=[slug])} <= links(html)
    for page in (reverse("tournaments:detail", args=[slug]), reverse("tournaments:participants", args=[slug]),
                 reverse("games:staff", args=[slug]), reverse("games:protocols", args=[slug])):
        found = links(client.get(page).content.decode())
        assert {reverse("games:staff", args=[slug]), reverse("games:protocols", args=[slug])} <= found, page


def test_anyone_reaches_the_public_pages_from_the_list(round_: Any) -> None:
    slug = round_.stage.tournament.slug
    html = Client().get(reverse("site:tournaments")).content.decode()
    assert reverse("public:home", args=[slug]) in links(html)
    assert reverse("games:protocols", args=[slug]) not in links(html)
    assert reverse("tournaments:detail", args=[slug]) not in links(html)
