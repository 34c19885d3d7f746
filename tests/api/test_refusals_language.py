"""The API's refusals speak the asker's language (``Accept-Language``), as its protocol refusals do: a Russian
client read «The standings of this tournament are hidden.» in English. Every regulation's example, hidden."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_refusals_in_russian_and_english(api: Any, import_file: Any, ruleset: str) -> None:
    t = import_file(f"{ruleset}-example.json", f"{ruleset}-api-words", standings_hidden=True)
    client = api()
    cases = [
        (f"/api/tournaments/{t.slug}/standings/", 403, "Таблица этого турнира скрыта.",
         "The standings of this tournament are hidden."),
        (f"/api/tournaments/{t.slug}/export/nope/", 404, "Такого формата нет; есть:", "No such format: one of"),
        (f"/api/tournaments/{t.slug}/rounds/nope/99/seating/", 404, "Такого опубликованного тура нет.",
         "No such published round."),
    ]
    for url, status, russian, english in cases:
        for language, said in (("ru", russian), ("en", english)):
            answer = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert answer.status_code == status, (url, answer.status_code)
            assert said in answer.json()["detail"], (url, language, answer.json())
