"""A round's scheduled start: set on the round page by its organizers, shown in the public program
(published rounds with a link, rounds not yet published without their seating)."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.helpers import import_played
from tournaments.models import Round, RoundState

pytestmark = pytest.mark.django_db


def start_url(round_: Round) -> str:
    return reverse("running:round_start", kwargs={"slug": round_.stage.tournament.slug,
                                                      "stage": round_.stage.ext_id, "number": round_.number})


@pytest.fixture
def played(organizer: Any) -> Any:
    return import_played(organizer, players=20, rounds=3)


def a_round(tournament: Any, number: int) -> Round:
    return Round.objects.select_related("stage__tournament").get(stage__tournament=tournament, number=number)


def test_the_organizer_sets_and_clears_a_start_shown_publicly(client: Any, organizer: Any, played: Any,
                                                              django_capture_on_commit_callbacks: Any) -> None:
    round_ = a_round(played, 2)
    client.force_login(organizer)
    page = client.get(reverse("running:round", kwargs={"slug": played.slug, "stage": round_.stage.ext_id,
                                                           "number": 2})).content.decode()
    assert 'id="round-start-form"' in page and start_url(round_) in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(start_url(round_), {"starts_at": "2026-05-01T14:30"})
    assert response.status_code == 302
    saved = a_round(played, 2).starts_at
    assert timezone.localtime(saved).replace(tzinfo=None) == dt.datetime(2026, 5, 1, 14, 30)
    client.cookies["django_language"] = "en"
    home = client.get(reverse("public:home", args=[played.slug])).content.decode()
    assert "1 May 14:30" in home
    with django_capture_on_commit_callbacks(execute=True):
        client.post(start_url(round_), {"starts_at": ""})
    assert a_round(played, 2).starts_at is None
    assert "1 May 14:30" not in client.get(reverse("public:home", args=[played.slug])).content.decode()


def test_a_draft_round_shows_its_time_but_not_its_seating(client: Any, organizer: Any, played: Any) -> None:
    round_ = a_round(played, 3)
    Round.objects.filter(pk=round_.pk).update(state=RoundState.DRAFT)
    client.force_login(organizer)
    client.post(start_url(round_), {"starts_at": "2026-05-02T10:00"})
    client.logout()
    client.cookies["django_language"] = "ru"
    home = client.get(reverse("public:home", args=[played.slug])).content.decode()
    assert "2 мая 10:00" in home and "scheduled-round" in home
    assert reverse("public:round_seating", args=[played.slug, round_.stage.ext_id, 3]) not in home


def test_bad_input_saves_nothing_with_a_translated_message(client: Any, organizer: Any, played: Any) -> None:
    round_ = a_round(played, 1)
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    response = client.post(start_url(round_), {"starts_at": "tomorrow-ish"}, follow=True)
    assert "Enter a date and time" in response.content.decode()
    assert a_round(played, 1).starts_at is None


def test_only_organizers_may_set_it(client: Any, stranger: Any, played: Any) -> None:
    round_ = a_round(played, 1)
    assert client.post(start_url(round_), {"starts_at": "2026-05-01T14:30"}).status_code == 302  # to login
    client.force_login(stranger)
    assert client.post(start_url(round_), {"starts_at": "2026-05-01T14:30"}).status_code == 403
    assert client.get(start_url(round_)).status_code in (403, 405)
    assert a_round(played, 1).starts_at is None


def test_the_service_refuses_a_stranger(stranger: Any, played: Any) -> None:
    from django.core.exceptions import PermissionDenied

    from tournaments.services.schedule import set_round_start

    with pytest.raises(PermissionDenied):
        set_round_start(a_round(played, 1), timezone.now(), stranger)
