"""Standings, closing a stage, penalties and correcting participants through the organizer's pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from running.services.stages import stage_standings
from tests.helpers import import_played
from tournaments.models import Participant, Penalty, Round, RoundState, Stage, Team

pytestmark = pytest.mark.django_db


def standings_url(stage: Stage) -> str:
    return reverse("running:standings", kwargs={"slug": stage.tournament.slug, "stage": stage.ext_id})


def round_url(round_: Round) -> str:
    return reverse("running:round", kwargs={"slug": round_.stage.tournament.slug,
                                                "stage": round_.stage.ext_id, "number": round_.number})


@pytest.fixture
def played(client: Any, organizer: Any) -> Any:
    client.force_login(organizer)
    return import_played(organizer, players=40, rounds=3)


def test_standings_show_ranks_points_chain_and_who_advances(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    html = client.get(standings_url(stage)).content.decode()
    assert html.count('class="standing-row') == 40
    advance = stage_standings(stage).advance
    assert len(advance) >= 30  # fiim: top 30 to the semifinal (ties at the cut go on too)
    assert html.count('class="badge text-bg-success advances"') == len(advance)
    assert "Раз назван лучшим" in html and "Победы доном" in html  # the tie-break chain, translated
    # 3 rounds of 7: the zone, not who goes on (that is fixed when the stage is closed)
    assert f"Пока этап идёт, в зоне прохода {len(advance)} игрок" in html
    assert html.count('advances">в зоне прохода</span>') == len(advance) and 'advances">проходит<' not in html


@pytest.mark.parametrize("size", [20, 60])
def test_standings_query_count_is_fixed(client: Any, organizer: Any, size: int) -> None:
    client.force_login(organizer)
    t = import_played(organizer, players=size, rounds=2)
    stage = t.stages.get(ext_id="qualifying")
    with CaptureQueriesContext(connection) as queries:
        assert client.get(standings_url(stage)).status_code == 200
    assert len(queries) == 22  # the same for 20 and 60 players (one of them: the draws of lots; the model: 12)


def test_closing_the_stage_fills_the_next_one(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    response = client.post(standings_url(stage), {"action": "close", "short": "1"}, follow=True)
    assert "Этап закрыт" in response.content.decode()
    closed_page = client.get(standings_url(stage)).content.decode()
    assert 'advances">проходит</span>' in closed_page and "в зоне прохода" not in closed_page
    stage.refresh_from_db()
    semifinal = played.stages.get(ext_id="semifinal")
    advance = list(stage_standings(stage).advance)
    assert stage.closed and semifinal.players_listed
    assert list(semifinal.entries.order_by("position").values_list("participant__ext_id", flat=True)) == advance
    stage_url = reverse("running:stage", kwargs={"slug": played.slug, "stage": "qualifying"})
    assert client.post(stage_url, {"method": "random", "rounds": "1"}).status_code == 400
    assert stage.rounds.count() == 3
    response = client.post(standings_url(stage), {"action": "close"}, follow=True)
    assert "уже закрыт" in response.content.decode()
    semi_url = reverse("running:stage", kwargs={"slug": played.slug, "stage": "semifinal"})
    client.post(semi_url, {"method": "swiss_tens", "rounds": "1"})
    assert semifinal.rounds.get().seats.count() == 30  # three tables of 10, the rest on a bye


def test_closing_is_refused_while_a_round_is_a_draft_or_unplayed(client: Any, played: Any, organizer: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    from running.services.planning import generate_next_round

    draft = generate_next_round(stage, method="random")
    response = client.post(standings_url(stage), {"action": "close"}, follow=True)
    assert "черновик" in response.content.decode()
    client.post(round_url(draft), {"action": "publish"})
    response = client.post(standings_url(stage), {"action": "close"}, follow=True)
    assert "без результата" in response.content.decode()
    stage.refresh_from_db()
    assert not stage.closed and not played.stages.get(ext_id="semifinal").entries.exists()


def test_an_unknown_standings_action_changes_nothing_and_says_so(client: Any, played: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    response = client.post(standings_url(stage), {"action": "close-everything"}, follow=True)
    assert "Неизвестное действие" in response.content.decode() or "Unknown action." in response.content.decode()
    stage.refresh_from_db()
    assert not stage.closed


def test_standings_and_closing_are_refused_to_strangers(client: Any, played: Any, stranger: Any) -> None:
    stage = played.stages.get(ext_id="qualifying")
    client.logout()
    assert client.get(standings_url(stage)).status_code == 302
    assert client.post(standings_url(stage), {"action": "close"}).status_code == 302
    client.force_login(stranger)
    assert client.get(standings_url(stage)).status_code == 403
    assert client.post(standings_url(stage), {"action": "close"}).status_code == 403
    stage.refresh_from_db()
    assert not stage.closed


@pytest.mark.parametrize("typed", ["-0.5", "−0,5"])  # a Russian keyboard's minus and comma
def test_a_penalty_on_the_round_page_counts_in_the_standings(client: Any, played: Any, typed: str) -> None:
    stage = played.stages.get(ext_id="qualifying")
    round_ = stage.rounds.get(number=1)
    player = Participant.objects.get(tournament=played, ext_id="p001")
    before = client.get(standings_url(stage)).content.decode()
    response = client.post(round_url(round_), {"action": "penalty", "participant": player.pk, "points": typed,
                                               "reason": "Опоздание"})
    assert response.status_code == 302
    penalty = Penalty.objects.get()
    assert (penalty.participant_id, float(penalty.points), penalty.reason) == (player.pk, -0.5, "Опоздание")
    assert "Опоздание" in client.get(round_url(round_)).content.decode()
    assert client.get(standings_url(stage)).content.decode() != before
    client.post(round_url(round_), {"action": "penalty", "remove": penalty.pk})
    assert not Penalty.objects.exists()


@pytest.mark.parametrize(("data", "message"), [
    ({"points": "0", "reason": "x"}, "ноль баллов"),
    ({"points": "abc", "reason": "x"}, "Введите число"),
    ({"points": "-1", "reason": ""}, "Обязательное поле"),
    ({"points": "-1", "reason": "x", "participant": "999999"}, "Выберите корректный вариант"),
])
def test_bad_penalties_save_nothing(client: Any, played: Any, data: dict[str, str], message: str) -> None:
    round_ = played.stages.get(ext_id="qualifying").rounds.get(number=1)
    post = {"action": "penalty", "participant": Participant.objects.get(tournament=played, ext_id="p001").pk}
    post.update(data)
    response = client.post(round_url(round_), post)
    assert response.status_code == 400 and message in response.content.decode()
    assert not Penalty.objects.exists()


def test_penalties_are_refused_to_strangers(client: Any, played: Any, stranger: Any) -> None:
    round_ = played.stages.get(ext_id="qualifying").rounds.get(number=1)
    client.force_login(stranger)
    player = Participant.objects.get(tournament=played, ext_id="p001")
    response = client.post(round_url(round_), {"action": "penalty", "participant": player.pk, "points": "-1",
                                               "reason": "x"})
    assert response.status_code == 403 and not Penalty.objects.exists()


def edit_url(participant: Participant) -> str:
    return reverse("tournaments:participant_edit", kwargs={"slug": participant.tournament.slug,
                                                           "pk": participant.pk})


def edit_post(**extra: Any) -> dict[str, Any]:
    data = {"surname": "Орлова", "first_name": "Анна", "patronymic": "", "nickname": "Сова", "city": "Томск",
            "club": "", "birth_date": "1995-01-01", "phone": ""}
    data.update(extra)
    return data


def test_edit_a_participant_and_assign_a_team_after_registration(client: Any, organizer: Any,
                                                                 make_tournament: Any, add_participants: Any) -> None:
    t = make_tournament("tomsk")
    participant = add_participants(t, 1)[0]
    team = Team.objects.create(tournament=t, ext_id="t1", name="Полночь")
    client.force_login(organizer)
    assert client.get(edit_url(participant)).status_code == 200
    assert client.post(edit_url(participant), edit_post(team=team.pk)).status_code == 302
    participant.refresh_from_db()
    assert participant.team == team and participant.player.surname == "Орлова"
    response = client.post(edit_url(participant), edit_post(surname="Юная", birth_date="2012-01-01"))
    assert response.status_code == 400 and "от 18" in response.content.decode()
    participant.refresh_from_db()
    assert participant.player.surname == "Орлова"


def test_remove_a_participant_only_before_they_play(client: Any, played: Any, organizer: Any,
                                                    add_participants: Any) -> None:
    late = add_participants(played, 1, start=41)[0]
    seated = Participant.objects.get(tournament=played, ext_id="p001")
    for p in (late, seated):
        client.post(reverse("tournaments:participant_remove", kwargs={"slug": played.slug, "pk": p.pk}))
    assert not Participant.objects.filter(pk=late.pk).exists()
    assert Participant.objects.filter(pk=seated.pk).exists()


def test_participant_pages_are_refused_to_strangers(client: Any, stranger: Any, tournament: Any,
                                                    add_participants: Any) -> None:
    participant = add_participants(tournament, 1)[0]
    remove = reverse("tournaments:participant_remove", kwargs={"slug": tournament.slug, "pk": participant.pk})
    assert client.get(edit_url(participant)).status_code == 302
    client.force_login(stranger)
    assert client.get(edit_url(participant)).status_code == 403
    assert client.post(edit_url(participant), edit_post()).status_code == 403
    assert client.post(remove).status_code == 403
    participant.refresh_from_db()
    assert participant.player.surname != "Орлова"


def test_draft_rounds_stay_out_of_the_standings(played: Any) -> None:
    assert not Round.objects.filter(stage__tournament=played).exclude(state=RoundState.PUBLISHED).exists()


# Found by the browser journeys, the permission walk or the bad-input tests.
def test_the_wins_tie_break_is_not_a_second_wins_column(client: Any, organizer: Any) -> None:
    """fiim's chain starts with wins, so both standings tables showed the wins twice (the public one under
    two identical headers, "П" and "П")."""
    tournament = import_played(organizer, players=20, rounds=2)
    assert tournament.ruleset == "fiim"
    client.cookies["django_language"] = "en"
    public = client.get(reverse("public:stage_standings", args=[tournament.slug, "qualifying"])).content.decode()
    head = public[public.index("<thead>"):public.index("</thead>")]
    assert head.count('title="wins"') == 1 and 'title="times named best"' in head
    client.force_login(organizer)
    page = client.get(reverse("running:standings", args=[tournament.slug, "qualifying"])).content.decode()
    head = page[page.index("<thead>"):page.index("</thead>")]
    assert head.count(">Wins<") == 1 and "Times named best" in head


def test_the_last_stage_says_nothing_about_players_advancing(client: Any, played: Any) -> None:
    """A final has no next stage: no "0 players advance", and closing it fixes the final standings."""
    html = client.get(standings_url(played.stages.get(ext_id="final"))).content.decode()
    assert 'id="advance-count"' not in html and "Проходят 0" not in html
    assert "Фиксирует итоговую таблицу" in html and "в следующий этап" not in html
    html = client.get(standings_url(played.stages.get(ext_id="qualifying"))).content.decode()
    assert 'id="advance-count"' in html and "Фиксирует, кто проходит в следующий этап" in html
