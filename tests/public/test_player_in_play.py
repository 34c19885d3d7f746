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
