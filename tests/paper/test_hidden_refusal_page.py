"""While the standings are hidden, the results documents answered anyone but the organizers Django's bare English
"403 Forbidden" (found walking the pages in Russian): now a page of the site in the reader's language saying
why, with a way to log in."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/t/hid/results/", "/t/hid/results.pdf", "/t/hid/results.csv"])
def test_hidden_results_say_why_in_russian(client: Any, generated: Any, url: str) -> None:
    generated("hid", players=20, rounds=1, standings_hidden=True)
    client.cookies["django_language"] = "ru"
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 403 and 'lang="ru"' in html and 'id="forbidden"' in html
    assert "Организатор ещё не опубликовал таблицу" in html and "/accounts/login/?next=" in html


def test_an_organizer_page_refused_to_a_stranger_says_so(client: Any, generated: Any, stranger: Any) -> None:
    generated("hid", players=20, rounds=1)
    client.force_login(stranger)
    client.cookies["django_language"] = "ru"
    response = client.get("/t/hid/participants/")
    assert response.status_code == 403 and 'id="forbidden"' in response.content.decode()
    assert "Нет доступа" in response.content.decode()
