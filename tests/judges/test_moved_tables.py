"""The judges' models moved from games to judges: a database of before keeps its judges, their tables and their
private links (tests/moved_tables.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.moved_tables import rows_survive_the_move

GIVEN = """
import datetime as dt
tournament = apps.get_model("tournaments", "Tournament").objects.create(
    slug="judged", name="Judged", ruleset="kostroma", starts=dt.date(2026, 1, 1))
stage = apps.get_model("tournaments", "Stage").objects.create(tournament=tournament, ext_id="s1", name="Stage",
                                                              kind="qualifying", order=1)
user = apps.get_model("auth", "User").objects.create(username="chief")
judge = apps.get_model("games", "Judge").objects.create(tournament=tournament, user=user, chief=True, rank=1)
apps.get_model("games", "JudgeAssignment").objects.create(judge=judge, stage=stage, table=3)
apps.get_model("games", "PrivateLink").objects.create(judge=judge, token="kept")
"""

FOUND = """
from judges.models import Judge, JudgeAssignment, PrivateLink
judge = Judge.objects.get(user__username="chief")
assert (judge.tournament.slug, judge.chief, judge.rank) == ("judged", True, 1)
assert [(a.stage.ext_id, a.round_id, a.table) for a in JudgeAssignment.objects.filter(judge=judge)] == [("s1", None, 3)]
assert PrivateLink.objects.get(judge=judge).token == "kept"
for model in (Judge, JudgeAssignment, PrivateLink):
    kind = ContentType.objects.get_for_model(model)
    assert kind.app_label == "judges" and not ContentType.objects.filter(app_label="games", model=kind.model)
    assert Permission.objects.filter(content_type=kind).count() == 4
"""


@pytest.mark.django_db
def test_judges_of_before_the_move_are_found_after_it(tmp_path: Path) -> None:
    rows_survive_the_move(tmp_path, "games", "0011_stream_overlay_to_its_app", GIVEN, FOUND)
