"""The participants' CSV list: a one-column list (``surname`` then names) imports, where
``csv.Sniffer`` could not tell its delimiter and the page answered 500; a cell past csv's field limit
(131,072 characters) is a row error naming the line and the column, not a 500; an upload past 2 MB is
refused before it is read."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.conftest import PASSWORD
from tournaments.forms.people import MAX_CSV_BYTES, CsvForm
from tournaments.models import Participant, Player

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates

LONG = "Я" * 131_073


@pytest.fixture
def client(organizer: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.login(username=organizer.username, password=PASSWORD)
    return client


def url(tournament: Any) -> str:
    return f"/t/{tournament.slug}/participants/import/"


def counts() -> tuple[int, int]:
    return Player.objects.count(), Participant.objects.count()


def test_a_one_column_list_imports(client: Client, tournament: Any) -> None:
    text = "surname\nИванов\nПетров\n"
    preview = client.post(url(tournament), {"text": text})
    assert preview.status_code == 200 and preview.context["ready"]
    assert [row.values["surname"] for row in preview.context["rows"]] == ["Иванов", "Петров"]
    done = client.post(url(tournament), {"text": text, "confirm": "1"})
    assert done.status_code == 302
    assert sorted(tournament.participants.values_list("player__surname", flat=True)) == ["Иванов", "Петров"]


def test_a_one_column_file_with_a_byte_order_mark_imports(client: Client, tournament: Any) -> None:
    upload = SimpleUploadedFile("list.csv", "\ufeffSurname\r\nИванов\r\n".encode())
    preview = client.post(url(tournament), {"upload": upload})
    assert preview.status_code == 200 and preview.context["ready"]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_the_delimiter_is_the_header_s(client: Client, tournament: Any, delimiter: str) -> None:
    text = delimiter.join(["surname", "first_name", "city"]) + "\n" + delimiter.join(["Иванов", "Иван", "Тверь"])
    preview = client.post(url(tournament), {"text": text})
    assert preview.status_code == 200 and preview.context["ready"]
    assert preview.context["rows"][0].values == {"surname": "Иванов", "first_name": "Иван", "city": "Тверь"}


def test_a_cell_past_the_csv_field_limit_is_a_row_error(client: Client, tournament: Any) -> None:
    text = f"surname;city\nИванов;Тверь\nПетров;{LONG}\nСидоров;Москва\n"
    before = counts()
    response = client.post(url(tournament), {"text": text})
    assert response.status_code == 400
    rows = response.context["rows"]
    assert [row.line for row in rows] == [2, 3, 4]
    assert [bool(row.errors) for row in rows] == [False, True, False]
    assert rows[1].errors == ["city: a cell of more than 131072 characters"]
    assert "Line" in response.content.decode() and "city: a cell of more than 131072" in response.content.decode()
    confirmed = client.post(url(tournament), {"text": text, "confirm": "1"})
    assert confirmed.status_code == 400
    assert counts() == before


def test_a_long_cell_in_a_one_column_list(client: Client, tournament: Any) -> None:
    response = client.post(url(tournament), {"text": f"surname\n{LONG}\nИванов\n"})
    assert response.status_code == 400
    assert response.context["rows"][0].errors == ["surname: a cell of more than 131072 characters"]


def test_a_long_header_is_a_form_error(client: Client, tournament: Any) -> None:
    response = client.post(url(tournament), {"text": f"surname,{LONG}\nИванов\n"})
    assert response.status_code == 400
    assert "Line 1: a cell of more than 131072 characters" in response.content.decode()


def test_a_long_cell_under_the_limit_is_a_field_error(client: Client, tournament: Any) -> None:
    response = client.post(url(tournament), {"text": f"surname\n{'Я' * 5000}\n"})
    assert response.status_code == 400 and response.context["rows"][0].errors


def test_an_upload_past_the_limit_is_refused_unread(tournament: Any) -> None:
    class Huge(SimpleUploadedFile):
        def read(self, *args: Any) -> bytes:
            raise AssertionError("read")

    huge = Huge("list.csv", b"surname\n")
    huge.size = MAX_CSV_BYTES + 1
    form = CsvForm({}, {"upload": huge}, tournament=tournament)
    assert not form.is_valid()
    assert "larger than 2 MB" in str(form.errors)


def test_the_browser_refuses_an_upload_past_the_limit(client: Client, tournament: Any) -> None:
    upload = SimpleUploadedFile("list.csv", b"surname\n" + b"x\n" * (MAX_CSV_BYTES // 2))
    response = client.post(url(tournament), {"upload": upload})
    assert response.status_code == 400
    assert "larger than 2 MB" in response.content.decode()
    assert counts() == (0, 0)


RUSSIAN_LIST = "Фамилия;Имя;Ник;Клуб;Город;Команда\nИванов;Иван;Ваня;Маф;Тверь;Полночь\nПетров;Пётр;;;;Полночь\n" \
    "Сидоров;Сидор;;;;Рассвет\n"


def test_a_russian_spreadsheet_in_windows_1251_with_semicolons_imports_and_makes_its_teams(
        client: Client, tournament: Any) -> None:
    """What Excel on a Russian Windows saves as CSV: Russian headers, `;`, Windows-1251; the teams it names are
    made with the import."""
    upload = SimpleUploadedFile("список.csv", RUSSIAN_LIST.replace("\n", "\r\n").encode("cp1251"))
    preview = client.post(url(tournament), {"upload": upload})
    assert preview.status_code == 200 and preview.context["ready"], preview.content.decode()[:2000]
    first = preview.context["rows"][0]
    assert first.values == {"surname": "Иванов", "first_name": "Иван", "nickname": "Ваня", "club": "Маф",
                            "city": "Тверь", "team": "Полночь"}
    assert first.new_team == "Полночь" and "new team" in preview.content.decode()
    done = client.post(url(tournament), {"text": preview.context["text"], "confirm": "1"})
    assert done.status_code == 302
    teams = {t.name: sorted(t.members.values_list("player__surname", flat=True)) for t in tournament.teams.all()}
    assert teams == {"Полночь": ["Иванов", "Петров"], "Рассвет": ["Сидоров"]}
    assert sorted(tournament.teams.values_list("ext_id", flat=True)) == ["t1", "t2"]


def test_a_file_in_neither_encoding_is_refused_and_nothing_is_saved(client: Client, tournament: Any) -> None:
    upload = SimpleUploadedFile("list.csv", b"surname\n\x98\xff\n")  # 0x98 is no Windows-1251 character
    response = client.post(url(tournament), {"upload": upload})
    assert response.status_code == 400 and "neither UTF-8 nor Windows-1251" in response.content.decode()
    assert counts() == (0, 0)


def test_a_list_that_would_overfill_a_tomsk_team_is_refused_at_its_rows(client: Client, make_tournament: Any) -> None:
    tomsk = make_tournament("tomsk", slug="tomsk-list")
    text = "фамилия;дата рождения;команда\n" + "".join(f"Игрок{n};1990-01-01;Полночь\n" for n in range(13))
    preview = client.post(url(tomsk), {"text": text})
    assert preview.status_code == 400
    bad = [row.line for row in preview.context["rows"] if row.errors]
    assert bad == [14] and "more than 12 players" in preview.content.decode()  # tomsk 4.5: teams of 12
    assert counts() == (0, 0) and not tomsk.teams.exists()


def test_the_service_itself_keeps_a_team_within_the_regulation(make_tournament: Any) -> None:
    """The preview marks the rows; the import refuses too, all or nothing (two lists checked side by side)."""
    from tournaments.services.people import add_players
    from tournaments.services.registration import RegistrationError

    tomsk = make_tournament("tomsk", slug="tomsk-service")
    rows = [({"surname": f"Игрок{n}", "birth_date": dt.date(1990, 1, 1)}, "Полночь") for n in range(13)]
    with pytest.raises(RegistrationError, match="more than 12"):
        add_players(tomsk, rows)
    assert counts() == (0, 0) and not tomsk.teams.exists()
    add_players(tomsk, rows[:12])
    assert tomsk.teams.get().members.count() == 12


@pytest.mark.parametrize(("rows", "said"), [(1, "1 игрока"), (22, "22 игрока"), (5, "5 игроков"), (11, "11 игроков")])
def test_the_import_button_counts_in_russian(organizer: Any, tournament: Any, rows: int, said: str) -> None:
    """«Импортировать 22 игроков» (found walking as an organizer): a count ending in 2–4 takes «игрока»."""
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.login(username=organizer.username, password=PASSWORD)
    text = "surname\n" + "\n".join(f"Иванов{chr(0x430 + n)}" for n in range(rows)) + "\n"
    page = client.post(url(tournament), {"text": text}).content.decode()
    assert f"Импортировать {said}</button>" in page
