"""The series' pages: creating one (the points table's errors name the entry), the organizer's page (adding only
one's own tournaments, weights, removing), the public page in Russian, CSV and XLSX, who may see what."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook

from series.models import Series, SeriesTournament
from series.services import series_table
from tests.site.test_every_word import problems, texts_of

pytestmark = pytest.mark.django_db

FORM = {"action": "save", "name": "Кубок сезона", "slug": "season", "description": "", "public": "on",
        "points_text": "25, 18, 15, 12, 10, 8, 6, 4, 2, 1", "reference_players": "", "best_of": "",
        "tiebreak_1": "countback", "tiebreak_2": "played"}


def login(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def test_create_a_series(client: Client, organizer: Any) -> None:
    login(client, organizer)
    response = client.post("/s/new/", {**FORM, "best_of": "3", "reference_players": "20"})
    assert response.status_code == 302 and response["Location"] == "/s/season/edit/"
    series = Series.objects.get(slug="season")
    assert series.points == ["25", "18", "15", "12", "10", "8", "6", "4", "2", "1"]
    assert series.tiebreaks == ["countback", "played"] and series.best_of == 3 and series.reference_players == 20
    assert series.is_organizer(organizer)


@pytest.mark.parametrize(("points", "message"), [
    ("25, 18, пятнадцать, 12", "Place 3: “пятнадцать” is not a number of points from 0 to 9999"),
    ("25,18,15", "Place 1: “25,18,15” is not a number of points"),
    ("25, 18, 20", "Place 3: 20 is more than the place before (18)."),
    ("25 -3", "Place 2: “-3” is not a number of points"),
    ("", "This field is required."),
])
def test_a_bad_points_entry_is_named(client: Client, organizer: Any, points: str, message: str) -> None:
    login(client, organizer)
    response = client.post("/s/new/", {**FORM, "points_text": points}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Series.objects.exists()


def test_the_points_error_in_russian(client: Client, organizer: Any) -> None:
    login(client, organizer)
    client.cookies["django_language"] = "ru"
    response = client.post("/s/new/", {**FORM, "points_text": "25, 18, x"})
    assert response.status_code == 400
    assert "Место 3: «x» — не число баллов от 0 до 9999" in response.content.decode()


def test_a_tiebreak_twice_is_refused(client: Client, organizer: Any) -> None:
    login(client, organizer)
    response = client.post("/s/new/", {**FORM, "tiebreak_2": "countback"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "A tie-break is chosen twice." in response.content.decode()


def test_add_weight_and_remove_tournaments(client: Client, organizer: Any, pair: tuple[Any, Any],
                                          make_user: Any) -> None:
    series = Series.objects.create(name="S", slug="s1")
    series.organizers.add(organizer)
    login(client, organizer)
    for tournament in pair:
        assert client.post("/s/s1/edit/", {"action": "add", "tournament": tournament.pk}).status_code == 302
    entries = list(series.entries.order_by("order"))
    assert [e.tournament for e in entries] == list(pair) and [e.order for e in entries] == [1, 2]
    data = {"action": "entries", f"e{entries[0].pk}-weight": "1", f"e{entries[0].pk}-order": "2",
            f"e{entries[1].pk}-weight": "1,5", f"e{entries[1].pk}-order": "1"}
    assert client.post("/s/s1/edit/", data).status_code == 302
    assert [(str(e.weight), e.tournament) for e in series.entries.order_by("order")] == [
        ("1.50", pair[1]), ("1.00", pair[0])]
    bad = client.post("/s/s1/edit/", {**data, f"e{entries[1].pk}-weight": "-1"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400
    # another organizer's tournament is not offered, and refused when posted
    rival = make_user("rival", can_create=True)
    from tournaments.models import Tournament
    theirs = Tournament.objects.create(slug="theirs", name="Theirs", ruleset="fiim")
    theirs.organizers.add(rival)
    page = client.get("/s/s1/edit/").content.decode()
    assert "Theirs" not in page
    assert client.post("/s/s1/edit/", {"action": "add", "tournament": theirs.pk}).status_code == 400
    assert client.post("/s/s1/edit/", {"action": "remove", "entry": entries[0].pk}).status_code == 302
    assert [e.tournament for e in series.entries.all()] == [pair[1]]
    assert client.post("/s/s1/edit/", {"action": "remove", "entry": entries[0].pk}).status_code == 400


def test_organizers_of_other_series_are_refused(client: Client, league: Series, make_user: Any) -> None:
    other = Series.objects.create(name="Other", slug="other")
    rival = make_user("rival", can_create=True)
    other.organizers.add(rival)
    login(client, rival)
    assert client.get("/s/league/edit/").status_code == 403
    assert client.post("/s/league/edit/", {**FORM, "name": "Mine"}).status_code == 403
    assert client.post("/s/league/edit/", {"action": "remove", "entry": league.entries.first().pk}).status_code == 403
    assert Series.objects.get(slug="league").name == "Лига 2025" and league.entries.count() == 2
    assert client.get("/s/other/edit/").status_code == 200


def test_the_public_page_in_russian(client: Client, league: Series, pair: tuple[Any, Any]) -> None:
    SeriesTournament.objects.filter(series=league, tournament=pair[1]).update(weight="1.5")
    client.cookies["django_language"] = "ru"
    page = client.get("/s/league/").content.decode()
    table = series_table(league)
    first = table.rows[0]
    assert table.players[first.player].full_name in page
    assert "Баллы" in page and "коэффициент 1,5" in page
    points = str(first.points).replace(".", ",") if first.points.denominator == 1 else None
    if points:
        assert f"<td>{points}</td>" in page
    assert 'href="/s/league/series.csv"' in page
    for language in ("ru", "en"):  # every word in the reader's language, the numbers in their format
        client.cookies["django_language"] = language
        for url in ("/s/league/", "/s/league/series.csv", "/s/", "/s/league/edit/"):
            if url.endswith("edit/"):
                client.force_login(league.organizers.get())
            answer = client.get(url)
            assert answer.status_code == 200
            assert [p for text in texts_of(answer, language, url) for p in problems(text, language)] == []


def test_a_series_not_public(client: Client, league: Series, organizer: Any, stranger: Any) -> None:
    league.public = False
    league.save()
    for url in ("/s/league/", "/s/league/series.csv", "/s/league/series.xlsx"):
        assert client.get(url).status_code == 404
        assert login(Client(), stranger).get(url).status_code == 404
        assert login(Client(), organizer).get(url).status_code == 200
    assert "league" not in client.get("/s/").content.decode()
    assert "/s/league/" in login(Client(), organizer).get("/s/").content.decode()


def test_csv_and_xlsx(client: Client, league: Series, pair: tuple[Any, Any]) -> None:
    league.reference_players = 30  # 20 players placed: every points × 2/3, not whole
    league.save()
    table = series_table(league)
    client.cookies["django_language"] = "ru"
    text = client.get("/s/league/series.csv").content.decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0].startswith("Место;Игрок;Баллы;Турниры;Generated autumn;Generated winter")
    first = table.rows[0]
    cells = lines[1].split(";")
    assert cells[0] == "1" and cells[1] == table.players[first.player].full_name
    assert cells[2] == f"{float(first.points):.6f}".rstrip("0").rstrip(".").replace(".", ",")
    en = Client(HTTP_ACCEPT_LANGUAGE="en").get("/s/league/series.xlsx")
    assert en["Content-Disposition"] == 'attachment; filename="league-series.xlsx"'
    sheet = load_workbook(io.BytesIO(en.content)).active
    rows = list(sheet.iter_rows(values_only=True))
    assert rows[0][:4] == ("Place", "Player", "Points", "Tournaments")
    assert rows[1][0] == 1 and rows[1][2] == pytest.approx(float(first.points))
    assert len(rows) == len(table.rows) + 1


def test_a_name_that_looks_like_a_formula_stays_text(client: Client, league: Series) -> None:
    player = series_table(league).rows[0].player
    from tournaments.models import Player
    Player.objects.filter(pk=player).update(surname="=HYPERLINK(\"x\")", first_name="")
    text = Client(HTTP_ACCEPT_LANGUAGE="en").get("/s/league/series.csv").content.decode("utf-8-sig")
    assert "'=HYPERLINK" in text
    sheet = load_workbook(io.BytesIO(Client(HTTP_ACCEPT_LANGUAGE="en").get("/s/league/series.xlsx").content)).active
    assert sheet["B2"].data_type == "s" and sheet["B2"].value == "=HYPERLINK(\"x\")"
