"""The organizer's pages through the test client: creating, registering, seating; permissions."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from tournaments.models import Participant, ParticipantStatus, Player, Round, RoundState, Seat, Tournament

pytestmark = pytest.mark.django_db


def test_create_page_proposes_the_preset(client: Any, organizer: Any) -> None:
    client.force_login(organizer)
    html = client.get(reverse("site:new_tournament") + "?ruleset=fiim").content.decode()
    assert "balanced, balanced, balanced, balanced, swiss_tens, swiss_tens, swiss_tens" in html
    assert "Дополнительные показатели: баллы → победы" in html  # the ruleset's summary, in Russian
    assert 'name="param-absence_points"' in html and 'value="-2"' in html
    client.cookies["django_language"] = "en"
    html = client.get(reverse("site:new_tournament") + "?ruleset=zvezdy").content.decode()
    assert "Bye (a table would be incomplete): +3" in html


def create_post(**extra: Any) -> dict[str, Any]:
    data = {
        "ruleset": "kostroma", "name": "Кубок Костромы", "slug": "kostroma-cup", "city": "Кострома",
        "venue": "ДК", "starts": "2025-05-01", "ends": "2025-05-02",
        "stage-TOTAL_FORMS": "2", "stage-INITIAL_FORMS": "0",
        "stage-0-ext_id": "qualifying", "stage-0-kind": "qualifying", "stage-0-rounds": "4",
        "stage-0-seating": "balanced", "stage-0-advance_kind": "top", "stage-0-advance_count": "10",
        "stage-0-multiplier": "1",
        "stage-1-ext_id": "final", "stage-1-kind": "final", "stage-1-rounds": "1", "stage-1-seating": "random",
        "stage-1-multiplier": "1.5",
    }
    from scoring.rulesets import get_ruleset

    for name, value in get_ruleset("kostroma").defaults.to_json().items():
        data[f"param-{name}"] = json.dumps(value)
    data.update(extra)
    return data


def test_create_keeps_only_changed_parameters_and_the_edited_format(client: Any, organizer: Any) -> None:
    client.force_login(organizer)
    response = client.post(reverse("site:new_tournament"), create_post(**{"param-removal_points": "-2"}))
    assert response.status_code == 302
    t = Tournament.objects.get(slug="kostroma-cup")
    assert t.params == {"removal_points": -2}
    assert t.is_organizer(organizer)
    stages = list(t.stages.order_by("order").values_list("ext_id", "planned_rounds", "advance_count", "multiplier"))
    assert [(s[0], s[1], s[2], float(s[3])) for s in stages] == [("qualifying", 4, 10, 1.0), ("final", 1, None, 1.5)]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("param-table_size", '"ten"', "expected a"),
        ("param-win_points", '{"blue": 2}', "unknown side"),
        ("stage-0-seating", "balanced, zigzag", "zigzag"),
        ("ends", "2025-04-01", "раньше, чем начался"),
    ],
)
def test_create_refuses_bad_input_naming_the_field(client: Any, organizer: Any, field: str, value: str,
                                                   message: str) -> None:
    client.force_login(organizer)
    response = client.post(reverse("site:new_tournament"), create_post(**{field: value}))
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Tournament.objects.exists()


def test_create_is_refused_to_anonymous_and_to_users_without_the_right(client: Any, stranger: Any) -> None:
    url = reverse("site:new_tournament")
    assert client.get(url).status_code == 302
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url, create_post()).status_code == 403
    assert not Tournament.objects.exists()


def player_post(**extra: Any) -> dict[str, Any]:
    data = {"surname": "Смирнова", "first_name": "Анна", "patronymic": "Петровна", "nickname": "Лиса",
            "city": "Кострома", "club": "Полночь", "birth_date": "2001-02-03", "phone": "+7 900 111-22-33"}
    data.update(extra)
    return data


def test_kostroma_applications_with_age_limits(client: Any, organizer: Any, make_tournament: Any) -> None:
    t = make_tournament("kostroma", starts=dt.date(2025, 5, 1), ends=dt.date(2025, 5, 1))
    client.force_login(organizer)
    url = reverse("tournaments:participants", kwargs={"slug": t.slug})
    response = client.post(url, player_post(birth_date="1990-01-01"))
    assert response.status_code == 400 and "до 30" in response.content.decode()
    response = client.post(url, player_post(birth_date=""))
    assert response.status_code == 400 and "дата рождения обязательна" in response.content.decode()
    assert not Player.objects.exists()
    assert client.post(url, player_post()).status_code == 302
    applicant = Participant.objects.get(tournament=t)
    assert applicant.status == ParticipantStatus.APPLIED
    client.post(reverse("tournaments:decide", kwargs={"slug": t.slug, "pk": applicant.pk, "decision": "accept"}))
    applicant.refresh_from_db()
    assert applicant.status == ParticipantStatus.ACCEPTED
    client.post(url, player_post(surname="Орлов", birth_date="2010-05-01"))  # 14 on the first day
    second = Participant.objects.get(tournament=t, player__surname="Орлов")
    client.post(reverse("tournaments:decide", kwargs={"slug": t.slug, "pk": second.pk, "decision": "reject"}))
    second.refresh_from_db()
    assert second.status == ParticipantStatus.REJECTED


def test_tomsk_registers_guests_beyond_the_cap(client: Any, organizer: Any, make_tournament: Any,
                                               add_participants: Any) -> None:
    t = make_tournament("tomsk")
    add_participants(t, 96)
    client.force_login(organizer)
    url = reverse("tournaments:participants", kwargs={"slug": t.slug})
    assert client.post(url, player_post(birth_date="1995-01-01")).status_code == 302
    late = Participant.objects.get(tournament=t, number=97)
    assert late.guest and late.status == ParticipantStatus.ACCEPTED
    response = client.post(url, player_post(surname="Юный", birth_date="2010-01-01"))
    assert response.status_code == 400 and "от 18" in response.content.decode()


CSV_BAD = """surname,first_name,birth_date,team
Иванов,Иван,1990-01-01,
,Пётр,1991-01-01,
Сидоров,Сидор,1990-13-45,
Козлов,Кирилл,1992-02-02,Нет такой
"""


def test_csv_preview_shows_each_bad_row_and_imports_nothing(client: Any, organizer: Any, tournament: Any) -> None:
    client.force_login(organizer)
    url = reverse("tournaments:import_players", kwargs={"slug": tournament.slug})
    response = client.post(url, {"text": CSV_BAD})
    html = response.content.decode()
    assert response.status_code == 400
    assert html.count('class="bad-row"') == 3
    assert "Нет такой" in html
    response = client.post(url, {"text": CSV_BAD, "confirm": "1"})
    assert response.status_code == 400
    assert not Player.objects.exists() and not Participant.objects.exists()


def test_csv_upload_preview_then_confirm_imports_all(client: Any, organizer: Any, tournament: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(organizer)
    text = "surname;first_name;nickname;birth_date\nИванов;Иван;Ваня;1990-01-01\nПетрова;Анна;;1995-05-05\n"
    url = reverse("tournaments:import_players", kwargs={"slug": tournament.slug})
    response = client.post(url, {"upload": SimpleUploadedFile("list.csv", text.encode())})
    assert response.status_code == 200 and 'name="confirm"' in response.content.decode()
    assert not Participant.objects.exists()
    assert client.post(url, {"text": text, "confirm": "1"}).status_code == 302
    assert list(tournament.participants.order_by("number").values_list("number", "player__surname")) == [
        (1, "Иванов"), (2, "Петрова")]


def test_teams_page_adds_a_team(client: Any, organizer: Any, make_tournament: Any) -> None:
    t = make_tournament("tomsk")
    client.force_login(organizer)
    url = reverse("tournaments:teams", kwargs={"slug": t.slug})
    assert client.post(url, {"name": "Полночь"}).status_code == 302
    assert client.post(url, {"name": "Полночь"}).status_code == 400
    assert list(t.teams.values_list("ext_id", "name")) == [("t1", "Полночь")]


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


@pytest.mark.parametrize("name", ["participants", "teams", "detail", "export"])
def test_organizer_pages_are_refused_to_strangers(client: Any, stranger: Any, tournament: Any, name: str) -> None:
    url = reverse(f"tournaments:{name}", kwargs={"slug": tournament.slug})
    assert client.get(url).status_code == 302
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    if name == "participants":
        assert client.post(url, player_post()).status_code == 403
        assert not Player.objects.exists()


@pytest.mark.parametrize("size", [20, 120])
def test_participants_page_query_count_does_not_grow(client: Any, organizer: Any, tournament: Any,
                                                     add_participants: Any, size: int,
                                                     django_assert_max_num_queries: Any) -> None:
    add_participants(tournament, size)
    client.force_login(organizer)
    with django_assert_max_num_queries(14):
        response = client.get(reverse("tournaments:participants", kwargs={"slug": tournament.slug}))
    assert response.status_code == 200 and "+7 900 000-0001" in response.content.decode()


def test_round_page_query_count(client: Any, seated: Round, django_assert_max_num_queries: Any) -> None:
    with django_assert_max_num_queries(18):
        response = client.get(round_url(seated))
    assert response.status_code == 200
    assert response.content.decode().count('class="seat-no"') == 70


def test_import_and_export_in_the_browser(client: Any, organizer: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    examples = Path(__file__).resolve().parents[3] / "shared" / "examples"
    if not examples.is_dir():
        examples = Path("/work/shared/examples")
    source = (examples / "zvezdy-example.json").read_bytes()
    client.force_login(organizer)
    bad = json.loads(source)
    bad["stages"][0]["rounds"][0]["games"][0]["seats"][0]["player"] = "nobody"
    response = client.post(reverse("site:import_tournament"),
                           {"file": SimpleUploadedFile("t.json", json.dumps(bad).encode())})
    assert response.status_code == 400 and "nobody" in response.content.decode()
    assert not Tournament.objects.exists()
    response = client.post(reverse("site:import_tournament"), {"file": SimpleUploadedFile("t.json", source)})
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert t.is_organizer(organizer)
    exported = client.get(reverse("exchange:export", kwargs={"slug": t.slug}))
    from scoring import fileio

    assert json.loads(exported.content) == fileio.dump(fileio.load(json.loads(source)))
