"""While standings are hidden no page or API answer shows points, ranks or the players' order;
the organizer publishes them with a guarded service behind a button."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from public.services import VisibilityError, hide_standings, publish_standings
from tests.worlds import kept_fiim_fixtures

pytestmark = pytest.mark.django_db
# the fiim example, imported once for this module's tests (tests/worlds.py)
organizer, fiim = kept_fiim_fixtures()

SLUG = "fiim-open"
FIGURES = ['id="standings"', 'id="teams"', 'id="total-', 'id="winners"', "Points", "points"]


def page_urls() -> list[str]:
    return [
        reverse("public:list"),
        reverse("public:home", args=[SLUG]),
        reverse("public:rules", args=[SLUG]),
        reverse("public:where", args=[SLUG]) + "?q=1",
        reverse("public:seating", args=[SLUG]),
        reverse("public:round_seating", args=[SLUG, "final", 2]),
        reverse("public:standings", args=[SLUG]),
        *(reverse("public:stage_standings", args=[SLUG, s]) for s in ("qualifying", "semifinal", "final")),
        reverse("public:player", args=[SLUG, "p001"]),
        reverse("public:game", args=[SLUG, "final", 1, 1]),
    ]


API = ["/api/tournaments/", f"/api/tournaments/{SLUG}/", f"/api/tournaments/{SLUG}/stages/",
       f"/api/tournaments/{SLUG}/rounds/", f"/api/tournaments/{SLUG}/rounds/final/1/seating/",
       f"/api/tournaments/{SLUG}/games/"]


def visible_text(html: str) -> str:
    """The page without its rules page's parameter names (``removal_points`` is not a figure)."""
    return re.sub(r"<code[^>]*>.*?</code>", "", html)


@pytest.mark.parametrize("language", ["en", "ru"])
def test_no_page_shows_figures_while_hidden(client: Any, fiim: Any, language: str) -> None:
    client.cookies["django_language"] = language
    published = {url: client.get(url).content.decode() for url in page_urls()}
    assert any('id="standings"' in html for html in published.values())  # the markers are real
    assert 'id="total-qualifying"' in published[reverse("public:player", args=[SLUG, "p001"])]
    fiim.standings_hidden = True
    fiim.save()
    for url in page_urls():
        response = client.get(url)
        assert response.status_code == 200, url
        html = visible_text(response.content.decode())
        for marker in FIGURES[:4]:
            assert marker not in html, (url, marker)
        assert ">Points<" not in html and ">Баллы<" not in html, url  # no points column
        assert "Rank " not in html and "Место " not in html, url


def test_hidden_standings_list_players_alphabetically(client: Any, fiim: Any) -> None:
    fiim.standings_hidden = True
    fiim.save()
    html = client.get(reverse("public:stage_standings", args=[SLUG, "qualifying"])).content.decode()
    block = html[html.index('id="hidden-players"'):]
    names = re.findall(r'/players/p\d+/">([^<]+)</a>', block)
    assert len(names) > 60
    assert names == sorted(names, key=str.casefold)


def test_api_shows_no_figures_while_hidden(client: Any, fiim: Any) -> None:
    fiim.standings_hidden = True
    fiim.save()
    for url in API:
        response = client.get(url)
        assert response.status_code == 200, url
        assert '"points"' not in response.content.decode() and '"rank"' not in response.content.decode()
    assert client.get(f"/api/tournaments/{SLUG}/standings/").status_code == 403


def test_publish_and_hide_are_guarded(fiim: Any, organizer: Any, stranger: Any) -> None:
    fiim.standings_hidden = True
    fiim.save()
    with pytest.raises(PermissionDenied):
        publish_standings(fiim, stranger)
    publish_standings(fiim, organizer)
    fiim.refresh_from_db()
    assert not fiim.standings_hidden and fiim.results_version.standings_changed_by == organizer
    with pytest.raises(VisibilityError):
        publish_standings(fiim, organizer)
    hide_standings(fiim, organizer)
    fiim.refresh_from_db()
    assert fiim.standings_hidden


def test_the_button_on_the_organizer_page(client: Any, fiim: Any, organizer: Any, stranger: Any) -> None:
    fiim.standings_hidden = True
    fiim.save()
    url = reverse("public:standings_visibility", args=[SLUG])
    assert client.post(url, {"hidden": "0"}).status_code == 302  # to the login page
    client.force_login(stranger)
    assert client.post(url, {"hidden": "0"}).status_code == 403
    fiim.refresh_from_db()
    assert fiim.standings_hidden
    client.force_login(organizer)
    detail = client.get(reverse("tournaments:detail", args=[SLUG])).content.decode()
    assert 'id="standings-visibility"' in detail and url in detail
    assert client.post(url, {"hidden": "0"}).status_code == 302
    fiim.refresh_from_db()
    assert not fiim.standings_hidden
    client.logout()
    assert client.get(f"/api/tournaments/{SLUG}/standings/").status_code == 200


def marked_game(data: dict[str, Any]) -> tuple[str, int, int]:
    """A game of the file with a best move and a judge's extra points (the marks that carry points)."""
    for stage in data["stages"]:
        for round_ in stage["rounds"]:
            for game in round_["games"]:
                if game.get("best_move") and any(seat.get("extra") for seat in game["seats"]):
                    return stage["id"], round_["number"], game["table"]
    raise AssertionError("the example has no game with a best move and extra points")


@pytest.mark.parametrize("language", ["en", "ru"])
def test_game_page_hides_the_marks_that_carry_points(client: Any, fiim: Any, language: str) -> None:
    import json

    from tests.helpers import example_text

    stage, number, table = marked_game(json.loads(example_text("fiim-example.json")))
    url = reverse("public:game", args=[SLUG, stage, number, table])
    client.cookies["django_language"] = language
    published = client.get(url).content.decode()
    assert 'id="best-move"' in published and ("judge's mark" in published or "оценка судьи" in published)
    assert 'id="marks-hidden"' not in published
    fiim.standings_hidden = True
    fiim.save()
    html = client.get(url).content.decode()
    assert 'id="marks-hidden"' in html
    assert "Best move" not in html and "Лучший ход" not in html
    assert "judge's mark" not in html and "оценка судьи" not in html
    assert "named best" not in html and "назван лучшим" not in html
    assert 'id="protocol"' in html  # the protocol itself (roles, fouls, winner) stays public


def test_api_games_hide_the_marks_while_hidden(client: Any, fiim: Any) -> None:
    games = client.get(f"/api/tournaments/{SLUG}/games/").json()
    assert any(g["best_move"] for g in games)
    fiim.standings_hidden = True
    fiim.save()
    games = client.get(f"/api/tournaments/{SLUG}/games/").json()
    assert games and all(g["best_move"] is None for g in games)
    assert all(seat["best"] is None for g in games for seat in g["seats"])
