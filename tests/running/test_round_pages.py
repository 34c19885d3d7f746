"""The organizer's round page: a round seated from the stage page, swapped, published and guarded against
seating again; absences reseat the draft with byes; actions refused to strangers; the page's query count."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tournaments.models import Round, RoundState, Seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(client: Any, organizer: Any, tournament: Any, add_participants: Any) -> Any:
    from tournaments.models import Stage

    add_participants(tournament, 70)
    stage = Stage.objects.create(tournament=tournament, ext_id="qualifying", kind="qualifying", order=1)
    client.force_login(organizer)
    response = client.post(reverse("running:stage", kwargs={"slug": tournament.slug, "stage": "qualifying"}),
                           {"method": "random", "rounds": "1"})
    assert response.status_code == 302
    return stage.rounds.get(number=1)


def round_url(round_: Round) -> str:
    return reverse("running:round", kwargs={"slug": round_.stage.tournament.slug,
                                                "stage": round_.stage.ext_id, "number": round_.number})


def test_generate_swap_publish_and_the_guard_against_regenerating(client: Any, seated: Round) -> None:
    assert seated.state == RoundState.DRAFT
    assert seated.tables.count() == 7 and seated.seats.count() == 70
    a, b = seated.seats.order_by("table__number", "number")[0], seated.seats.order_by("table__number", "number")[15]
    client.post(round_url(seated), {"action": "swap", "first": a.pk, "second": b.pk})
    assert Seat.objects.get(round=seated, table=a.table, number=a.number).participant_id == b.participant_id
    assert Seat.objects.get(round=seated, table=b.table, number=b.number).participant_id == a.participant_id
    client.post(round_url(seated), {"action": "publish"})
    seated.refresh_from_db()
    assert seated.state == RoundState.PUBLISHED
    before = sorted(seated.seats.values_list("participant_id", "table__number", "number"))
    response = client.post(round_url(seated), {"action": "regenerate"}, follow=True)
    assert "опубликован" in response.content.decode()
    assert sorted(seated.seats.values_list("participant_id", "table__number", "number")) == before
    client.post(round_url(seated), {"action": "unpublish"})
    client.post(round_url(seated), {"action": "regenerate"})
    seated.refresh_from_db()
    assert seated.state == RoundState.DRAFT and seated.seats.count() == 70


def test_absence_reseats_the_draft_with_byes(client: Any, seated: Round) -> None:
    player = seated.seats.first().participant
    client.post(round_url(seated), {"action": "absent", "participant": player.pk})
    assert seated.absences.filter(participant=player).exists()
    assert seated.seats.count() == 60 and seated.byes.count() == 9
    assert not seated.seats.filter(participant=player).exists()
    client.post(round_url(seated), {"action": "present", "participant": player.pk})
    assert seated.seats.count() == 70 and not seated.absences.exists()


def test_round_actions_are_refused_to_strangers(client: Any, seated: Round, stranger: Any) -> None:
    before = sorted(seated.seats.values_list("participant_id", "table__number", "number"))
    client.force_login(stranger)
    for action in ("publish", "regenerate"):
        assert client.post(round_url(seated), {"action": action}).status_code == 403
    assert client.get(round_url(seated)).status_code == 403
    client.logout()
    response = client.post(round_url(seated), {"action": "publish"})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    seated.refresh_from_db()
    assert seated.state == RoundState.DRAFT
    assert sorted(seated.seats.values_list("participant_id", "table__number", "number")) == before


def test_round_page_query_count(client: Any, seated: Round, django_assert_max_num_queries: Any) -> None:
    with django_assert_max_num_queries(20):  # two of them: the check-in that speaks for the round, its no-shows
        response = client.get(round_url(seated))
    assert response.status_code == 200
    assert response.content.decode().count('class="seat-no"') == 70
