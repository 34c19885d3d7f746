"""The overlay's model moved from games to stream: a database of before keeps its overlays (tests/moved_tables.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.moved_tables import rows_survive_the_move

GIVEN = """
import datetime as dt
tournament = apps.get_model("tournaments", "Tournament").objects.create(
    slug="streamed", name="Streamed", ruleset="fiim", starts=dt.date(2026, 1, 1))
apps.get_model("games", "StreamOverlay").objects.create(tournament=tournament, token="kept", show_roles=True,
                                                         delay_seconds=30)
"""

FOUND = """
from stream.models import StreamOverlay
overlay = StreamOverlay.objects.get(token="kept")
assert (overlay.tournament.slug, overlay.show_roles, overlay.delay_seconds) == ("streamed", True, 30)
kind = ContentType.objects.get_for_model(StreamOverlay)
assert kind.app_label == "stream" and not ContentType.objects.filter(app_label="games", model="streamoverlay")
assert set(Permission.objects.filter(content_type=kind).values_list("codename", flat=True)) == {
    f"{verb}_streamoverlay" for verb in ("add", "change", "delete", "view")}
"""


@pytest.mark.django_db
def test_an_overlay_of_before_the_move_is_found_after_it(tmp_path: Path) -> None:
    rows_survive_the_move(tmp_path, "games", "0010_regulation_events", GIVEN, FOUND)
