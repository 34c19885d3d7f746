"""A long standings table: past the first hundred rows the table goes on in a hidden part, never
splitting a tie; ``?all=1`` shows every row; a short table has no hidden part (public/views/standings.py)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from exchange.files import import_text
from public.views.standings import FIRST_ROWS, rest_from
from scoring import fileio
from scoring.generate import generate

pytestmark = pytest.mark.django_db


def rows(ranks: list[int | None]) -> list[dict[str, Any]]:
    return [{"rank": rank} for rank in ranks]


def test_the_hidden_part_begins_after_the_tie_at_the_hundredth_row() -> None:
    assert rest_from(rows(list(range(1, 151)))) == FIRST_ROWS
    tied = list(range(1, 98)) + [98] * 6 + list(range(104, 151))  # rows 98..103 share a place
    assert rest_from(rows(tied)) == 103
    assert rest_from(rows(list(range(1, 101)))) is None  # exactly a hundred: nothing hidden
    assert rest_from(rows([1] * 150)) is None  # one tie to the end
    assert rest_from(rows([1] * 1000)) == 150  # everyone first (no game yet): the tie is cut after 50 more
    assert rest_from(rows(list(range(1, 100)) + [None] * 10)) == FIRST_ROWS  # the disqualified: no place, no tie


def test_a_long_table_hides_its_rest_and_all_shows_it(organizer: Any) -> None:
    data = fileio.dump(generate("zvezdy", players=130, rounds=2, seed=5))
    data["tournament"] = {"standings_hidden": False}
    t = import_text(json.dumps(data), organizers=[organizer])
    html = Client().get(f"/p/{t.slug}/standings/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    first, rest = html.split('<tbody id="standings-rest" hidden>')
    assert first.count("<tr") - 1 >= FIRST_ROWS  # the header's row besides
    assert first.count("<tr") - 1 + rest.split("</tbody>")[0].count("<tr") == 130
    assert re.search(r'<a [^>]*id="standings-more" href="\?all=1">Show all 130 players</a>', html)
    whole = Client().get(f"/p/{t.slug}/standings/?all=1", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "standings-rest" not in whole and "standings-more" not in whole
    assert whole.split('id="standings"')[1].split("</table>")[0].count("<tr") == 131


def test_a_short_table_has_no_hidden_part(organizer: Any) -> None:
    data = fileio.dump(generate("fiim", players=70, rounds=2, seed=5))
    data["tournament"] = {"standings_hidden": False}
    t = import_text(json.dumps(data), organizers=[organizer])
    html = Client().get(f"/p/{t.slug}/standings/").content.decode()
    assert "standings-rest" not in html and "standings-more" not in html
