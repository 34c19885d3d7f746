"""The rating's pages, API and downloads (CONTRACT §5: ``GET /api/ratings/``), and ``rated``/``level`` in the
tournament file."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook

from exchange.files import export_text
from ratings.models import PlayerRating, RatingChange
from tournaments.models import Player

pytestmark = pytest.mark.django_db


def client(language: str = "en") -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE=language)


def test_api_lists_every_rated_player_highest_first(season: list[Any]) -> None:
    answer = client().get("/api/ratings/").json()
    assert len(answer) == PlayerRating.objects.count() > 0
    assert [row["rating"] for row in answer] == sorted((row["rating"] for row in answer), reverse=True)
    top = PlayerRating.objects.order_by("-rating").select_related("player").first()
    assert top is not None
    assert answer[0] == {"player": top.player_id, "name": top.player.full_name, "rating": round(top.rating, 1),
                         "games": top.games}


def test_api_for_one_tournament_adds_the_change(season: list[Any]) -> None:
    fiim = season[2]
    answer = client().get(f"/api/ratings/?tournament={fiim.slug}").json()
    assert len(answer) == fiim.participants.count()
    for row in answer[:5]:
        changes = RatingChange.objects.filter(tournament=fiim, player_id=row["player"])
        assert row["change"] == round(sum(c.after - c.before for c in changes), 1)
        assert row["participant"] == fiim.participants.get(player_id=row["player"]).ext_id
    assert client().get("/api/ratings/?tournament=no-such").status_code == 404
    assert client().get("/api/ratings/?since=yesterday").status_code == 400


def test_api_refuses_a_hidden_tournaments_players_to_the_public(season: list[Any]) -> None:
    zvezdy = season[3]
    zvezdy.standings_hidden = True
    zvezdy.save()
    assert client().get(f"/api/ratings/?tournament={zvezdy.slug}").status_code == 403
    refused = client("ru").get(f"/api/ratings/?tournament={zvezdy.slug}")  # said in English before
    assert refused.status_code == 403 and refused.json() == {"detail": "Таблица этого турнира скрыта."}


def test_the_rating_page_in_russian_with_filters(season: list[Any], django_assert_max_num_queries: Any) -> None:
    top = PlayerRating.objects.order_by("-rating").first()
    assert top is not None
    Player.objects.filter(pk=top.player_id).update(club="Северный ветер", city="Томск")
    with django_assert_max_num_queries(6):
        page = client("ru").get("/ratings/").content.decode()
    assert "Рейтинг" in page and f"/ratings/players/{top.player_id}/" in page
    filtered = client("ru").get("/ratings/?club=северный ветер").content.decode()
    assert filtered.count("/ratings/players/") == 1
    period = client("ru").get("/ratings/?since=2025-03-01&until=2025-03-31").content.decode()
    fiim_players = set(RatingChange.objects.filter(tournament=season[2]).values_list("player_id", flat=True))
    assert period.count("/ratings/players/") == min(len(fiim_players), 100)
    bad = client("ru").get("/ratings/?since=2025-13-01").content.decode()
    assert "не дата" in bad


def test_the_page_costs_the_same_whatever_the_number_of_players(
        season: list[Any], django_assert_num_queries: Any) -> None:
    client().get("/ratings/")  # the rows kept for this version
    with django_assert_num_queries(1):  # the version; the rows are kept
        client().get("/ratings/?page=2")


def test_a_players_page_draws_the_history(season: list[Any], django_assert_max_num_queries: Any) -> None:
    rated = PlayerRating.objects.order_by("-games").first()
    assert rated is not None
    with django_assert_max_num_queries(8):
        page = client("ru").get(f"/ratings/players/{rated.player_id}/").content.decode()
    assert "<svg" in page and "<polyline" in page
    points = page.split('<polyline points="')[1].split('"')[0].split()
    assert len(points) == rated.games + 1  # the start and each game
    svg = page.split("<svg")[1].split("</svg>")[0]
    assert not re.search(r'="\d+,\d', svg.replace('points="', "")), "coordinates localized with a decimal comma"
    assert "Победы по ролям" in page and "Турниры" in page
    assert client().get("/ratings/players/999999/").status_code == 404


def test_downloads_csv_and_xlsx(season: list[Any]) -> None:
    top = PlayerRating.objects.order_by("-rating").first()
    assert top is not None
    Player.objects.filter(pk=top.player_id).update(surname="=HYPERLINK(1)")
    text = client("ru").get("/ratings/export/rating.csv").content.decode("utf-8-sig")
    lines = text.strip().splitlines()
    assert lines[0].startswith("#;") and len(lines) == PlayerRating.objects.count() + 1
    assert "'=HYPERLINK(1)" in lines[1] and f"{top.rating:.1f}".replace(".", ",") in lines[1]
    book = load_workbook(io.BytesIO(client().get(f"/ratings/export/rating.xlsx?tournament={season[0].slug}").content))
    sheet = book.active
    assert [c.value for c in sheet[1]][-1] == "Change"
    assert sheet.max_row == season[0].participants.count() + 1


def test_rated_and_level_travel_in_the_file(import_file: Any) -> None:
    t = import_file("fiim-example.json", "rated-file", rated=False, level="championship")
    assert (t.rated, t.level) == (False, "championship")
    data = json.loads(export_text(t))
    assert data["tournament"]["rated"] is False and data["tournament"]["level"] == "championship"
    plain = json.loads(export_text(import_file("fiim-example.json", "plain-file")))
    assert "rated" not in plain["tournament"] and "level" not in plain["tournament"]


def test_a_wrong_level_is_refused_by_name(import_file: Any) -> None:
    from scoring.errors import InvalidTournament

    with pytest.raises(InvalidTournament) as refused:
        import_file("fiim-example.json", "bad-level", level="world", rated="yes")
    text = str(refused.value.problems)
    assert "tournament.level" in text and "tournament.rated" in text


def test_the_rules_page_recomputes_with_the_new_k(season: list[Any], make_user: Any, organizer: Any) -> None:
    from django.contrib.auth.models import Permission

    web = Client(HTTP_ACCEPT_LANGUAGE="ru")
    web.force_login(organizer)
    assert web.get("/ratings/rules/").status_code == 403  # an organizer is not the rating's administrator
    admin = make_user("rating-admin")
    admin.user_permissions.add(Permission.objects.get(codename="change_ratingrules"))
    web.force_login(admin)
    assert "K, клубный, красные" in web.get("/ratings/rules/").content.decode()
    fields = {"k_club_red": 10, "k_club_black": 10, "k_open_red": 20, "k_open_black": 20,
              "k_championship_red": 30, "k_championship_black": 30, "start": 1500}
    bad = web.post("/ratings/rules/", {**fields, "k_open_black": 400})
    assert bad.status_code == 400 and "K должен быть от 0 до 100." in bad.content.decode()
    before = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    assert web.post("/ratings/rules/", {**fields, "start": 1000}).status_code == 302
    after = {r.player_id: r.rating for r in PlayerRating.objects.all()}
    assert after.keys() == before.keys()
    assert all(abs(after[p] - before[p] + 500) < 1e-6 for p in before)  # Elo only moves by differences


def test_the_organizer_sets_rated_and_level(season: list[Any], organizer: Any,
                                            django_capture_on_commit_callbacks: Any) -> None:
    kostroma = season[1]
    web = Client(HTTP_ACCEPT_LANGUAGE="ru")
    web.force_login(organizer)
    page = web.get(f"/t/{kostroma.slug}/participants/").content.decode()
    assert "Рейтинговый" in page and "чемпионат" in page
    with django_capture_on_commit_callbacks(execute=True):
        answer = web.post(f"/t/{kostroma.slug}/participants/settings/", {"level": "open"})  # "rated" unticked
    assert answer.status_code == 302
    kostroma.refresh_from_db()
    assert not kostroma.rated and not RatingChange.objects.filter(tournament=kostroma).exists()


def test_a_hidden_tournaments_wins_stay_hidden_on_a_players_page(
        season: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    zvezdy = season[3]
    player = zvezdy.participants.first().player_id
    shown = client().get(f"/ratings/players/{player}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        zvezdy.standings_hidden = True
        zvezdy.save()
    hidden = client().get(f"/ratings/players/{player}/").content.decode()
    assert shown != hidden  # the rating changed version: the page was built again without its games
    from games.models import GameSeat
    played = GameSeat.objects.filter(seat__participant__player_id=player, game__state="confirmed").exclude(
        game__table__round__stage__tournament=zvezdy).count()
    assert sum(int(games) for games, _wins in re.findall(
        r'<tr><td>[^<]+</td><td class="text-end">(\d+)</td><td class="text-end">(\d+)</td>', hidden)) == played
