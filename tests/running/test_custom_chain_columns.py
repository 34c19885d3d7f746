"""An organizer's own tie-break chain (``tiebreaks``) with the rated options' metrics, ``rank_by:
"average"``, ``min_games`` and Ci, under each of the four rulesets: the organizer's standings, the public standings,
the results print, the XLSX, the results and stage CSVs and the API show a column per chain metric with its
translated head, each player's value as ``scoring`` computes it (a Russian decimal comma on the pages, numbers in
the XLSX), the order of the standings, the points per game where they rank, and the players short of
``min_games`` marked after the others; while the standings are hidden the public page shows no figure.

The truth is ``scoring.standings.compute_standings`` of the imported file itself."""

from __future__ import annotations

import copy
import csv
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from openpyxl import load_workbook

from scoring import fileio
from scoring.numbers import format_number
from scoring.standings import StandingRow, Standings, compute_standings
from tests.conftest import new_user
from tests.helpers import example_text
from tests.site.page_matrix_world import tables_of, visible_text
from tests.worlds import fresh, kept_world, quiet_saves
from tournaments.fields import exact_text
from tournaments.labels import METRIC_SHORT, SHOWN_APART, metric_label, short_of_games_note

pytestmark = pytest.mark.django_db

LANGUAGES = ("ru", "en")

# Each ruleset's example with a chain of the new metrics; together they list every one of them, previous_stage_rank
# in every ruleset (its later stages have a previous stage; the first has no place: blank), Ci at 0.4 in three.
CASES: dict[str, tuple[str, dict[str, Any]]] = {
    "tomsk": ("tomsk-example.json", {
        "tiebreaks": ["extra_total", "ci", "losses", "previous_stage_rank", "penalties", "removals"],
        "ci_rate": 0.4}),
    "kostroma": ("kostroma-example.json", {
        "tiebreaks": ["games", "points_average", "red_wins", "black_wins", "wins", "previous_stage_rank"],
        "rank_by": "average", "min_games": 4}),
    "fiim": ("fiim-params-example.json", {
        "tiebreaks": ["extra_total", "ci", "losses", "previous_stage_rank", "penalties", "removals",
                      "points_average", "games", "red_wins", "black_wins"],
        "rank_by": "average", "min_games": 7, "ci_rate": 0.4}),
    "zvezdy": ("zvezdy-example.json", {
        "tiebreaks": ["black_wins", "red_wins", "removals", "penalties", "previous_stage_rank", "ci", "head_to_head"],
        "ci_rate": 0.4, "ci_share": 0.5}),
}

NEW_METRICS = {"extra_total", "losses", "games", "points_average", "ci", "red_wins", "black_wins", "removals",
               "penalties", "previous_stage_rank"}


def test_the_cases_use_every_new_metric() -> None:
    used = {metric for _file, params in CASES.values() for metric in params["tiebreaks"]}
    assert used >= NEW_METRICS
    assert any(params.get("rank_by") == "average" and params.get("min_games") for _f, params in CASES.values())
    assert any(params.get("ci_rate") == 0.4 for _f, params in CASES.values())


@dataclass
class World:
    slug: str
    truth: Any
    standings: dict[str, Standings]
    organizer: Client
    anonymous: Client

    def stages(self) -> Iterator[Standings]:
        for stage in self.truth.stages:
            if self.standings[stage.id].rows:
                yield self.standings[stage.id]


def build_world(case: str) -> World:
    from exchange.files import import_text

    name, params = CASES[case]
    data = json.loads(example_text(name))
    data["params"] = {**data.get("params", {}), **copy.deepcopy(params)}
    text = json.dumps(data)
    truth = fileio.loads(text)
    standings = {stage.id: compute_standings(truth, stage.id) for stage in truth.stages}
    for stage_standings in standings.values():
        assert stage_standings.chain == tuple(params["tiebreaks"])
    organizer = new_user(f"chain-{case}", can_create=True)
    with quiet_saves(history=True, versioning=False, ratings=True, overlay=True):
        tournament = import_text(text, slug=f"chain-{case}", organizers=[organizer])
    if tournament.standings_hidden:  # zvezdy hides them by default: published here
        tournament.standings_hidden = False
        tournament.save()
    staff = Client()
    staff.force_login(organizer)
    return World(str(tournament.slug), truth, standings, staff, Client())


@pytest.fixture(scope="module", params=list(CASES))
def kept(request: Any, django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """Each ruleset's tournament, imported once for all the tests of this module (they only read it)."""
    with kept_world(django_db_blocker) as build:
        yield build(lambda: build_world(request.param))


@pytest.fixture
def world(kept: World, settings: Any) -> World:
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"chain-columns-{kept.slug}"}}
    cache.clear()
    return fresh(kept)


