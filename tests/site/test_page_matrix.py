"""Every page × every ruleset (issue 13): each public page, organizer page, htmx fragment, printable, export
and API answer, for every regulation's shared example and a generated tournament of each, with the standings
hidden and published, after the last round and with a round in play. Each must answer 200 (or the refusal the
rules call for) with the figures ``scoring`` computes from the file itself: ranks, names and points in the
standings of every stage, the seating of every round, the players' totals, the exports' rows.

The URL names come from the resolver (as in ``test_permission_walk.py``): a new URL without an entry in
``PAGES`` or ``NOT_PAGES`` fails ``test_every_url_is_in_the_matrix``, so each new page joins the matrix.
"""

from __future__ import annotations

import copy
import csv
import html as html_lib
import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from scoring import fileio
from scoring import model as m
from scoring.generate import generate
from scoring.numbers import format_number
from scoring.standings import Standings, compute_standings
from tests.helpers import example_text
from tests.site.test_permission_walk import app_urls

pytestmark = pytest.mark.django_db

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


# --- reading pages -------------------------------------------------------------------------------------------


class Tables(HTMLParser):
    """The text of every cell of every ``<table>`` of a page, by the table's id (``""`` when it has none)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.stack: list[str] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            name = dict(attrs).get("id") or ""
            self.stack.append(name)
            self.tables.setdefault(name, [])
        elif tag == "tr" and self.stack:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.stack:
            self.stack.pop()
        elif tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.stack:
            self.tables[self.stack[-1]].append(self.row)
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables_of(text: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(text)
    return parser.tables


def visible_text(text: str) -> str:
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def ru_points(value: Fraction | int) -> str:
    """Points as a Russian reader sees them on the public pages: ``2,25``, ``−0,5``."""
    return format_number(Fraction(value)).replace("-", "−").replace(".", ",")


def organizer_points(value: Fraction | int) -> str:
    value = Fraction(value)
    return str(int(value)) if value.denominator == 1 else f"{float(value):.2f}".rstrip("0")


# --- the tournaments -----------------------------------------------------------------------------------------


@dataclass
class World:
    """One tournament in one state, and what ``scoring`` says of the file it was imported from."""

    label: str
    tournament: Any
    truth: m.Tournament
    standings: dict[str, Standings]
    hidden: bool
    in_play: list[dict[str, Any]]  # the tables of the round in play (no protocol submitted)
    organizer: Client
    anonymous: Client
    pdf: bool = True  # PDFs in this state (WeasyPrint is slow: each world renders them in one of its states)

    @property
    def slug(self) -> str:
        return str(self.tournament.slug)

    def name(self, pid: str) -> str:
        return next(p.name for p in self.truth.players if p.id == pid)


def source_data(source: str, ruleset: str) -> dict[str, Any]:
    if source == "example":
        return dict(json.loads(example_text(f"{ruleset}-example.json")))
    # a generated tournament of two stages: the first with 2 rounds, the final with 2; guests where allowed
    data = fileio.dump(generate(ruleset, players=24 if ruleset != "zvezdy" else 20, rounds=4, seed=11, stages=2,
                                guests=2 if ruleset == "tomsk" else 0))
    data["tournament"] = {"name": f"Сгенерированный турнир {ruleset}", "starts": "2025-05-01"}
    return dict(data)


def with_round_in_play(data: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The file with the last round of its last stage with games half played: its other tables seated, no
    result (the file's ``tables_in_play``)."""
    data = copy.deepcopy(data)
    stage = next(s for s in reversed(data["stages"]) if s["rounds"])
    round_ = stage["rounds"][-1]
    games = sorted(round_["games"], key=lambda g: g["table"])
    keep = max(1, len(games) // 2) if len(games) > 1 else 0
    in_play = [{"stage": stage["id"], "round": round_["number"], "table": g["table"],
                "seats": [{"seat": s["seat"], "player": s["player"]} for s in g["seats"]]} for g in games[keep:]]
    round_["games"] = games[:keep]
    data["tournament"] = {**data.get("tournament", {}), "tables_in_play": in_play}
    return data, in_play


def truth_of(data: dict[str, Any]) -> tuple[m.Tournament, dict[str, Standings]]:
    plain = copy.deepcopy(data)
    plain.get("tournament", {}).pop("tables_in_play", None)
    model = fileio.load(plain)
    return model, {stage.id: compute_standings(model, stage.id) for stage in model.stages}


def set_hidden(world: World, hidden: bool, capture: Any) -> None:
    """Through the organizer's button, as on the tournament day (the results version bumps on commit)."""
    with capture(execute=True):
        response = world.organizer.post(reverse("public:standings_visibility", args=[world.slug]),
                                        {"hidden": "1" if hidden else "0"})
    assert response.status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.standings_hidden is hidden
    world.hidden = hidden


# --- the checks, one per URL name ----------------------------------------------------------------------------

Check = Callable[[World], None]


def get(client: Client, url: str, status: int = 200, **headers: str) -> Any:
    response = client.get(url, headers=headers or None)
    assert response.status_code == status, (url, response.status_code, response.content[:600])
    return response


def page(client: Client, url: str, status: int = 200, **headers: str) -> str:
    response = get(client, url, status, **headers)
    return str(response.content.decode())


def stages_of(world: World) -> Iterator[m.Stage]:
    yield from world.truth.stages


def rounds_of(world: World) -> Iterator[tuple[m.Stage, m.Round]]:
    for stage in world.truth.stages:
        for round_ in stage.rounds:
            yield stage, round_


def seated(world: World, stage: m.Stage, round_: m.Round) -> dict[int, list[str]]:
    """Each table of a round: its players in seat order (played games and tables in play)."""
    tables = {g.table: [s.player for s in sorted(g.seats, key=lambda s: s.seat)] for g in round_.games}
    for t in world.in_play:
        if t["stage"] == stage.id and t["round"] == round_.number:
            tables[t["table"]] = [s["player"] for s in sorted(t["seats"], key=lambda s: s["seat"])]
    return tables


def expect_public_standings(world: World, text: str, standings: Standings) -> None:
    if world.hidden:
        assert 'id="standings"' not in text and 'id="standings-hidden"' in text
        listed = visible_text(text[text.index('id="hidden-players"'):])
        for row in standings.rows:
            assert row.name in listed, row.name
        return
    rows = tables_of(text)["standings"][1:]
    assert len(rows) == len(standings.rows), (len(rows), len(standings.rows))
    for cells, row in zip(rows, standings.rows, strict=True):
        assert cells[0] == str(row.rank) and cells[1].startswith(row.name), (cells, row.rank, row.name)
        assert cells[2:5] == [ru_points(row.points), str(row.tally.games), str(row.tally.wins)], (cells, row)


def check_public_standings(world: World) -> None:
    default = compute_standings(world.truth, None)
    for client_url, headers in ((f"/p/{world.slug}/standings/", {}),
                                (f"/p/{world.slug}/standings/", {"HX-Request": "true"})):
        expect_public_standings(world, page(world.anonymous, client_url, **headers), default)
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies["django_language"] = "en"
    text = page(english, f"/p/{world.slug}/standings/")
    assert ("Standings:" in text) is not world.hidden and 'lang="en"' in text


def check_stage_standings(world: World) -> None:
    for stage in stages_of(world):
        url = f"/p/{world.slug}/standings/{stage.id}/"
        expect_public_standings(world, page(world.anonymous, url), world.standings[stage.id])
        expect_public_standings(world, page(world.anonymous, url, **{"HX-Request": "true"}),
                                world.standings[stage.id])
        # a query string is the same page (and must not defeat the cache; tests/public test that)
        expect_public_standings(world, page(world.anonymous, url + "?utm=1"), world.standings[stage.id])


def check_public_home(world: World) -> None:
    text = visible_text(page(world.anonymous, f"/p/{world.slug}/"))
    assert world.tournament.name in text
    for stage, round_ in rounds_of(world):
        assert f"/p/{world.slug}/seating/{stage.id}/{round_.number}/" in page(world.anonymous, f"/p/{world.slug}/")


def check_public_list(world: World) -> None:
    assert world.tournament.name in visible_text(page(world.anonymous, "/p/"))


def check_tournament_list(world: World) -> None:
    assert world.tournament.name in visible_text(page(world.anonymous, "/"))
    assert world.tournament.name in visible_text(page(world.organizer, "/"))


def check_rules(world: World) -> None:
    text = visible_text(page(world.anonymous, f"/p/{world.slug}/rules/"))
    assert world.tournament.name in text or world.tournament.get_ruleset_display() in text


def check_where(world: World) -> None:
    stage, round_ = list(rounds_of(world))[-1]
    _table, players = sorted(seated(world, stage, round_).items())[-1]
    player = next(p for p in world.truth.players if p.id == players[0])
    text = visible_text(page(world.anonymous, f"/p/{world.slug}/where/?q={player.name.split()[0]}"))
    assert player.name in text


def expect_seating(world: World, text: str, stage: m.Stage, round_: m.Round) -> None:
    tables = seated(world, stage, round_)
    body = visible_text(text)
    for players in tables.values():
        for pid in players:
            assert world.name(pid) in body, (stage.id, round_.number, pid)


def check_seating(world: World) -> None:
    text = page(world.anonymous, f"/p/{world.slug}/seating/")
    stage, round_ = list(rounds_of(world))[-1]
    expect_seating(world, text, stage, round_)
    page(world.anonymous, f"/p/{world.slug}/seating/", **{"HX-Request": "true"})


def check_round_seating(world: World) -> None:
    for stage, round_ in rounds_of(world):
        text = page(world.anonymous, f"/p/{world.slug}/seating/{stage.id}/{round_.number}/")
        expect_seating(world, text, stage, round_)


def takes_part(world: World, stage: m.Stage, pid: str) -> bool:
    """Whether the player has anything in the stage to show: a seat (played or in play), a bye, an absence, a
    penalty."""
    for round_ in stage.rounds:
        if pid in round_.byes or pid in round_.absent or any(p.player == pid for p in round_.penalties) or \
                any(s.player == pid for g in round_.games for s in g.seats):
            return True
    return any(t["stage"] == stage.id and pid in {s["player"] for s in t["seats"]} for t in world.in_play)


def check_player(world: World) -> None:
    for player in world.truth.players:
        text = page(world.anonymous, f"/p/{world.slug}/players/{player.id}/")
        assert player.name in visible_text(text)
        for stage in stages_of(world):
            row = next((r for r in world.standings[stage.id].rows if r.player == player.id), None)
            marker = f'id="total-{stage.id}"'
            if world.hidden or row is None or not takes_part(world, stage, player.id):
                assert marker not in text, (player.id, stage.id)  # nothing of the stage to show, or no figure
                continue
            assert marker in text, (player.id, stage.id)
            total = visible_text(text[text.index(marker):text.index("</p>", text.index(marker))])
            expected = rf"Место {row.rank} · баллов: {re.escape(ru_points(row.points))} · игр: {row.tally.games} "
            assert re.search(expected, total), (total, row)
            for t in world.in_play:  # the seat of a round in play: "not yet", no protocol to link
                if t["stage"] == stage.id and player.id in {s["player"] for s in t["seats"]}:
                    assert f'/p/{world.slug}/games/{stage.id}/{t["round"]}/{t["table"]}/' not in text
                    assert "ещё нет" in text[text.index(marker):]


def played(round_: m.Round) -> list[m.Game]:
    """The games with a result (a seated table without one is no public game)."""
    return [g for g in round_.games if g.winner is not None]


def check_game(world: World) -> None:
    for stage, round_ in rounds_of(world):
        for game in played(round_):
            text = visible_text(page(world.anonymous, f"/p/{world.slug}/games/{stage.id}/{round_.number}/"
                                                      f"{game.table}/"))
            for seat in game.seats:
                assert world.name(seat.player) in text
    for t in world.in_play:  # no result yet: not a public game
        get(world.anonymous, f"/p/{world.slug}/games/{t['stage']}/{t['round']}/{t['table']}/", 404)


def api(world: World, client: Client, url: str, status: int = 200) -> Any:
    response = get(client, url, status)
    return response.json()


def expect_api_standings(data: dict[str, Any], standings: Standings) -> None:
    rows = data["rows"] if "rows" in data else data["standings"]
    assert [r["player"] for r in rows] == [r.player for r in standings.rows]
    for got, row in zip(rows, standings.rows, strict=True):
        # the JSON's points are floats (docs/command-line.md): the nearest to the exact value
        assert got["rank"] == row.rank and got["points"] == float(row.points), (got, row.points)


def check_api_standings(world: World) -> None:
    for stage in stages_of(world):
        url = f"/api/tournaments/{world.slug}/standings/?stage={stage.id}"
        if world.hidden:
            api(world, world.anonymous, url, 403)
        else:
            expect_api_standings(api(world, world.anonymous, url), world.standings[stage.id])
        expect_api_standings(api(world, world.organizer, url), world.standings[stage.id])


def items_of(data: Any) -> list[Any]:
    """A list answer of the API, paginated or not."""
    return list(data["results"] if isinstance(data, dict) else data)


def check_api_lists(world: World) -> None:
    assert world.slug in [t["slug"] for t in items_of(api(world, world.anonymous, "/api/tournaments/"))]


def check_api_tournament(world: World) -> None:
    data = api(world, world.anonymous, f"/api/tournaments/{world.slug}/")
    assert data["slug"] == world.slug and data["ruleset"] == world.truth.ruleset


def check_api_stages(world: World) -> None:
    items = items_of(api(world, world.anonymous, f"/api/tournaments/{world.slug}/stages/"))
    assert [s["id"] if "id" in s else s["ext_id"] for s in items] == [s.id for s in world.truth.stages]


def check_api_rounds(world: World) -> None:
    items = items_of(api(world, world.anonymous, f"/api/tournaments/{world.slug}/rounds/"))
    assert len(items) == len(list(rounds_of(world)))


def check_api_seating(world: World) -> None:
    for stage, round_ in rounds_of(world):
        data = api(world, world.anonymous, f"/api/tournaments/{world.slug}/rounds/{stage.id}/{round_.number}/seating/")
        got = {t["table"]: [s["player"] for s in sorted(t["seats"], key=lambda s: s["seat"])] for t in data["tables"]}
        assert sorted(map(sorted, got.values())) == sorted(map(sorted, seated(world, stage, round_).values()))


def check_api_games(world: World) -> None:
    items = items_of(api(world, world.anonymous, f"/api/tournaments/{world.slug}/games/"))
    assert len(items) == sum(len(played(r)) for _s, r in rounds_of(world))


def check_api_schema(world: World) -> None:
    assert b"openapi" in get(world.anonymous, "/api/schema/").content


def check_api_protocol(world: World) -> None:
    table = world.tournament_tables[-1]  # type: ignore[attr-defined]
    data = api(world, world.organizer, f"/api/tournaments/{world.slug}/protocols/{table.pk}/")
    assert "seats" in data


# organizer pages


def check_detail(world: World) -> None:
    text = visible_text(page(world.organizer, f"/t/{world.slug}/"))
    assert world.tournament.name in text


def check_export(world: World) -> None:
    response = get(world.organizer, f"/t/{world.slug}/export/")
    exported = fileio.loads(b"".join(response.streaming_content).decode() if response.streaming else
                            response.content.decode())
    for stage in exported.stages:
        got = compute_standings(exported, stage.id)
        truth = world.standings[stage.id]
        assert [(r.player, r.rank, r.points) for r in got.rows] == [(r.player, r.rank, r.points) for r in truth.rows]


def check_participants(world: World) -> None:
    text = visible_text(page(world.organizer, f"/t/{world.slug}/participants/"))
    for player in world.truth.players:
        assert player.name.split()[0] in text, player.name


def check_import_players(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/participants/import/")


def check_participant_edit(world: World) -> None:
    participant = world.tournament.participants.order_by("number").first()
    text = page(world.organizer, f"/t/{world.slug}/participants/{participant.pk}/edit/")
    assert participant.player.surname in text


def check_teams(world: World) -> None:
    text = visible_text(page(world.organizer, f"/t/{world.slug}/teams/"))
    for team in world.truth.teams or ():
        assert team.name in text


def check_keep_apart(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/keep-apart/")


def check_stage(world: World) -> None:
    for stage in stages_of(world):
        page(world.organizer, f"/t/{world.slug}/stages/{stage.id}/")


def check_round(world: World) -> None:
    for stage, round_ in rounds_of(world):
        text = page(world.organizer, f"/t/{world.slug}/stages/{stage.id}/rounds/{round_.number}/")
        expect_seating(world, text, stage, round_)


def check_job(world: World) -> None:
    from tournaments.models import SeatingJob, Stage

    stage = Stage.objects.filter(tournament=world.tournament).order_by("order").first()
    job = SeatingJob.objects.create(stage=stage, method="random", seed=1,
                                    created_by=world.tournament.organizers.first())
    page(world.organizer, f"/t/{world.slug}/stages/{stage.ext_id}/seating/{job.pk}/")


def check_organizer_standings(world: World) -> None:
    for stage in stages_of(world):
        rows = tables_of(page(world.organizer, f"/t/{world.slug}/stages/{stage.id}/standings/"))["standings"][1:]
        truth = world.standings[stage.id].rows
        if not truth:
            continue
        assert len(rows) == len(truth)
        for cells, row in zip(rows, truth, strict=True):
            assert cells[0] == str(row.rank) and cells[1].startswith(row.name), (cells, row)
            assert cells[3:6] == [organizer_points(row.points), str(row.tally.games), str(row.tally.wins)], (cells, row)


def check_staff(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/staff/")


def check_protocols(world: World) -> None:
    page(world.organizer, f"/t/{world.slug}/protocols/")


def table_pages(world: World, suffix: str) -> None:
    for table in world.tournament_tables:  # type: ignore[attr-defined]
        text = visible_text(page(world.organizer, f"/t/{world.slug}/tables/{table.pk}/{suffix}"))
        for seat in table.seats.all():
            assert seat.participant.player.surname in text, (suffix, table.number, seat.number)


def check_protocol(world: World) -> None:
    table_pages(world, "")


def check_history(world: World) -> None:
    for table in world.tournament_tables:  # type: ignore[attr-defined]
        page(world.organizer, f"/t/{world.slug}/tables/{table.pk}/history/")


def check_protests(world: World) -> None:
    for table in world.tournament_tables:  # type: ignore[attr-defined]
        page(world.organizer, f"/t/{world.slug}/tables/{table.pk}/protests/")


def check_table_screen(world: World) -> None:
    table_pages(world, "live/")


# printables and exports


def check_print_seating(world: World, pdf: bool = False) -> None:
    if pdf and not world.pdf:
        return
    for stage, round_ in rounds_of(world):
        if pdf and (stage, round_) != list(rounds_of(world))[-1]:
            continue  # one PDF per world: WeasyPrint is slow, and renders the same HTML as the print page
        url = f"/t/{world.slug}/print/{stage.id}/{round_.number}/seating{'.pdf' if pdf else '/'}"
        response = get(world.organizer, url)
        if pdf:
            assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
        else:
            expect_seating(world, response.content.decode(), stage, round_)


def check_print_forms(world: World, pdf: bool = False) -> None:
    if pdf and not world.pdf:
        return
    stage, round_ = list(rounds_of(world))[-1]
    url = f"/t/{world.slug}/print/{stage.id}/{round_.number}/protocols{'.pdf' if pdf else '/'}"
    response = get(world.organizer, url)
    if pdf:
        assert response.content.startswith(b"%PDF")
    else:
        expect_seating(world, response.content.decode(), stage, round_)


def result_clients(world: World) -> list[Client]:
    """Anyone while the standings are public; only the organizers while hidden (the others get 403)."""
    return [world.organizer] if world.hidden else [world.anonymous, world.organizer]


def refused_while_hidden(world: World, url: str) -> None:
    if world.hidden:
        get(world.anonymous, url, 403)


def expect_result_rows(world: World, rows: list[list[str]], standings: Standings) -> None:
    """A stage's table in a CSV or a sheet: the names and the points (exact) in standings order."""
    header = rows[0]
    name_col = next(i for i, h in enumerate(header) if h in ("Игрок", "Player"))
    points_col = next(i for i, h in enumerate(header) if h in ("Баллы", "Points"))
    body = rows[1:]
    assert [r[name_col] for r in body] == [r.name for r in standings.rows]
    assert [Fraction(r[points_col]) for r in body] == [r.points for r in standings.rows]  # exact decimal text


def csv_rows(content: bytes, world: World) -> list[list[str]]:
    rows = list(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
    if world.hidden:
        assert "не для публикации" in rows[0][0] or "not for publication" in rows[0][0]
        rows = rows[1:]
    return rows


def check_results_csv(world: World) -> None:
    url = f"/t/{world.slug}/results.csv"
    refused_while_hidden(world, url)
    for client in result_clients(world):
        rows = csv_rows(get(client, url).content, world)
        assert len(rows) >= 2 or not any(s.rows for s in world.standings.values())


def check_stage_csv(world: World) -> None:
    for stage in stages_of(world):
        url = f"/t/{world.slug}/results/{stage.id}.csv"
        refused_while_hidden(world, url)
        for client in result_clients(world):
            rows = csv_rows(get(client, url).content, world)
            if world.standings[stage.id].rows:
                expect_result_rows(world, rows, world.standings[stage.id])


def check_results_xlsx(world: World) -> None:
    url = f"/t/{world.slug}/results.xlsx"
    refused_while_hidden(world, url)
    for client in result_clients(world):
        book = load_workbook(io.BytesIO(get(client, url).content))
        assert len(book.worksheets) == 1 + len(world.truth.stages)
        for sheet, stage in zip(book.worksheets[1:], stages_of(world), strict=True):
            rows = [["" if v is None else v for v in row] for row in sheet.iter_rows(values_only=True)]
            if world.hidden:
                rows = rows[1:]
            rows = rows[:next((i for i, r in enumerate(rows) if not any(r)), len(rows))]  # the legend below
            if world.standings[stage.id].rows:
                header = [str(h) for h in rows[0]]
                name_col, points_col = header.index("Игрок"), header.index("Баллы")
                assert [r[name_col] for r in rows[1:]] == [r.name for r in world.standings[stage.id].rows]
                assert [Fraction(r[points_col]).limit_denominator(10**6) for r in rows[1:]] == \
                    [r.points for r in world.standings[stage.id].rows]


def check_results_print(world: World) -> None:
    url = f"/t/{world.slug}/results/"
    refused_while_hidden(world, url)
    for client in result_clients(world):
        text = visible_text(page(client, url))
        for stage in stages_of(world):
            for row in world.standings[stage.id].rows[:3]:
                assert row.name in text


def check_results_pdf(world: World) -> None:
    from pypdf import PdfReader

    url = f"/t/{world.slug}/results.pdf"
    refused_while_hidden(world, url)
    if not world.pdf:
        return
    client = result_clients(world)[0]
    content = get(client, url).content
    text = " ".join(" ".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(content)).pages).split())
    leader = next((s.rows[0] for s in world.standings.values() if s.rows), None)
    assert leader is None or leader.name.split()[0] in text


def check_login(world: World) -> None:
    page(Client(), "/accounts/login/")


def check_create(world: World) -> None:
    page(world.organizer, "/new/")


def check_import(world: World) -> None:
    page(world.organizer, "/import/")


PAGES: dict[str, Check] = {
    "site:tournaments": check_tournament_list,
    "site:new_tournament": check_create,
    "site:import_tournament": check_import,
    "tournaments:detail": check_detail,
    "exchange:export": check_export,
    "tournaments:participants": check_participants,
    "tournaments:import_players": check_import_players,
    "tournaments:participant_edit": check_participant_edit,
    "tournaments:teams": check_teams,
    "tournaments:keep_apart": check_keep_apart,
    "running:stage": check_stage,
    "running:round": check_round,
    "running:job": check_job,
    "running:standings": check_organizer_standings,
    "public:list": check_public_list,
    "public:home": check_public_home,
    "public:rules": check_rules,
    "public:where": check_where,
    "public:seating": check_seating,
    "public:round_seating": check_round_seating,
    "public:standings": check_public_standings,
    "public:stage_standings": check_stage_standings,
    "public:player": check_player,
    "public:game": check_game,
    "api:schema": check_api_schema,
    "api:tournaments": check_api_lists,
    "api:tournament": check_api_tournament,
    "api:stages": check_api_stages,
    "api:rounds": check_api_rounds,
    "api:seating": check_api_seating,
    "api:games": check_api_games,
    "api:standings": check_api_standings,
    "api:protocol": check_api_protocol,
    "games:staff": check_staff,
    "games:protocols": check_protocols,
    "games:protocol": check_protocol,
    "games:history": check_history,
    "games:protests": check_protests,
    "games:table": check_table_screen,
    "paper:seating": check_print_seating,
    "paper:seating_pdf": lambda world: check_print_seating(world, pdf=True),
    "paper:forms": check_print_forms,
    "paper:forms_pdf": lambda world: check_print_forms(world, pdf=True),
    "paper:results": check_results_print,
    "paper:results_pdf": check_results_pdf,
    "paper:results_xlsx": check_results_xlsx,
    "paper:results_csv": check_results_csv,
    "paper:stage_csv": check_stage_csv,
    "login": check_login,
}

# URLs that are actions (POST only, or a redirect), not pages: tested where the action is.
NOT_PAGES: dict[str, str] = {
    "tournaments:participant_remove": "POST: tests/running/test_standings_pages.py",
    "tournaments:participant_disqualify": "POST: tests/tournaments/test_disqualification.py",
    "tournaments:participant_reinstate": "POST: tests/tournaments/test_disqualification.py",
    "tournaments:decide": "POST: an application's decision (kostroma)",
    "tournaments:round_start": "POST: the round's start time",
    "public:standings_visibility": "POST: used by this matrix to hide and publish",
    "api:token": "POST: tests/api",
    "api:submit": "POST: tests/api/test_protocols.py",
    "api:confirm": "POST: tests/api/test_protocols.py",
    "api:reopen": "POST: tests/api/test_protocols.py",
    "games:state": "POST: a protocol's state",
    "games:decide": "POST: a protest's decision",
    "logout": "POST",
    "set_language": "POST (a redirect)",
}


def test_every_url_is_in_the_matrix() -> None:
    urls = set(app_urls())
    listed = set(PAGES) | set(NOT_PAGES)
    assert not set(PAGES) & set(NOT_PAGES)
    assert not urls - listed, f"new URLs: add a check to PAGES (or a reason to NOT_PAGES): {sorted(urls - listed)}"
    assert not listed - urls, f"URLs gone: {sorted(listed - urls)}"


def build_world(label: str, data: dict[str, Any], in_play: list[dict[str, Any]], organizer: Any) -> World:
    from exchange.files import import_text
    from games.services import protocol as protocol_service
    from tournaments.models import Table

    truth, standings = truth_of(data)
    tournament = import_text(json.dumps(data), slug=label, organizers=[organizer])
    organizer_client = Client()
    organizer_client.force_login(organizer)
    world = World(label, tournament, truth, standings, tournament.standings_hidden, in_play, organizer_client,
                  Client())
    tables = list(Table.objects.filter(round__stage__tournament=tournament)
                  .order_by("round__stage__order", "round__number", "number"))
    # the first and last table of the last round, and of every first round; a table in play gets a draft
    chosen = {tables[0].pk: tables[0], tables[-1].pk: tables[-1]}
    world.tournament_tables = list(chosen.values())  # type: ignore[attr-defined]
    if in_play:
        last = tables[-1]
        protocol_service.open_protocol(last, organizer)  # a judge has opened it: a draft, not public
    return world


@pytest.mark.parametrize("source", ["example", "generated"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_page_of_every_ruleset(ruleset: str, source: str, organizer: Any,
                                     django_capture_on_commit_callbacks: Any, settings: Any) -> None:
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"matrix-{ruleset}-{source}"}}
    cache.clear()
    data = source_data(source, ruleset)
    live_data, in_play = with_round_in_play(data)
    worlds = [build_world(f"{ruleset}-{source}-done", data, [], organizer),
              build_world(f"{ruleset}-{source}-live", live_data, in_play, organizer)]
    failures: list[str] = []
    for index, world in enumerate(worlds):
        for state, hidden in enumerate((world.hidden, not world.hidden)):
            set_hidden(world, hidden, django_capture_on_commit_callbacks)
            world.pdf = state == index  # the finished world's PDFs in one state, the live world's in the other
            for name, check in PAGES.items():
                try:
                    check(world)
                except Exception as error:  # every page's failure at once, not the first only
                    failures.append(f"{world.label} hidden={hidden} {name}: {str(error)[:400]}")
    assert not failures, "\n".join(failures)
