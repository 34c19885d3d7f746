"""Pairs kept apart: the page (add, remove, refusals), the seating keeping them apart, the figures,
and who may see or change them."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from tournaments.models import KeepApart, Participant, ParticipantStatus, Round, Stage

pytestmark = pytest.mark.django_db


def url(tournament: Any) -> str:
    return reverse("tournaments:keep_apart", kwargs={"slug": tournament.slug})


@pytest.fixture
def players(client: Any, organizer: Any, tournament: Any, add_participants: Any) -> list[Participant]:
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    return add_participants(tournament, 20)


def test_the_organizer_adds_and_removes_a_pair(client: Any, tournament: Any, players: list[Participant]) -> None:
    a, b = players[4], players[1]
    response = client.post(url(tournament), {"first": a.pk, "second": b.pk}, follow=True)
    assert response.status_code == 200 and "will not be seated at one table" in response.content.decode()
    pair = KeepApart.objects.get()
    assert (pair.first_id, pair.second_id) == (b.pk, a.pk)  # stored in one order
    html = client.get(url(tournament)).content.decode()
    assert a.player.full_name in html and b.player.full_name in html
    client.post(url(tournament), {"remove": pair.pk})
    assert not KeepApart.objects.exists()


@pytest.mark.parametrize("which", ["same", "reversed", "other_tournament", "rejected"])
def test_bad_pairs_are_refused_with_a_message_and_nothing_saved(client: Any, tournament: Any, make_tournament: Any,
                                                                add_participants: Any, players: list[Participant],
                                                                which: str) -> None:
    a, b = players[0], players[1]
    KeepApart.objects.create(tournament=tournament, first=a, second=b)
    expected = {
        "same": "cannot be kept apart from themselves",
        "reversed": "are kept apart already",
        "other_tournament": "Choose a participant of this tournament.",
        "rejected": "Choose a participant of this tournament.",  # a rejected application is not offered
    }[which]
    second = {"same": a, "reversed": a}.get(which)
    first = b if which == "reversed" else a
    if which == "other_tournament":
        second = add_participants(make_tournament("fiim", slug="other"), 1, start=50)[0]
    if which == "rejected":
        second = players[2]
        Participant.objects.filter(pk=second.pk).update(status=ParticipantStatus.REJECTED)
    response = client.post(url(tournament), {"first": first.pk, "second": second.pk})
    assert response.status_code == 400 and expected in response.content.decode()
    assert KeepApart.objects.count() == 1


def test_messages_are_translated(client: Any, tournament: Any, players: list[Participant]) -> None:
    client.cookies["django_language"] = "ru"
    response = client.post(url(tournament), {"first": players[0].pk, "second": players[0].pk})
    assert response.status_code == 400 and "с самим собой" in response.content.decode()


def test_a_balanced_seating_keeps_the_marked_pairs_apart(client: Any, tournament: Any,
                                                       players: list[Participant]) -> None:
    marked = [(players[0], players[1]), (players[2], players[3]), (players[4], players[5]), (players[6], players[7])]
    for a, b in marked:
        assert client.post(url(tournament), {"first": a.pk, "second": b.pk}).status_code == 302
    stage = Stage.objects.create(tournament=tournament, ext_id="q", kind="qualifying", order=1, planned_rounds=3)
    stage_url = reverse("running:stage", kwargs={"slug": tournament.slug, "stage": "q"})
    client.post(stage_url, {"method": "balanced", "rounds": "3"})
    rounds = list(stage.rounds.order_by("number"))
    assert len(rounds) == 3
    for round_ in rounds:  # 2 tables of 10: by chance the four pairs would all be apart in 3 rounds rarely
        table_of = dict(round_.seats.values_list("participant_id", "table__number"))
        assert len(table_of) == 20
        assert all(table_of[a.pk] != table_of[b.pk] for a, b in marked)
    html = client.get(reverse("running:round", kwargs={"slug": tournament.slug, "stage": "q",
                                                          "number": 3})).content.decode()
    assert 'id="fig-apart">0<' in html


def test_the_round_figures_count_marked_pairs_seated_together(client: Any, tournament: Any,
                                                             players: list[Participant]) -> None:
    stage = Stage.objects.create(tournament=tournament, ext_id="q", kind="qualifying", order=1, planned_rounds=3)
    client.post(reverse("running:stage", kwargs={"slug": tournament.slug, "stage": "q"}),
                {"method": "random", "rounds": "1"})
    round_ = Round.objects.get(stage=stage)
    tables = dict(round_.seats.values_list("participant_id", "table__number"))
    together = [p for p in players if p.pk != players[0].pk and tables[p.pk] == tables[players[0].pk]]
    client.post(url(tournament), {"first": players[0].pk, "second": together[0].pk})  # marked after the seating
    html = client.get(reverse("running:round", kwargs={"slug": tournament.slug, "stage": "q",
                                                          "number": 1})).content.decode()
    assert 'id="fig-apart">1<' in html


def test_only_organizers_see_or_change_the_pairs(client: Any, tournament: Any, add_participants: Any,
                                                 stranger: Any) -> None:
    a, b = add_participants(tournament, 2)
    assert client.get(url(tournament)).status_code == 302  # to the login page
    assert client.post(url(tournament), {"first": a.pk, "second": b.pk}).status_code == 302
    client.force_login(stranger)
    assert client.get(url(tournament)).status_code == 403
    assert client.post(url(tournament), {"first": a.pk, "second": b.pk}).status_code == 403
    pair = KeepApart.objects.create(tournament=tournament, first=a, second=b)
    assert client.post(url(tournament), {"remove": pair.pk}).status_code == 403
    assert KeepApart.objects.filter(pk=pair.pk).exists()


def test_a_pair_of_another_tournament_cannot_be_removed_here(client: Any, organizer: Any, tournament: Any,
                                                             make_tournament: Any, add_participants: Any) -> None:
    other = make_tournament("fiim", slug="other")
    a, b = add_participants(other, 2)
    pair = KeepApart.objects.create(tournament=other, first=a, second=b)
    client.force_login(organizer)
    client.post(url(tournament), {"remove": pair.pk})
    assert KeepApart.objects.filter(pk=pair.pk).exists()