# --- the expected cells -------------------------------------------------------------------------------------


def on_page(value: Fraction | int | None, lang: str, blank: str = "") -> str:
    """A number as the pages print it: ``2,25`` and ``−0,5`` in Russian, ``2.25`` in English, a fraction with no
    finite decimal exactly (``29/14``, not ``2,071429``)."""
    if value is None:
        return blank
    text = exact_text(Fraction(value)).replace("-", "−")
    return text.replace(".", ",") if lang == "ru" else text


def in_csv(value: Fraction | int | None) -> str:
    """Exact decimal text with a point (``csv_table`` reads a Russian file's decimal comma as one)."""
    return "" if value is None else format_number(Fraction(value))


def csv_table(content: bytes, lang: str) -> list[list[str]]:
    """A CSV's table: ";" and a decimal comma in Russian, "," and a point in English; the header first; the lines
    below the table (the awards, the title) left out; numbers with a point."""
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=";" if lang == "ru" else ","))
    rows = rows[:next((i for i, r in enumerate(rows) if not r), len(rows))]
    if lang == "ru":
        rows = [[re.sub(r"^(-?\d+),(\d+)$", r"\1.\2", cell) for cell in row] for row in rows]
    return rows


def in_json(value: Fraction | int | None) -> Any:
    if value is None:
        return None
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(value)


def in_xlsx(value: Fraction | int | None) -> Any:
    """A number in a sheet: whole numbers as they are, others to a spreadsheet's 15 significant digits (openpyxl
    writes 16)."""
    number = in_json(value)
    return pytest.approx(number, rel=1e-14) if isinstance(number, float) else number


def shown(standings: Standings) -> list[str]:
    """The metrics each table shows: the chain, and the points per game where they rank."""
    out = list(standings.chain)
    if standings.rank_by == "average" and "points_average" not in out:
        out.append("points_average")
    return out


def value_of(row: StandingRow, metric: str) -> Fraction | int | None:
    if metric == "points_average" and metric not in row.tiebreaks:
        return row.tally.average
    return row.tiebreaks[metric]


def short(standings: Standings, row: StandingRow) -> bool:
    return row.tally.games < standings.min_games


def heads(lang: str, kind: str) -> dict[str, str]:
    """Each metric's column head on a page (``kind``: "public", the short one; "staff" and "file", the name)."""
    with translation.override(lang):
        standard = {"public": {"points": "Points", "games": "G", "wins": "W"},
                    "staff": {"points": "Points", "games": "Games", "wins": "Wins"},
                    "file": {"points": "Points", "games": "Games", "wins": "Wins"}}[kind]
        out = {m: translation.gettext(label) for m, label in standard.items()}
        for metric in METRIC_SHORT:
            if metric in out:
                continue
            if kind == "public":
                out[metric] = str(METRIC_SHORT[metric])
            else:  # the organizer's pages and the documents head a column as a heading, capitalised
                label = metric_label(metric)
                out[metric] = label[:1].upper() + label[1:]
        return out


def columns(header: list[str], standings: Standings, lang: str, kind: str) -> dict[str, int]:
    """Where each shown metric's column is; each head is there once (no metric shown twice)."""
    names = heads(lang, kind)
    found = {}
    for metric in shown(standings):
        assert header.count(names[metric]) == 1, (metric, names[metric], header)
        found[metric] = header.index(names[metric])
    return found


def expect_order(standings: Standings, names: list[str]) -> None:
    """The names in the standings' order (a page's name cell may go on with a badge)."""
    assert len(names) == len(standings.rows)
    for name, row in zip(names, standings.rows, strict=True):
        assert name.strip().startswith(row.name), (name, row.name)
    if standings.min_games:
        flags = [short(standings, row) for row in standings.rows if row.disqualified is None]
        assert flags == sorted(flags), "the players short of min_games come after the others"


def expect_cells(standings: Standings, rows: list[list[Any]], at: dict[str, int], expect: Any) -> None:
    assert len(rows) == len(standings.rows)
    for cells, row in zip(rows, standings.rows, strict=True):
        for metric, index in at.items():
            value = value_of(row, metric)
            assert cells[index] == expect(value), (row.name, metric, cells[index], value)


def note(standings: Standings, lang: str) -> str:
    with translation.override(lang):
        return short_of_games_note(standings.min_games)


def get(client: Client, url: str, lang: str, status: int = 200) -> Any:
    response = client.get(url, headers={"Accept-Language": lang})
    assert response.status_code == status, (url, response.status_code, response.content[:500])
    return response


