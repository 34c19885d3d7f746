"""A played tournament can be deleted whole (a rehearsal, a duplicate import), while a participant who
played cannot be deleted alone (their games would lose a player): the seats, byes, absences and penalties
restrict the participant, and the tournament's deletion removes both."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import RestrictedError
from django.urls import reverse

from games.models import Game, GameSeat
from tests.helpers import import_played
from tournaments.models import Participant, Seat, Tournament

pytestmark = pytest.mark.django_db


def test_a_played_tournament_is_deleted_whole(organizer: Any) -> None:
    tournament = import_played(organizer, players=20, rounds=2)
    other = import_played(organizer, players=20, rounds=1)
    assert Game.objects.filter(table__round__stage__tournament=tournament).count() == 4
    tournament.delete()
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert not Seat.objects.filter(round__stage__tournament_id=tournament.pk).exists()
    assert GameSeat.objects.filter(game__table__round__stage__tournament=other).count() == 20  # the other stays


def test_a_participant_who_played_is_not_deleted_alone(organizer: Any) -> None:
    tournament = import_played(organizer, players=20, rounds=1)
    participant = Participant.objects.filter(tournament=tournament).first()
    with pytest.raises(RestrictedError):
        participant.delete()
    assert Seat.objects.filter(participant=participant).count() == 1


def test_the_admin_deletes_a_played_tournament(admin_client: Any, organizer: Any) -> None:
    tournament = import_played(organizer, players=20, rounds=2)
    url = reverse("admin:tournaments_tournament_delete", args=[tournament.pk])
    page = admin_client.get(url)
    assert page.status_code == 200 and "Cannot delete" not in page.content.decode()
    assert admin_client.post(url, {"post": "yes"}).status_code == 302
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
