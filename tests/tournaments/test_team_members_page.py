"""Putting ticked participants in a team from the teams page, under the registration rules."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tournaments.models import Participant, ParticipantStatus, Team

pytestmark = pytest.mark.django_db


def url(tournament: Any) -> str:
    return reverse("tournaments:teams", kwargs={"slug": tournament.slug})


@pytest.fixture
def tomsk(client: Any, organizer: Any, make_tournament: Any, add_participants: Any) -> Any:
    t = make_tournament("tomsk")
    add_participants(t, 20)
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    return t


def team(tournament: Any, name: str = "Сибирь") -> Team:
    return Team.objects.create(tournament=tournament, ext_id=f"t-{name}", name=name)


def members(team_: Team) -> set[int]:
    return set(team_.members.values_list("pk", flat=True))


def test_ticked_participants_join_the_team_and_leave_it(client: Any, tomsk: Any) -> None:
    siberia = team(tomsk)
    ticked = list(tomsk.participants.order_by("number")[:3])
    html = client.get(url(tomsk)).content.decode()
    assert 'id="team-members-form"' in html and "at most 12 players" in html
    response = client.post(url(tomsk), {"action": "members", "team": siberia.pk,
                                        "participants": [p.pk for p in ticked]}, follow=True)
    assert "3 participants joined Сибирь." in response.content.decode()
    assert members(siberia) == {p.pk for p in ticked}
    client.post(url(tomsk), {"action": "members", "team": "", "participants": [ticked[0].pk]})
    assert members(siberia) == {p.pk for p in ticked[1:]}


def test_a_participant_moves_from_one_team_to_another(client: Any, tomsk: Any) -> None:
    a, b = team(tomsk, "А"), team(tomsk, "Б")
    p = tomsk.participants.first()
    Participant.objects.filter(pk=p.pk).update(team=a)
    client.post(url(tomsk), {"action": "members", "team": b.pk, "participants": [p.pk]})
    assert members(a) == set() and members(b) == {p.pk}


def test_a_team_of_tomsk_takes_at_most_12(client: Any, tomsk: Any) -> None:
    siberia = team(tomsk)
    everyone = list(tomsk.participants.order_by("number"))
    Participant.objects.filter(pk__in=[p.pk for p in everyone[:10]]).update(team=siberia)
    response = client.post(url(tomsk), {"action": "members", "team": siberia.pk,
                                        "participants": [p.pk for p in everyone[10:13]]})
    assert response.status_code == 400
    assert "at most 12 players; Сибирь would have 13" in response.content.decode()
    assert len(members(siberia)) == 10  # nothing saved
    client.post(url(tomsk), {"action": "members", "team": siberia.pk,
                             "participants": [p.pk for p in everyone[8:12]]})  # two already in: 12
    assert len(members(siberia)) == 12


@pytest.mark.parametrize("case", ["none_ticked", "other_tournament", "rejected", "other_team"])
def test_refusals_save_nothing(client: Any, tomsk: Any, make_tournament: Any, add_participants: Any,
                               case: str) -> None:
    siberia = team(tomsk)
    other = make_tournament("tomsk", slug="other")
    mine = tomsk.participants.first()
    data: dict[str, Any] = {"action": "members", "team": siberia.pk, "participants": [mine.pk]}
    expected = "Choose participants of this tournament."
    if case == "none_ticked":
        data["participants"] = []
        expected = "Tick at least one participant."
    elif case == "other_tournament":
        data["participants"] = [add_participants(other, 1, start=40)[0].pk]
    elif case == "rejected":
        Participant.objects.filter(pk=mine.pk).update(status=ParticipantStatus.REJECTED)
    else:
        data["team"] = team(other, "Чужие").pk
        expected = "Select a valid choice"
    response = client.post(url(tomsk), data)
    assert response.status_code == 400 and expected in response.content.decode()
    assert not Participant.objects.filter(team__isnull=False).exists()


def test_the_participant_form_keeps_the_team_size_too(client: Any, tomsk: Any) -> None:
    siberia = team(tomsk)
    everyone = list(tomsk.participants.order_by("number"))
    Participant.objects.filter(pk__in=[p.pk for p in everyone[:12]]).update(team=siberia)
    from tournaments.services.people import update_participant
    from tournaments.services.registration import RegistrationError

    extra = everyone[12]
    with pytest.raises(RegistrationError, match="the most this regulation allows"):
        update_participant(extra, {"surname": extra.player.surname}, team=siberia, guest=False)


def test_only_organizers_assign(client: Any, tomsk: Any, stranger: Any) -> None:
    siberia = team(tomsk)
    p = tomsk.participants.first()
    client.force_login(stranger)
    assert client.post(url(tomsk), {"action": "members", "team": siberia.pk, "participants": [p.pk]}).status_code == 403
    client.logout()
    assert client.post(url(tomsk), {"action": "members", "team": siberia.pk, "participants": [p.pk]}).status_code == 302
    assert members(siberia) == set()
