"""Before a stage's first result everyone has 0 points, and the engine's cut would take the first players by
number: neither the organizer's standings nor the public ones say anyone goes on then, they say how many will."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from exchange.files import import_text
from tests.helpers import example_text

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_nobody_goes_on_before_a_game_is_played(client: Client, organizer: Any, ruleset: str) -> None:
    data = json.loads(example_text(f"{ruleset}-example.json"))
    data["tournament"]["standings_hidden"] = False
    for stage in data["stages"]:  # every round seated, no game with a result yet
        for round_ in stage["rounds"]:
            round_["games"] = [{"table": game["table"], "winner": None,
                                "seats": [{"seat": s["seat"], "player": s["player"], "role": s["role"]}
                                          for s in game["seats"]]}
                               for game in round_["games"]]
    tournament = import_text(json.dumps(data), slug=f"before-{ruleset}", organizers=[organizer])
    client.force_login(organizer)
    url = reverse("running:standings", kwargs={"slug": tournament.slug, "stage": "qualifying"})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert page.count('class="standing-row') > 10
    assert "advances" not in page.replace('id="advance-count"', "")  # no badge, no green row
    assert "table-success" not in page
    assert "Ни одна игра этапа ещё не сыграна: кто пройдёт в следующий этап, решат игры." in page
    public = Client().get(reverse("public:stage_standings", kwargs={"slug": tournament.slug, "stage": "qualifying"}),
                          HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "table-success" not in public.replace('class="badge table-success', "")
    assert "qualification-line" not in public and "team-advances" not in public
    assert 'id="will-advance">Ни одна игра этапа ещё не сыграна' in public
    assert "проходит в следующий этап" not in public and "проходят в следующий этап" not in public
