"""Disqualification: an organizer, a reason, once; out of later seatings; marked in the standings;
reversed by an organizer with a reason, both kept in the participant's record."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from running.services.planning import seating_tournament
from tests.helpers import import_played
from tournaments.models import Participant, RoundState, Stage
from tournaments.services.disqualification import (
    DisqualificationError,
    disqualification_record,
    disqualify,
    reinstate,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def dq_url(participant: Participant) -> str:
    return reverse("tournaments:participant_disqualify",
                   kwargs={"slug": participant.tournament.slug, "pk": participant.pk})


def first_participant(round_: Any) -> Participant:
    return round_.stage.tournament.participants.select_related("player", "tournament").order_by("number").first()


def test_the_service_needs_an_organizer_and_a_reason_and_refuses_twice(
    round_: Any, make_user: Callable[..., User]
) -> None:
    participant = first_participant(round_)
    organizer = round_.stage.tournament.organizers.get()
    with pytest.raises(DisqualificationError):
        disqualify(participant, organizer, "   ")
    with pytest.raises(DisqualificationError):
        disqualify(participant, make_user("stranger"), "Cheating")
    participant.refresh_from_db()
    assert participant.disqualified_at is None
    done = disqualify(participant, organizer, " Cheating ")
    assert done.disqualified_at is not None and done.disqualified_by == organizer
    assert done.disqualification_reason == "Cheating"
    with pytest.raises(DisqualificationError):
        disqualify(participant, organizer, "Again")
    participant.refresh_from_db()
    assert participant.disqualification_reason == "Cheating"


def test_the_form_is_post_only_and_for_organizers(round_: Any, make_user: Callable[..., User]) -> None:
    participant = first_participant(round_)
    organizer = round_.stage.tournament.organizers.get()
    anonymous = Client()
    assert anonymous.post(dq_url(participant), {"reason": "x"}).status_code == 302  # to the login page
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.post(dq_url(participant), {"reason": "x"}).status_code == 403
    participant.refresh_from_db()
    assert participant.disqualified_at is None

    client = Client()
    client.force_login(organizer)
    edit = reverse("tournaments:participant_edit", kwargs={"slug": participant.tournament.slug,
                                                           "pk": participant.pk})
    assert 'id="disqualify-form"' in client.get(edit).content.decode()
    assert client.get(dq_url(participant)).status_code == 405
    client.post(dq_url(participant), {"reason": ""})
    participant.refresh_from_db()
    assert participant.disqualified_at is None
    response = client.post(dq_url(participant), {"reason": "Rude to the judge"}, follow=True)
    participant.refresh_from_db()
    assert participant.disqualified_at is not None and participant.disqualified_by == organizer
    html = response.content.decode()
    assert 'id="disqualified"' in html and "Rude to the judge" in html and 'id="disqualify-form"' not in html


def test_the_next_seating_leaves_the_player_out_and_played_rounds_keep_their_games(
        client: Any, organizer: Any, tournament: Any, add_participants: Any) -> None:
    add_participants(tournament, 70)
    client.force_login(organizer)
    stage = Stage.objects.create(tournament=tournament, ext_id="qualifying", kind="qualifying", order=1,
                                 planned_rounds=7)
    stage_url = reverse("running:stage", kwargs={"slug": tournament.slug, "stage": stage.ext_id})
    client.post(stage_url, {"method": "random", "rounds": "1"})
    first = stage.rounds.get(number=1)
    assert first.seats.count() == 70
    client.post(reverse("running:round", kwargs={"slug": tournament.slug, "stage": stage.ext_id,
                                                     "number": 1}), {"action": "publish"})
    first.refresh_from_db()
    assert first.state == RoundState.PUBLISHED
    out = list(Participant.objects.filter(seats__table__round=first, seats__table__number=1))
    assert len(out) == 10
    for participant in out:
        disqualify(participant, organizer, "No-show after a warning")
    model = seating_tournament(stage)
    players = next(s for s in model.stages if s.id == stage.ext_id).players
    assert len(players) == 60 and not {p.ext_id for p in out} & set(players)

    client.post(stage_url, {"method": "random", "rounds": "1"})
    second = stage.rounds.get(number=2)
    seated = set(second.seats.values_list("participant_id", flat=True))
    assert len(seated) == 60 and not seated & {p.pk for p in out}
    assert first.seats.count() == 70  # the played round keeps its games


def test_the_mark_appears_in_both_standings(organizer: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament = import_played(organizer, players=40, rounds=2)
    stage = tournament.stages.get(ext_id="qualifying")
    participant = tournament.participants.select_related("player", "tournament").order_by("number").first()
    kwargs = {"slug": tournament.slug, "stage": stage.ext_id}
    client = Client()
    client.force_login(organizer)
    assert "badge text-bg-danger disqualified" not in client.get(
        reverse("running:standings", kwargs=kwargs)).content.decode()
    assert "badge text-bg-danger disqualified" not in Client().get(
        reverse("public:stage_standings", kwargs=kwargs)).content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the commit bumps the public results version
        disqualify(participant, organizer, "Cheating")
    organizer_html = client.get(reverse("running:standings", kwargs=kwargs)).content.decode()
    assert organizer_html.count("badge text-bg-danger disqualified") == 1
    public = Client().get(reverse("public:stage_standings", kwargs=kwargs))
    assert public.status_code == 200
    public_html = public.content.decode()
    assert public_html.count("badge text-bg-danger disqualified") == 1
    assert participant.player.full_name in public_html
    # The player's own page: "disqualified: reason" in a badge that wraps (a long reason ran off a phone's screen).
    player_html = Client().get(reverse("public:player", kwargs={"slug": tournament.slug,
                                                                  "player": participant.ext_id})).content.decode()
    assert 'class="badge text-bg-danger disqualified text-wrap text-start">' in player_html
    # The organizer's list of participants marks them too (their status stays "accepted").
    participants_url = reverse("tournaments:participants", kwargs={"slug": tournament.slug})
    participants_html = client.get(participants_url).content.decode()
    assert participants_html.count("participant-disqualified") == 1 and 'title="Cheating"' in participants_html


def reinstate_url(participant: Participant) -> str:
    return reverse("tournaments:participant_reinstate",
                   kwargs={"slug": participant.tournament.slug, "pk": participant.pk})


def test_reinstating_needs_an_organizer_a_reason_and_a_disqualification(
    round_: Any, make_user: Callable[..., User]
) -> None:
    participant = first_participant(round_)
    organizer = round_.stage.tournament.organizers.get()
    with translation.override("en"), pytest.raises(DisqualificationError, match="not disqualified"):
        reinstate(participant, organizer, "Mistake")
    disqualify(participant, organizer, "Cheating")
    with pytest.raises(DisqualificationError):
        reinstate(participant, organizer, "  ")
    with pytest.raises(DisqualificationError):
        reinstate(participant, make_user("stranger"), "Mistake")
    participant.refresh_from_db()
    assert participant.disqualified_at is not None and participant.disqualification_reason == "Cheating"
    done = reinstate(participant, organizer, " The wrong player was named ")
    assert done.disqualified_at is None and done.disqualified_by is None and done.disqualification_reason == ""
    disqualify(participant, organizer, "Cheating, confirmed by the video")
    record = disqualification_record(participant)
    assert [(e.disqualified, e.reason, e.by) for e in record] == [
        (True, "Cheating", organizer), (False, "The wrong player was named", organizer),
        (True, "Cheating, confirmed by the video", organizer)]


def test_the_reinstate_form_is_for_organizers_and_shows_the_record(round_: Any, make_user: Callable[..., User]) -> None:
    participant = first_participant(round_)
    organizer = round_.stage.tournament.organizers.get()
    disqualify(participant, organizer, "Rude to the judge")
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.post(reinstate_url(participant), {"reason": "x"}).status_code == 403
    assert Client().post(reinstate_url(participant), {"reason": "x"}).status_code == 302  # to the login page
    participant.refresh_from_db()
    assert participant.disqualified_at is not None

    client = Client()
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    edit = reverse("tournaments:participant_edit", kwargs={"slug": participant.tournament.slug,
                                                           "pk": participant.pk})
    html = client.get(edit).content.decode()
    assert 'id="reinstate-form"' in html and 'id="disqualify-form"' not in html
    html = client.post(reinstate_url(participant), {"reason": ""}, follow=True).content.decode()
    assert "Give the reason for reinstating the player." in html
    participant.refresh_from_db()
    assert participant.disqualified_at is not None
    html = client.post(reinstate_url(participant), {"reason": "Apologised; the chief judge agrees"},
                       follow=True).content.decode()
    participant.refresh_from_db()
    assert participant.disqualified_at is None
    assert 'id="disqualify-form"' in html and 'id="reinstate-form"' not in html
    record = html[html.index('id="disqualification-record"'):]
    assert "Rude to the judge" in record and "Apologised; the chief judge agrees" in record
    assert record.index("Rude to the judge") < record.index("Apologised")


def test_a_reinstated_player_is_seated_again_and_loses_the_mark(organizer: Any,
                                                                 django_capture_on_commit_callbacks: Any) -> None:
    tournament = import_played(organizer, players=40, rounds=2)
    stage = tournament.stages.get(ext_id="qualifying")
    participant = tournament.participants.select_related("player", "tournament").order_by("number").first()
    kwargs = {"slug": tournament.slug, "stage": stage.ext_id}
    with django_capture_on_commit_callbacks(execute=True):
        disqualify(participant, organizer, "Cheating")
    assert participant.ext_id not in next(s for s in seating_tournament(stage).stages if s.id == stage.ext_id).players
    assert "badge text-bg-danger disqualified" in Client().get(
        reverse("public:stage_standings", kwargs=kwargs)).content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the commit bumps the public results version
        reinstate(participant, organizer, "Mistaken identity")
    assert participant.ext_id in next(s for s in seating_tournament(stage).stages if s.id == stage.ext_id).players
    assert "badge text-bg-danger disqualified" not in Client().get(
        reverse("public:stage_standings", kwargs=kwargs)).content.decode()


def test_a_disqualification_from_an_imported_file_is_in_the_record(organizer: Any) -> None:
    import json

    from exchange.files import import_text
    from tests.helpers import played_file

    data = played_file(20, 1)
    player = data["players"][0]["id"]
    data.setdefault("tournament", {})["disqualifications"] = [
        {"player": player, "reason": "Cheating", "at": "2025-03-15T12:00:00+03:00"}]
    tournament = import_text(json.dumps(data), organizers=[organizer])
    participant = tournament.participants.get(ext_id=player)
    record = disqualification_record(participant)
    assert [(e.disqualified, e.reason) for e in record] == [(True, "Cheating")]
    reinstate(participant, organizer, "Wrong player")
    participant.refresh_from_db()
    assert [(e.disqualified, e.reason) for e in disqualification_record(participant)] == [(False, "Wrong player")]
