"""The public pages' content: seating, "Where do I sit?", standings, a player, a game, the rules."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.worlds import kept_fiim_fixtures
from tournaments.models import Participant, Round, RoundState

pytestmark = pytest.mark.django_db
# the fiim example, imported once for this module's tests (tests/worlds.py)
organizer, fiim = kept_fiim_fixtures()
SLUG = "fiim-open"


def test_seating_by_table_and_alphabetical(client: Any, fiim: Any) -> None:
    html = client.get(f"/p/{SLUG}/seating/final/1/").content.decode()
    by_table = html[html.index('id="by-table"'):html.index('id="alphabetical"')]
    assert by_table.count('class="seat-no"') == 10
    alphabetical = html[html.index('<h3 class="h6 mt-4" id="alphabetical"'):]
    names = re.findall(r"<tr><td>([^<]+?)(?: <span|</td>)", alphabetical)
    assert len(names) == 10 and names == sorted(names, key=lambda n: n.casefold().replace("ё", "е"))


def test_only_published_rounds_are_public(client: Any, fiim: Any) -> None:
    Round.objects.filter(stage__ext_id="final", number=4).update(state=RoundState.DRAFT)
    assert client.get(f"/p/{SLUG}/seating/final/4/").status_code == 404
    assert client.get(f"/p/{SLUG}/games/final/4/1/").status_code == 404
    assert f"/p/{SLUG}/seating/final/4/" not in client.get(f"/p/{SLUG}/").content.decode()


def test_where_do_i_sit_by_name_nickname_and_number(client: Any, fiim: Any) -> None:
    final_seat = Participant.objects.filter(tournament=fiim, seats__round__stage__ext_id="final").first()
    assert final_seat is not None
    surname = final_seat.player.surname
    html = client.get(f"/p/{SLUG}/where/", {"q": surname.upper()[:5]}).content.decode()
    assert surname in html and "table 1, seat" in html.replace("Table", "table")
    by_number = client.get(f"/p/{SLUG}/where/", {"q": str(final_seat.number)}).content.decode()
    assert 'id="places"' in by_number and final_seat.player.surname in by_number
    nobody = client.get(f"/p/{SLUG}/where/", {"q": "zzzz"}).content.decode()
    assert 'id="nobody"' in nobody


def test_standings_columns_line_and_explanation(client: Any, fiim: Any) -> None:
    html = client.get(f"/p/{SLUG}/standings/qualifying/").content.decode()
    head = html[html.index('id="standings"'):html.index("</thead>")]
    for column in ("Points", "times named best", "wins as don", "times killed in the first night"):
        assert column in head
    assert html.count("qualification-line") == 1 and html.count("table-success") >= 30
    assert "How ties are broken here" in html and "then by lots" in html
    final = client.get(f"/p/{SLUG}/standings/final/").content.decode()
    assert 'id="winners"' in final


def test_russian_pages(client: Any, fiim: Any) -> None:
    client.cookies["django_language"] = "ru"
    html = client.get(f"/p/{SLUG}/standings/qualifying/").content.decode()
    assert "Как здесь разрешается равенство" in html and ">Баллы<" in html
    assert "Где я сижу?" in client.get(f"/p/{SLUG}/").content.decode()


def test_player_page_breaks_points_down(client: Any, fiim: Any, tmp_path: Any) -> None:
    api = client.get(f"/api/tournaments/{SLUG}/standings/?stage=qualifying").json()["standings"]
    best = api[0]
    html = client.get(f"/p/{SLUG}/players/{best['player']}/").content.decode()
    total = html[html.index('id="total-qualifying"'):]
    points = str(best["points"]).rstrip("0").rstrip(".") if "." in str(best["points"]) else str(best["points"])
    assert f"Rank 1 · points: {points} · games: 7 · wins: " in total  # "1 wins" read wrong: the counts as labels
    assert "win +2" in html
    assert html.count("/games/qualifying/") >= 7


def test_game_page_shows_the_protocol(client: Any, fiim: Any) -> None:
    html = client.get(f"/p/{SLUG}/games/final/1/1/").content.decode()
    protocol = html[html.index('id="protocol"'):]
    assert protocol.count("<tr") == 11  # the header and 10 seats
    assert 'id="winner"' in html and "Fouls" in html


def test_rules_page_lists_parameters_and_the_summary_in_the_readers_language(client: Any, fiim: Any) -> None:
    """One summary of the regulation (``tournaments.summaries``), translated: no English docstring, no ids."""
    client.cookies["django_language"] = "en"
    html = client.get(f"/p/{SLUG}/rules/").content.decode()
    assert "Points for a win" in html and 'id="param-absence_points"' in html and "70 players at 7 tables" in html
    assert "<code" not in html.split("<main", 1)[-1]  # the parameters by their labels, not their ids
    client.cookies["django_language"] = "ru"
    html = client.get(f"/p/{SLUG}/rules/").content.decode()
    assert "70 игроков за 7 столами" in html and "Tables of 10" not in html
    assert not re.search(r"\b(balanced|qualifying|mafia|maniac|swiss_tens)\b", html.split("<main", 1)[-1])


def test_a_draft_protocol_is_not_public(client: Any, fiim: Any) -> None:
    from games.models import Game, GameState

    Game.objects.filter(table__round__stage__ext_id="final", table__round__number=2).update(state=GameState.DRAFT)
    assert client.get(f"/p/{SLUG}/games/final/2/1/").status_code == 404
    assert client.get(f"/p/{SLUG}/games/final/1/1/").status_code == 200
    assert client.get(f"/api/tournaments/{SLUG}/games/?stage=final&round=2").json() == []
    seating = client.get(f"/p/{SLUG}/seating/final/2/").content.decode()
    assert f"/p/{SLUG}/games/final/2/1/" not in seating and 'id="by-table"' in seating
