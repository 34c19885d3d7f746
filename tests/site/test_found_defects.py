"""Regression tests of defects found by the browser journeys, the permission walk and the bad-input tests
(issue 8); each test names what was wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from tests.helpers import import_played
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_create_with_the_untouched_empty_stage_row_as_a_browser_sends_it(client: Any, organizer: Any) -> None:
    """The empty row for a new stage posted its kind select's first option, so the row counted as changed
    and the preset, submitted unchanged, failed with "This field is required" on that row."""
    from scoring.rulesets import get_ruleset

    data = {
        "ruleset": "fiim", "name": "Cup", "slug": "cup", "city": "", "venue": "",
        "starts": "2025-03-15", "ends": "2025-03-16",
        "stage-TOTAL_FORMS": "2", "stage-INITIAL_FORMS": "0",
        "stage-0-ext_id": "qualifying", "stage-0-kind": "qualifying", "stage-0-rounds": "7",
        "stage-0-seating": "balanced", "stage-0-multiplier": "1.0",
        # the untouched extra row: a select always posts its first option
        "stage-1-ext_id": "", "stage-1-name": "", "stage-1-kind": "qualifying", "stage-1-rounds": "",
        "stage-1-seating": "", "stage-1-advance_kind": "", "stage-1-advance_count": "", "stage-1-multiplier": "",
    }
    for name, value in get_ruleset("fiim").defaults.to_json().items():
        data[f"param-{name}"] = json.dumps(value)
    client.force_login(organizer)
    response = client.post(reverse("site:new_tournament"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert list(Tournament.objects.get(slug="cup").stages.values_list("ext_id", flat=True)) == ["qualifying"]


@pytest.mark.parametrize("page", ["player", "seating"])
def test_seat_column_in_russian_is_a_place_not_the_verb(client: Any, organizer: Any, page: str) -> None:
    """The public pages' "Seat" column shared its msgid with the organizer's "Seat" (the round) button, so
    Russian spectators read "Рассадить" (to seat) over the seat numbers."""
    slug = import_played(organizer, players=10, rounds=1).slug
    url = reverse("public:player", args=[slug, "p001"]) if page == "player" else reverse("public:seating", args=[slug])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<th" in html and "Место" in html
    assert "Рассадить" not in html


def test_importing_a_file_with_a_number_past_the_database_is_a_clear_400(client: Any, organizer: Any) -> None:
    """A table number of 10**20 passed the schema and the rules, then the database refused it: a 500 in the
    browser (a traceback from the command), instead of a problem listed on the import page."""
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tests.helpers import played_file

    text = json.dumps(played_file(10, 1)).replace('"table": 1', '"table": 100000000000000000000', 1)
    client.force_login(organizer)
    response = client.post(reverse("site:import_tournament"), {"file": SimpleUploadedFile("t.json", text.encode())},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "cannot store" in response.content.decode()
    assert not Tournament.objects.exists()


NUL_REQUESTS = [
    ("get", "/api/tournaments/{slug}/rounds/?stage=%00"),
    ("get", "/api/tournaments/{slug}/standings/?stage=q%00"),
    ("get", "/p/{slug}/where/?q=%00"),
    ("get", "/p/{slug}/standings/q%00/"),
    ("get", "/p/{slug}/players/p%00/"),
    ("post", "/t/{slug}/tables/{table}/live/"),
]


@pytest.mark.parametrize(("method", "path"), NUL_REQUESTS)
def test_a_nul_character_is_a_400_not_a_server_error(client: Any, organizer: Any, method: str, path: str) -> None:
    """PostgreSQL refuses text with NUL: a NUL in a query parameter, a path part or a raw form value reached
    a query and raised ValueError in the driver (a 500)."""
    tournament = import_played(organizer, players=10, rounds=1)
    table = tournament.stages.get(ext_id="qualifying").rounds.get().tables.get()
    client.force_login(organizer)
    url = path.format(slug=tournament.slug, table=table.pk)
    response = client.get(url) if method == "get" else client.post(url, {"action": "foul", "seat": "1",
                                                                          "version": "1", "reason": "x\x00"})
    assert response.status_code == 400
    assert "NUL" in response.content.decode()


def test_json_nested_too_deeply_is_a_400(client: Any, organizer: Any) -> None:
    """A body of 5,000 '[' made DRF's JSON parser raise RecursionError: a 500."""
    from games.services.staff import add_judge

    tournament = import_played(organizer, players=10, rounds=1)
    table = tournament.stages.get(ext_id="qualifying").rounds.get().tables.get()
    add_judge(tournament, organizer, chief=True)
    client.force_login(organizer)
    response = client.put(reverse("api:protocol", args=[tournament.slug, table.pk]), "[" * 5000,
                          content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


def test_an_unknown_tournament_in_the_api_is_a_json_404(client: Any) -> None:
    """The read API answered an unknown tournament with Django's HTML 404 page."""
    for name in ("api:tournament", "api:standings", "api:games", "api:rounds", "api:stages"):
        response = client.get(reverse(name, args=["nope"]))
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["detail"]


@pytest.mark.parametrize("language, expected", [
    ("en", "rounds 1–4: balanced (computer sample); rounds 5–7: Swiss by tens."),
    ("ru", "туры 1–4: сбалансированная (компьютерная выборка); туры 5–7: швейцарская по десяткам."),
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


def test_the_wins_tie_break_is_not_a_second_wins_column(client: Any, organizer: Any) -> None:
    """fiim's chain starts with wins, so both standings tables showed the wins twice (the public one under
    two identical headers, "П" and "П")."""
    tournament = import_played(organizer, players=20, rounds=2)
    assert tournament.ruleset == "fiim"
    client.cookies["django_language"] = "en"
    public = client.get(reverse("public:stage_standings", args=[tournament.slug, "qualifying"])).content.decode()
    head = public[public.index("<thead>"):public.index("</thead>")]
    assert head.count('title="wins"') == 1 and 'title="times named best"' in head
    client.force_login(organizer)
    page = client.get(reverse("running:standings", args=[tournament.slug, "qualifying"])).content.decode()
    head = page[page.index("<thead>"):page.index("</thead>")]
    assert head.count(">wins<") + head.count(">Wins<") == 1 and "times named best" in head
