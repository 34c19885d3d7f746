"""Regression tests of defects found by the browser journeys, the permission walk and the bad-input tests
(issue 8); each test names what was wrong."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from tests.organizer_fixtures import import_played
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
    response = client.post(reverse("tournaments:create"), data)
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

    from tests.organizer_fixtures import played_file

    text = json.dumps(played_file(10, 1)).replace('"table": 1', '"table": 100000000000000000000', 1)
    client.force_login(organizer)
    response = client.post(reverse("tournaments:import"), {"file": SimpleUploadedFile("t.json", text.encode())},
                           HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "cannot store" in response.content.decode()
    assert not Tournament.objects.exists()
