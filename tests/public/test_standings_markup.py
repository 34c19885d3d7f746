"""The standings fragment's markup for phones: each column that folds away on a phone (games, wins, the
tie-break chain) has its long name in its header's title, which the line a tap opens shows (static/js/find-me.js);
no value is written twice (no hidden copy of a row for phones: one cell a column, nothing else) and the rows carry
no class or whitespace of their own, so the fragment stays small; "find me" is on the page, outside the fragment,
its words translated, the nickname it searches on the name's link."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.utils import translation

from scoring.standings import compute_standings
from tournaments.labels import chain_columns, metric_label

pytestmark = pytest.mark.django_db


class Table(HTMLParser):
    """The #standings table: its headers (attributes, text) and its rows (attributes, cells' attributes and text)."""

    def __init__(self) -> None:
        super().__init__()
        self.inside = False
        self.heads: list[tuple[dict[str, str | None], str]] = []
        self.rows: list[tuple[dict[str, str | None], list[tuple[dict[str, str | None], str]]]] = []
        self.cell: list[str] | None = None
        self.cell_attrs: dict[str, str | None] = {}
        self.section = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and dict(attrs).get("id") == "standings":
            self.inside = True
        if not self.inside:
            return
        if tag in ("thead", "tbody"):
            self.section = tag
        elif tag == "tr" and self.section == "tbody":
            self.rows.append((dict(attrs), []))
        elif tag in ("td", "th"):
            self.cell, self.cell_attrs = [], dict(attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.inside = False
        if self.inside and tag in ("td", "th") and self.cell is not None:
            text = "".join(self.cell).strip()
            if tag == "th":
                self.heads.append((self.cell_attrs, text))
            else:
                self.rows[-1][1].append((self.cell_attrs, text))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def parsed(html: str) -> Table:
    table = Table()
    table.feed(html)
    return table


@pytest.mark.parametrize(("ruleset", "params"), [
    ("tomsk", {}), ("kostroma", {"rank_by": "average"}), ("fiim", {}), ("zvezdy", {}),
])
def test_folded_columns_have_their_long_names_and_no_value_is_written_twice(
        client: Any, import_file: Any, ruleset: str, params: dict[str, Any]) -> None:
    from scoring import fileio
    from scoring.generate import generate

    model = generate(ruleset, players=24 if ruleset == "tomsk" else 20, rounds=2, seed=5)
    data = fileio.dump(model)
    data["tournament"] = {"name": f"Markup {ruleset}", "standings_hidden": False}
    if params:
        data["params"] = params
    tournament = import_file(data, f"markup-{ruleset}")
    client.cookies["django_language"] = "ru"
    html = client.get(f"/p/{tournament.slug}/standings/", headers={"HX-Request": "true"}).content.decode()
    table = parsed(html)
    truth = compute_standings(fileio.load(data))
    average = params.get("rank_by") == "average"
    columns = chain_columns(truth.chain, truth.rank_by)
    # Rank, player, points stay on a phone (and the points per game, sixth, where they rank); every other column
    # folds away and its header's title is the long name the opened line shows, in Russian.
    with translation.override("ru"):
        folded = ["игры", "победы", *(str(metric_label(m)) for m in columns)]
        kept = [str(metric_label("points_average"))] if average else []
    titles = [attrs.get("title") for attrs, _text in table.heads[3:]]
    assert titles == folded[:2] + kept + folded[2:]
    assert all(not attrs.get("title") for attrs, _text in table.heads[:3])
    assert ("avg" in (re.search(r'<table class="([^"]*)" id="standings"', html) or ["", ""])[1].split()) == average
    # One cell a column, in the header's order, without a class; nothing else in the table (no phone copy).
    assert len(table.rows) == len(truth.rows)
    for (row_attrs, cells), row in zip(table.rows, truth.rows, strict=True):
        assert len(cells) == len(table.heads)
        assert all(not attrs for attrs, _text in cells)
        assert row_attrs.get("class") != ""
        assert cells[0][1] == str(row.rank) and cells[3][1] == str(row.tally.games)
        assert cells[4][1] == str(row.tally.wins)
    table_html = html[html.index('id="standings"'):html.index("</table>")]
    assert "standing-detail" not in table_html and "<dl" not in table_html and "hidden" not in table_html
    assert not re.search(r"</t[dh]>\s+<t[dh]", table_html)  # no whitespace between cells


def test_a_thousand_rows_stay_small(client: Any, generated: Any) -> None:
    """The fragment is about 190 bytes a row of fiim (a rank, a linked name, a number, ten figures): 440 before the
    phones' rework; the bench (bench/standings_size.py) measures the 1,000-player page."""
    tournament = generated("markup-size", players=200, rounds=2, standings_hidden=False)
    html = client.get(f"/p/{tournament.slug}/standings/", headers={"HX-Request": "true"}).content.decode()
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    per_row = len(body.encode()) / body.count("<tr")
    assert per_row < 230


def test_find_me_is_on_the_page_not_in_the_fragment(client: Any, import_file: Any) -> None:
    from scoring import fileio
    from scoring.generate import generate

    data = fileio.dump(generate("fiim", players=20, rounds=1, seed=5))
    data["players"][3]["nickname"] = "Ласточка"
    data["tournament"] = {"name": "Find me", "standings_hidden": False}
    tournament = import_file(data, "find-me")
    client.cookies["django_language"] = "ru"
    page = client.get(f"/p/{tournament.slug}/standings/").content.decode()
    fragment = client.get(f"/p/{tournament.slug}/standings/", headers={"HX-Request": "true"}).content.decode()
    assert 'id="find-me"' in page and 'id="find-me"' not in fragment
    assert re.search(r'<script src="/static/js/find-me\.js" defer></script>', page)
    form = page[page.index('<form class="mb-3" id="find-me"'):]
    form = form[:form.index("</form>")]
    assert "Найти себя" in form and 'data-none="Здесь нет игроков по запросу «%(query)s».' in form
    assert 'data-toggle="Показать остальные столбцы"' in form and 'data-place="место %(rank)s"' in form
    assert ' name="' not in form  # nothing is sent to the server
    player = data["players"][3]["id"]
    assert f'<a data-nick="Ласточка" href="/p/{tournament.slug}/players/{player}/">' in fragment
    # hidden standings: the alphabetical list carries the numbers and the nickname too
    tournament.standings_hidden = True
    tournament.save()
    hidden = client.get(f"/p/{tournament.slug}/standings/", headers={"HX-Request": "true"}).content.decode()
    assert 'id="hidden-players"' in hidden and 'data-nick="Ласточка"' in hidden
    assert len(re.findall(r'<li><span class="nr">\d+</span> <a', hidden)) == 20
