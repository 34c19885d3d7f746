"""Closing a stage with fewer rounds than planned needs a confirmation; re-opening a closed stage
(organizers only, refused once the next stage has rounds)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from running.services.stages import close_stage
from tests.helpers import import_played
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


def standings_url(stage: Stage) -> str:
    return reverse("running:standings", kwargs={"slug": stage.tournament.slug, "stage": stage.ext_id})


@pytest.fixture
def played(client: Any, organizer: Any) -> Any:
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    return import_played(organizer, players=40, rounds=3)


def test_closing_after_fewer_rounds_than_planned_asks_for_a_confirmation(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    stage.planned_rounds = 5
    stage.save()
    html = client.get(standings_url(stage)).content.decode()
    assert 'id="short-stage"' in html and "Only 3 rounds of the 5 planned were played." in html
    response = client.post(standings_url(stage), {"action": "close"}, follow=True)
    assert "Confirm that the stage ends early" in response.content.decode()
    stage.refresh_from_db()
    assert not stage.closed and not played.stages.get(ext_id="semifinal").players_listed
    client.post(standings_url(stage), {"action": "close", "short": "1"})
    stage.refresh_from_db()
    assert stage.closed and played.stages.get(ext_id="semifinal").players_listed


def test_all_planned_rounds_played_closes_without_a_confirmation(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    stage.planned_rounds = 3
    stage.save()
    assert 'id="short-stage"' not in client.get(standings_url(stage)).content.decode()
    client.post(standings_url(stage), {"action": "close"})
    stage.refresh_from_db()
    assert stage.closed


def test_reopening_unfixes_the_next_stage_and_allows_seating(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    close_stage(stage, short_confirmed=True)
    html = client.get(standings_url(stage)).content.decode()
    assert 'id="reopen-stage"' in html and 'id="close-stage"' not in html
    response = client.post(standings_url(stage), {"action": "reopen"}, follow=True)
    assert "open again" in response.content.decode()
    stage.refresh_from_db()
    semifinal = played.stages.get(ext_id="semifinal")
    assert not stage.closed and not semifinal.players_listed and not semifinal.entries.exists()
    stage_url = reverse("running:stage", kwargs={"slug": played.slug, "stage": "qualifying"})
    assert client.post(stage_url, {"method": "random", "rounds": "1"}).status_code == 302
    assert stage.rounds.count() == 4


def test_reopening_is_refused_once_the_next_stage_has_rounds(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    close_stage(stage, short_confirmed=True)
    semi_url = reverse("running:stage", kwargs={"slug": played.slug, "stage": "semifinal"})
    client.post(semi_url, {"method": "random", "rounds": "1"})
    semifinal = played.stages.get(ext_id="semifinal")
    assert semifinal.rounds.count() == 1
    response = client.post(standings_url(stage), {"action": "reopen"}, follow=True)
    assert "has rounds already; this stage cannot be re-opened" in response.content.decode()
    stage.refresh_from_db()
    assert stage.closed and semifinal.entries.exists()


def test_an_open_stage_is_not_reopened(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    response = client.post(standings_url(stage), {"action": "reopen"}, follow=True)
    assert "The stage is open." in response.content.decode()


def test_only_organizers_reopen(client: Any, played: Any, stranger: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    close_stage(stage, short_confirmed=True)
    client.logout()
    assert client.post(standings_url(stage), {"action": "reopen"}).status_code == 302
    client.force_login(stranger)
    assert client.post(standings_url(stage), {"action": "reopen"}).status_code == 403
    stage.refresh_from_db()
    assert stage.closed
