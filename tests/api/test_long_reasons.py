"""A reason longer than simple-history's default 100-character column: reopening a protocol (the API takes
up to 2000 characters) and disqualifying or reinstating a player failed with a database error on PostgreSQL,
after the reason had passed every check. The whole reason is kept in the history."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Game
from tests.helpers import table
from tournaments.models import Participant
from tournaments.services.disqualification import disqualification_record, disqualify, reinstate

from .conftest import full_protocol

pytestmark = pytest.mark.django_db

LONG = "The protest of seat 3 is upheld after the video was reviewed by the chief judge and both captains " * 5


def test_a_long_reopening_reason_is_kept(api: Any, round_: Any, people: Any) -> None:
    slug, pk = round_.stage.tournament.slug, table(round_, 1).pk
    judge, chief = api(people["judge"]), api(people["chief"])
    judge.get(reverse("api:protocol", args=[slug, pk]))
    assert judge.put(reverse("api:protocol", args=[slug, pk]), full_protocol(1), format="json").status_code == 200
    assert judge.post(reverse("api:submit", args=[slug, pk]), {"version": 2}, format="json").status_code == 200
    assert chief.post(reverse("api:confirm", args=[slug, pk]), {"version": 3}, format="json").status_code == 200
    response = chief.post(reverse("api:reopen", args=[slug, pk]), {"version": 4, "reason": LONG}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "submitted"
    last = Game.objects.get(table_id=pk).history.order_by("-history_id").first()
    assert last.history_change_reason == LONG.strip()


def test_long_disqualification_and_reinstatement_reasons_are_kept(round_: Any) -> None:
    participant = Participant.objects.filter(tournament=round_.stage.tournament).first()
    organizer = round_.stage.tournament.organizers.get()
    disqualify(participant, organizer, LONG)
    reinstate(participant, organizer, "Reinstated: " + LONG)
    assert [event.reason for event in disqualification_record(participant)] == [
        LONG.strip(), "Reinstated: " + LONG.strip()]