# --- the pages ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_organizer_standings(world: World, lang: str) -> None:
    for standings in world.stages():
        text = get(world.organizer, f"/t/{world.slug}/stages/{standings.stage}/standings/", lang).content.decode()
        table = tables_of(text)["standings"]
        header, body = table[0], table[1:]
        at = columns(header, standings, lang, "staff")
        expect_order(standings, [cells[1] for cells in body])
        assert [cells[0].split(" ")[0] for cells in body] == [str(r.rank) if r.rank else "—" for r in standings.rows]
        expect_cells(standings, body, at, lambda v: on_page(v, lang, blank="—"))
        status = len(header) - 1
        for cells, row in zip(body, standings.rows, strict=True):
            assert (note(standings, lang) in cells[status]) is short(standings, row), (row.name, cells[status])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_public_standings(world: World, lang: str) -> None:
    for standings in world.stages():
        text = get(world.anonymous, f"/p/{world.slug}/standings/{standings.stage}/", lang).content.decode()
        table = tables_of(text)["standings"]
        header, body = table[0], table[1:]
        at = columns(header, standings, lang, "public")
        expect_order(standings, [cells[1] for cells in body])
        assert [cells[0] for cells in body] == [str(r.rank) if r.rank else "" for r in standings.rows]
        expect_cells(standings, body, at, lambda v: on_page(v, lang))
        with translation.override(lang):
            for metric in set(shown(standings)) - SHOWN_APART:  # the legend names each short head
                assert f"{METRIC_SHORT[metric]} — {metric_label(metric)}" in visible_text(text), metric
            badge = translation.gettext("too few games")
        for cells, row in zip(body, standings.rows, strict=True):
            assert (badge in cells[1]) is short(standings, row), (row.name, cells[1])


def test_public_standings_hidden_show_no_figures(world: World) -> None:
    from tournaments.models import Tournament

    Tournament.objects.filter(slug=world.slug).update(standings_hidden=True)
    for standings in world.stages():
        text = get(world.anonymous, f"/p/{world.slug}/standings/{standings.stage}/", "ru").content.decode()
        assert 'id="standings"' not in text and 'id="standings-hidden"' in text
        visible = visible_text(text)
        with translation.override("ru"):
            for metric in standings.chain:
                assert f"{METRIC_SHORT[metric]} — " not in visible, metric
        # no figure: the fractional points, averages and chain values (a whole number could be a table number)
        figures = {on_page(value, "ru") for row in standings.rows
                   for value in (row.points, row.tally.average, *row.tiebreaks.values())
                   if value is not None and Fraction(value).denominator != 1}
        assert figures and not [figure for figure in figures if figure in visible]
        get(world.anonymous, f"/api/tournaments/{world.slug}/standings/?stage={standings.stage}", "ru", 403)
        get(world.anonymous, f"/t/{world.slug}/results/{standings.stage}.csv", "ru", 403)


# --- the printables and exports -----------------------------------------------------------------------------


def file_rows(world: World, standings: Standings, rows: list[list[Any]], lang: str, expect: Any) -> None:
    """A stage's table in a CSV, a sheet or the print: heads, order, values, the short players' note."""
    header, body = [str(h) for h in rows[0]], rows[1:]
    with translation.override(lang):
        name_col = header.index(translation.gettext("Player"))
        note_col = header.index(translation.gettext("Note")) if standings.min_games and \
            any(short(standings, r) for r in standings.rows) else None
    at = columns(header, standings, lang, "file")
    expect_order(standings, [str(cells[name_col]) for cells in body])
    expect_cells(standings, body, at, expect)
    if note_col is not None:
        for cells, row in zip(body, standings.rows, strict=True):
            assert (note(standings, lang) in str(cells[note_col] or "")) is short(standings, row), row.name


@pytest.mark.parametrize("lang", LANGUAGES)
def test_stage_csv(world: World, lang: str) -> None:
    for standings in world.stages():
        for client in (world.anonymous, world.organizer):
            content = get(client, f"/t/{world.slug}/results/{standings.stage}.csv", lang).content
            rows = csv_table(content, lang)
            file_rows(world, standings, rows, lang, in_csv)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_results_csv(world: World, lang: str) -> None:
    """The final results: each player's chain values from the stage that placed them."""
    content = get(world.anonymous, f"/t/{world.slug}/results.csv", lang).content
    rows = csv_table(content, lang)
    header, body = rows[0], rows[1:]
    body = body[:next((i for i, r in enumerate(body) if not any(r)), len(body))]  # the awards below
    with translation.override(lang):
        name_col = header.index(translation.gettext("Player"))
        stage_col = header.index(translation.gettext("Placed by the stage"))
    names = heads(lang, "file")
    by_title = {str(stage): world.standings[stage.ext_id] for stage in _stages(world)}
    chain = next(world.stages()).chain
    at = {m: header.index(names[m]) for m in chain if m not in ("points", "games", "wins")}
    assert at, header
    for cells in body:
        standings = by_title[cells[stage_col]]
        row = next(r for r in standings.rows if r.name == cells[name_col])
        for metric, index in at.items():
            assert cells[index] == in_csv(value_of(row, metric)), (row.name, metric, cells[index])


