"""The organizer's stage page."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tests.helpers import import_played

pytestmark = pytest.mark.django_db


# Found by the browser journeys, the permission walk or the bad-input tests.
@pytest.mark.parametrize("language, expected", [
    ("en", "rounds 1–4 — balanced (computer sample); rounds 5–7 — Swiss by tens."),
    ("ru", "туры 1–4 — сбалансированная (компьютерная выборка); туры 5–7 — швейцарская по десяткам."),
])
def test_the_stage_page_names_the_planned_seating_methods(client: Any, organizer: Any, language: str,
                                                          expected: str) -> None:
    """The stage page listed the raw method ids ("balanced, balanced, …, swiss_tens") of the seating plan."""
    tournament = import_played(organizer, players=20, rounds=1)
    stage = tournament.stages.get(ext_id="qualifying")
    stage.seating_plan = ["balanced"] * 4 + ["swiss_tens"] * 3
    stage.save()
    client.force_login(organizer)
    client.cookies["django_language"] = language
    html = client.get(reverse("running:stage", args=[tournament.slug, stage.ext_id])).content.decode()
    assert expected in html and "swiss_tens," not in html and "balanced, balanced" not in html


@pytest.mark.parametrize("plan, planned, expected", [
    # one method for the stage: «Рассадка: тур 1: сбалансированная» read as if round 2 had none
    (["balanced"], 4, "Рассадка: сбалансированная (компьютерная выборка)."),
    # the plan's last method holds for the rounds after it (as the seating form proposes it)
    (["random", "balanced"], 5, "Рассадка: тур 1 — случайная; туры 2–5 — сбалансированная (компьютерная выборка)."),
])
def test_the_stage_page_says_which_rounds_each_method_seats(client: Any, organizer: Any, plan: list[str],
                                                              planned: int, expected: str) -> None:
    tournament = import_played(organizer, players=20, rounds=1)
    stage = tournament.stages.get(ext_id="qualifying")
    stage.seating_plan, stage.planned_rounds = plan, planned
    stage.save()
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("running:stage", args=[tournament.slug, stage.ext_id])).content.decode()
    assert expected in " ".join(html.split())


def test_an_unnamed_stage_is_named_by_its_kind_as_a_name(client: Any, organizer: Any) -> None:
    """An unnamed stage's headings, tabs and overlay began in lower case («отборочный · Турнир»)."""
    tournament = import_played(organizer, players=20, rounds=1)
    stage = tournament.stages.get(ext_id="qualifying")
    stage.name, stage.kind = "", "qualifying"
    stage.save()
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("running:stage", args=[tournament.slug, stage.ext_id])).content.decode()
    assert f"<title>Отборочный · {tournament.name}" in html and '<h2 class="h4">Отборочный' in html


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_team_column_only_where_there_are_teams(client: Any, organizer: Any, import_file: Any,
                                                    ruleset: str) -> None:
    """Kostroma's and zvezdy's standings had a «Команда» column empty on every row (found walking as an organizer)."""
    from tournaments.models import Team

    tournament = import_file(f"{ruleset}-example.json", f"teams-{ruleset}")
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = client.get(reverse("running:standings", args=[tournament.slug, "qualifying"])).content.decode()
    head = html.split('<thead>', 1)[1].split("</thead>", 1)[0]
    assert ("<th>Команда</th>" in head) == Team.objects.filter(tournament=tournament).exists() == (ruleset == "tomsk")
