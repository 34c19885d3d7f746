"""The import page and the export download in the browser: a bad file lists its problems and saves nothing;
a good one imports, and its export is the same file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_import_and_export_in_the_browser(client: Any, organizer: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    examples = Path(__file__).resolve().parents[3] / "shared" / "examples"
    if not examples.is_dir():
        examples = Path("/work/shared/examples")
    source = (examples / "zvezdy-example.json").read_bytes()
    client.force_login(organizer)
    bad = json.loads(source)
    bad["stages"][0]["rounds"][0]["games"][0]["seats"][0]["player"] = "nobody"
    response = client.post(reverse("site:import_tournament"),
                           {"file": SimpleUploadedFile("t.json", json.dumps(bad).encode())})
    assert response.status_code == 400 and "nobody" in response.content.decode()
    assert not Tournament.objects.exists()
    response = client.post(reverse("site:import_tournament"), {"file": SimpleUploadedFile("t.json", source)})
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert t.is_organizer(organizer)
    exported = client.get(reverse("exchange:export", kwargs={"slug": t.slug}))
    from scoring import fileio

    assert json.loads(exported.content) == fileio.dump(fileio.load(json.loads(source)))


# Found by the browser journeys, the permission walk or the bad-input tests.
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