def _stages(world: World) -> list[Any]:
    from tournaments.models import Stage

    with translation.override("ru"):
        return list(Stage.objects.filter(tournament__slug=world.slug).order_by("order"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_results_xlsx(world: World, lang: str) -> None:
    book = load_workbook(io.BytesIO(get(world.organizer, f"/t/{world.slug}/results.xlsx", lang).content))
    sheets = [s for s in book.worksheets if s.title not in ("Награды", "Awards")][1:1 + len(world.truth.stages)]
    for sheet, stage in zip(sheets, world.truth.stages, strict=True):
        standings = world.standings[stage.id]
        if not standings.rows:
            continue
        rows = [list(row) for row in sheet.iter_rows(values_only=True)]
        rows = rows[:next((i for i, r in enumerate(rows) if not any(v is not None for v in r)), len(rows))]
        file_rows(world, standings, rows, lang, in_xlsx)
        for cells in rows[1:]:  # numbers stay numbers
            assert not any(isinstance(v, str) and v.replace(".", "").replace("-", "").isdigit() for v in cells), cells


@pytest.mark.parametrize("lang", LANGUAGES)
def test_results_print(world: World, lang: str) -> None:
    text = get(world.anonymous, f"/t/{world.slug}/results/", lang).content.decode()
    tables = tables_of(text)
    for standings in world.stages():
        rows = tables[f"results-stage-{standings.stage}"]
        # the print leaves out the player's id column
        file_rows(world, standings, rows, lang, lambda v: on_page(v, lang))


# --- the API ------------------------------------------------------------------------------------------------


def test_api_standings(world: World) -> None:
    for standings in world.stages():
        data = get(world.anonymous, f"/api/tournaments/{world.slug}/standings/?stage={standings.stage}", "ru").json()
        assert [r["player"] for r in data["standings"]] == [r.player for r in standings.rows]
        for got, row in zip(data["standings"], standings.rows, strict=True):
            assert got["rank"] == row.rank
            assert list(got["tiebreaks"]) == list(standings.chain)
            for metric in standings.chain:
                assert got["tiebreaks"][metric] == in_json(row.tiebreaks[metric]), (row.name, metric)
            if standings.rank_by == "average":
                assert got["average"] == in_json(row.tally.average)
            else:
                assert "average" not in got
            assert got.get("short_of_games", False) is short(standings, row)


def test_api_schema_describes_the_rows() -> None:
    from api.serializers import standings_schema

    fields = standings_schema().fields["standings"].child.fields
    assert {"average", "short_of_games"} <= set(fields)
    assert fields["tiebreaks"].child.allow_null


def test_the_heads_and_notes_are_translated() -> None:
    """Each head the cases show, and the min_games note and badge, read in Russian (not the English fallback)."""
    used = {metric for _file, params in CASES.values() for metric in params["tiebreaks"]} | {"points_average"}
    for kind in ("public", "staff", "file"):
        russian, english = heads("ru", kind), heads("en", kind)
        assert not [m for m in used if russian[m] == english[m]], kind
    with translation.override("ru"):
        assert short_of_games_note(7) == "игр меньше 7: в таблице после остальных"
        assert translation.gettext("too few games") == "мало игр"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_player_page(world: World, lang: str) -> None:
    """A player's total per stage: the points per game where they rank, and the badge of a player short of
    ``min_games`` (the leader and the last player of each stage)."""
    with translation.override(lang):
        badge = translation.gettext("too few games")
    for standings in world.stages():
        for row in (standings.rows[0], standings.rows[-1]):
            text = get(world.anonymous, f"/p/{world.slug}/players/{row.player}/", lang).content.decode()
            start = text.index(f'id="total-{standings.stage}"')
            total = text[start:text.index("</p>", start)]
            with translation.override(lang):
                per_game = translation.gettext("%(average)s per game") % {"average": on_page(row.tally.average, lang)}
            assert (per_game in visible_text("<p " + total)) is (standings.rank_by == "average"), (row.name, total)
            assert (badge in total) is short(standings, row), (row.name, total)
            if short(standings, row):
                assert note(standings, lang) in total
