"""The organizer's round page links each table of a published round to its protocol, with its state."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.services import protocol as service
from tests.helpers import table

pytestmark = pytest.mark.django_db


def test_each_table_links_to_its_protocol_and_state(round_: Any, people: dict[str, Any],
                                                    django_assert_max_num_queries: Any) -> None:
    service.open_protocol(table(round_, 2), people["organizer"])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people["organizer"])
    url = reverse("running:round", kwargs={"slug": round_.stage.tournament.slug, "stage": "q", "number": 1})
    with django_assert_max_num_queries(20):  # one query for the tables' games, however many; two: the check-in
        page = client.get(url).content.decode()
    for number in (1, 2):
        link = reverse("games:protocol", kwargs={"slug": round_.stage.tournament.slug,
                                                 "table": table(round_, number).pk})
        assert f'class="table-protocol" href="{link}"' in page
    assert page.count("not started") == 1 and page.count(">draft</span>") == 1
