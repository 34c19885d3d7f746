"""Registering participants through the organizer's pages: kostroma's applications, tomsk's guests, the CSV
list's preview, the teams page; the pages refused to strangers; the participants page's query count."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.urls import reverse

from tournaments.models import Participant, ParticipantStatus, Player

pytestmark = pytest.mark.django_db


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
    client.post(url, player_post(surname="Орлов", nickname="Сова", birth_date="2010-05-01"))  # 14 on the first day
    second = Participant.objects.get(tournament=t, player__surname="Орлов")
    client.post(reverse("tournaments:decide", kwargs={"slug": t.slug, "pk": second.pk, "decision": "reject"}))
    second.refresh_from_db()
    assert second.status == ParticipantStatus.REJECTED


def test_a_rejection_by_mistake_is_undone(client: Any, organizer: Any, make_tournament: Any) -> None:
    """Reject sits beside Accept: a rejected application waits again at one tap, and is then accepted under the
    rules as any waiting one; only a rejected one can be reconsidered."""
    t = make_tournament("kostroma", starts=dt.date(2025, 5, 1), ends=dt.date(2025, 5, 1))
    client.force_login(organizer)
    participants = reverse("tournaments:participants", kwargs={"slug": t.slug})
    client.post(participants, player_post())
    applicant = Participant.objects.get(tournament=t)

    def decide(decision: str) -> str:
        url = reverse("tournaments:decide", kwargs={"slug": t.slug, "pk": applicant.pk, "decision": decision})
        return client.post(url, follow=True, HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert "Заявка отклонена" in decide("reject")
    page = client.get(participants, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Пересмотреть" in page and 'id="bulk-decisions"' not in page
    assert "снова ждёт вашего решения" in decide("reconsider")
    applicant.refresh_from_db()
    assert applicant.status == ParticipantStatus.APPLIED
    assert "Пересмотреть" not in client.get(participants, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Заявка принята" in decide("accept")
    assert "Пересмотреть можно только отклонённую заявку (Смирнова Анна Петровна)" in decide("reconsider")
    page = client.get(participants, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'id="bulk-decisions"' not in page  # nothing waits: no «accept the chosen»
    assert "✘" not in page  # a player who is no guest: a blank, not a mark that reads as an error
    applicant.refresh_from_db()
    assert applicant.status == ParticipantStatus.ACCEPTED


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
    assert html.count('class="bad-row"') == 2  # no surname, no such date; a team the list names is made
    assert "Нет такой" in html and "новая команда" in html
    response = client.post(url, {"text": CSV_BAD, "confirm": "1"})
    assert response.status_code == 400
    assert not Player.objects.exists() and not Participant.objects.exists() and not tournament.teams.exists()


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


@pytest.mark.parametrize("name", ["tournaments:participants", "tournaments:teams", "tournaments:detail",
                                  "exchange:export"])
def test_organizer_pages_are_refused_to_strangers(client: Any, stranger: Any, tournament: Any, name: str) -> None:
    url = reverse(name, kwargs={"slug": tournament.slug})
    assert client.get(url).status_code == 302
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    if name == "tournaments:participants":
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
