"""A player's page during a round in play (found by the page matrix): the table they sit at without a result yet
was missing, and in a final that carries the earlier stages' points (kostroma) the whole final, rank and points
included, was missing until its game ended. The seat shows as "not yet", with no link to a protocol."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.site.test_page_matrix import source_data, with_round_in_play

pytestmark = pytest.mark.django_db


def test_a_table_in_play_is_on_the_players_page(client: Any, import_file: Any) -> None:
    data, in_play = with_round_in_play(source_data("example", "kostroma"))
    data["tournament"]["standings_hidden"] = False
    import_file(json.loads(json.dumps(data)), "k-live")
    table = in_play[0]
    pid = table["seats"][0]["player"]
    html = client.get(f"/p/k-live/players/{pid}/").content.decode()
    assert f'id="total-{table["stage"]}"' in html
    block = html[html.index(f'id="total-{table["stage"]}"'):]
    assert "not yet" in block
    assert f'/p/k-live/games/{table["stage"]}/{table["round"]}/{table["table"]}/' not in html


def test_the_seat_in_play_comes_from_the_versions_model(client: Any, import_file: Any,
                                                        django_assert_num_queries: Any) -> None:
    """The table in play is read from the model of the version served (its ``tables_in_play``), like the rest of the
    page: a player's page read again within a version costs the tournament and its stages, nothing per player."""
    data, in_play = with_round_in_play(source_data("example", "fiim"))
    data["tournament"]["standings_hidden"] = False
    import_file(json.loads(json.dumps(data)), "f-live")
    table = in_play[-1]
    seat = table["seats"][-1]
    url = f"/p/f-live/players/{seat['player']}/"
    client.get(url)
    with django_assert_num_queries(2):
        html = client.get(url).content.decode()
    row = html[html.index(f'<td>{table["round"]}</td>', html.index(f'id="total-{table["stage"]}"')):]
    row = row[:row.index("</tr>")]
    assert f'<td>{table["table"]}</td><td>{seat["seat"]}</td>' in row and "not yet" in row


def test_the_stages_are_kept_with_the_versions_model(client: Any, generated: Any, django_assert_num_queries: Any,
                                                      django_capture_on_commit_callbacks: Any) -> None:
    """Once a tournament has a results version, its stages are read once per version with its model: a player's page
    read again costs the tournament's query alone, and a renamed stage (a new version) shows at once."""
    from public.versioning import bump

    tournament = generated("staged", players=20, rounds=2, stages=2, standings_hidden=False)
    with django_capture_on_commit_callbacks(execute=True):
        bump(tournament.pk)
    url = "/p/staged/players/p0001/"
    client.get(url)
    with django_assert_num_queries(1):
        client.get(url)
    stage = tournament.stages.order_by("order").first()
    with django_capture_on_commit_callbacks(execute=True):
        stage.name = "Отбор <новый>"
        stage.save()
    html = client.get(url).content.decode()
    assert "Отбор &lt;новый&gt;" in html and "<новый>" not in html


def test_pages_read_again_within_a_version_read_no_stage_rows(client: Any, generated: Any,
                                                              django_capture_on_commit_callbacks: Any) -> None:
    """The public pages that read the version's model take the stages kept with it once the process has the model;
    the first read of a version (nothing built yet) reads them as before."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from public.versioning import bump

    tournament = generated("kept-stages", players=20, rounds=2, stages=2, standings_hidden=False)
    with django_capture_on_commit_callbacks(execute=True):
        bump(tournament.pk)
    for url in ["/p/kept-stages/", "/p/kept-stages/standings/", "/p/kept-stages/standings/s2/",
                "/p/kept-stages/players/p0001/", "/p/kept-stages/games/s1/1/1/"]:
        client.get(url)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        assert not [q for q in queries.captured_queries if 'FROM "tournaments_stage"' in q["sql"]], url
