"""A NUL character anywhere in a request (the path, the query string, a form field) is a 400 that says so
(base/middleware.py); PostgreSQL cannot store or compare text with NUL."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import import_played

pytestmark = pytest.mark.django_db


NUL_REQUESTS = [
    ("get", "/api/tournaments/{slug}/rounds/?stage=%00"),
    ("get", "/api/tournaments/{slug}/standings/?stage=q%00"),
    ("get", "/p/{slug}/where/?q=%00"),
    ("get", "/p/{slug}/standings/q%00/"),
    ("get", "/p/{slug}/players/p%00/"),
    ("post", "/t/{slug}/tables/{table}/live/"),
]


# Found by the browser journeys, the permission walk or the bad-input tests.
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
