"""Check-in's models moved from running to checkin: a database of before keeps its sessions, marks and no-shows
(tests/moved_tables.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.moved_tables import rows_survive_the_move

GIVEN = """
import datetime as dt
from django.utils import timezone
tournament = apps.get_model("tournaments", "Tournament").objects.create(
    slug="checked", name="Checked", ruleset="fiim", starts=dt.date(2026, 1, 1))
player = apps.get_model("tournaments", "Player").objects.create(surname="Ivanov")
here = apps.get_model("tournaments", "Participant").objects.create(tournament=tournament, player=player, ext_id="p1")
stage = apps.get_model("tournaments", "Stage").objects.create(tournament=tournament, ext_id="s1", name="Stage",
                                                              kind="qualifying", order=1)
round_ = apps.get_model("tournaments", "Round").objects.create(stage=stage, number=1)
session = apps.get_model("running", "CheckIn").objects.create(tournament=tournament, volunteer_token="v",
                                                              door_token="d")
apps.get_model("running", "CheckInMark").objects.create(check_in=session, participant=here, present=True,
                                                        at=timezone.now(), source="self")
apps.get_model("running", "NoShow").objects.create(check_in=session, round=round_, participant=here,
                                                   marked_at=timezone.now())
"""

FOUND = """
from checkin.models import CheckIn, CheckInMark, NoShow
session = CheckIn.objects.get(door_token="d")
assert session.tournament.slug == "checked" and session.is_open
mark = CheckInMark.objects.get(check_in=session)
assert mark.present and mark.source == "self" and mark.participant.player.surname == "Ivanov"
assert NoShow.objects.get(check_in=session).round.number == 1
for model in (CheckIn, CheckInMark, NoShow):
    kind = ContentType.objects.get_for_model(model)
    assert kind.app_label == "checkin" and not ContentType.objects.filter(app_label="running", model=kind.model)
    assert Permission.objects.filter(content_type=kind).count() == 4
"""


@pytest.mark.django_db
def test_check_ins_of_before_the_move_are_found_after_it(tmp_path: Path) -> None:
    rows_survive_the_move(tmp_path, "running", "0001_check_in", GIVEN, FOUND)
