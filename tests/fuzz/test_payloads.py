"""Payloads in what organizers and judges type, under the four regulations:

- HTML and script in award names and reasons, the diplomas' title and signature, protest texts, send-back comments
  and the hall screen's announcements and timer title, each saved through its own page: every page that shows them
  (the organizer's, the judges', the public ones, the hall screen, the results print, the diplomas) has them
  escaped and never the raw tag, and the PDFs (results.pdf, diplomas.pdf) print the very text;
- spreadsheet formulas as player, club, city and tournament names in the rating's and the series' XLSX and CSV
  downloads (and the results'): every XLSX cell a string, never a formula, holding the very text; every CSV cell
  starting with ``= + - @`` (a tab, a carriage return) given a leading ``'``, the rule of ``paper.spreadsheets``."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape
from openpyxl import load_workbook

from games.models import Game, GameState
from games.services import protocol as service
from paper.spreadsheets import FORMULA_START, csv_cell
from tests.conftest import new_people
from tests.fuzz.test_probe_corners import finish, submitted_by_judge
from tests.helpers import table
from tournaments.models import Award, Diplomas, Player, Stage, Tournament

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.django_db

RULESETS = ["fiim", "tomsk", "kostroma", "zvezdy"]
SCRIPTS = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "</title><svg onload=alert(1)>"]
RAW = ("<script>alert(1)", "<img src=x", "<svg onload")  # never in a page: each payload's tag, unescaped
TABLE_SIZE = {"fiim": 10, "tomsk": 12, "kostroma": 10, "zvezdy": 10}  # one table a round: small, quick documents
FORMULAS = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", '=HYPERLINK("http://x","y")']


@pytest.fixture(params=RULESETS)
def ruleset(request: Any) -> str:
    return str(request.param)


def client_for(user: Any = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def page_of(client: Client, url: str, **headers: Any) -> str:
    response = client.get(url, **headers)
    assert response.status_code == 200, (url, response.status_code)
    assert response["Content-Type"].startswith("text/html"), url
    return response.content.decode()


def escaped(body: str, url: str, payloads: list[str]) -> None:
    """``body`` shows each of ``payloads`` as text (escaped) and no payload's tag raw."""
    for raw in RAW:
        assert raw not in body, f"{url}: {raw!r} unescaped"
    for payload in payloads:
        assert escape(payload) in body, f"{url}: {payload!r} not shown"


def no_raw(body: str, url: str) -> None:
    escaped(body, url, [])


def pdf_text(client: Client, url: str) -> str:
    from pypdf import PdfReader

    response: Any = client.get(url)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf", (url, response.status_code)
    data = b"".join(response.streaming_content) if response.streaming else response.content
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def literal_in(text: str, payload: str) -> bool:
    """``payload`` in a PDF's extracted text, as printed (a line may break where a space was)."""
    return re.sub(r"\s+", " ", payload) in re.sub(r"\s+", " ", text)


# --- awards, the diplomas' title: the organizer's pages, the public ones, the print, the diplomas, the PDFs -------


@pytest.fixture
def awarded(generated: Any, organizer: Any, ruleset: str,
            django_capture_on_commit_callbacks: Any) -> Iterator[tuple[Tournament, Client]]:
    """A finished tournament (its final closed) whose organizer named three special prizes with the payloads,
    gave the first by hand with a payload for the reason, and titled and signed the diplomas with payloads."""
    t = generated(f"awards-{ruleset}", players=TABLE_SIZE[ruleset], rounds=1, stages=2, ruleset=ruleset,
                  standings_hidden=False)
    last = Stage.objects.filter(tournament=t).order_by("order").last()
    assert last is not None
    last.closed = True
    last.save()
    owner = client_for(organizer)
    url = reverse("running:awards", args=[t.slug])
    with django_capture_on_commit_callbacks(execute=True):
        for payload in SCRIPTS:
            added = owner.post(url, {"action": "add", "title": payload}, follow=True)
            escaped(added.content.decode(), url, [payload])  # the message naming it, too
        first = Award.objects.get(tournament=t, title=SCRIPTS[0])
        player = t.participants.order_by("number").first()
        assert player is not None
        owner.post(url, {"action": "choose", "award": first.pk, "player": player.ext_id, "reason": SCRIPTS[1]})
        owner.post(url, {"action": "diplomas", "title": SCRIPTS[2], "signer_name": SCRIPTS[0],
                         "signer_position": SCRIPTS[1]})
    assert Award.objects.filter(tournament=t, title__in=SCRIPTS).count() == 3
    assert Award.objects.get(pk=first.pk).reason == SCRIPTS[1]
    assert Diplomas.objects.filter(tournament=t, title=SCRIPTS[2], signer_name=SCRIPTS[0]).exists()
    yield t, owner


def test_award_names_are_escaped_on_every_page_and_printed_as_text(awarded: tuple[Tournament, Client]) -> None:
    t, owner = awarded
    anonymous = client_for()
    shows_all = {  # each page showing the payloads (the prizes' titles, the reason, the diplomas'), and to whom
        reverse("running:awards", args=[t.slug]): (owner,),
        reverse("public:standings", args=[t.slug]): (owner, anonymous),
        reverse("paper:results", args=[t.slug]): (owner, anonymous),
        reverse("paper:diplomas", args=[t.slug]): (owner, anonymous),  # the headings, the title, the signature
    }
    for url, readers in shows_all.items():
        for client in readers:
            escaped(page_of(client, url), url, SCRIPTS)
            no_raw(page_of(client, url, HTTP_HX_REQUEST="true"), url)
    for url in (reverse("public:home", args=[t.slug]), reverse("tournaments:detail", args=[t.slug]),
                reverse("paper:diplomas", args=[t.slug]) + "?lang=ru"):
        no_raw(page_of(owner, url), url)
    # the PDFs print the very text (results: the prizes; diplomas: each prize's heading, the title, the signature)
    results = pdf_text(anonymous, reverse("paper:results_pdf", args=[t.slug]))
    diplomas = pdf_text(anonymous, reverse("paper:diplomas_pdf", args=[t.slug]))
    for payload in SCRIPTS:
        assert literal_in(results, payload), (payload, results[:3000])
        assert literal_in(diplomas, payload), (payload, diplomas[:3000])
    # the results downloads and the API carry them as they are (not HTML: nothing to escape)
    text = anonymous.get(reverse("paper:results_csv", args=[t.slug])).content.decode("utf-8")
    assert all(payload.replace('"', '""') in text for payload in SCRIPTS)
    api = anonymous.get(reverse("api:awards", args=[t.slug]))
    assert api["Content-Type"].startswith("application/json")
    assert set(SCRIPTS) <= {a["title"] for a in api.json()["awards"]}


# --- protest texts, send-back comments: the judges', the chief judge's, the organizer's and the public pages ------


@pytest.fixture
def judged(make_round: Any, ruleset: str,
           django_capture_on_commit_callbacks: Any) -> Iterator[dict[str, Any]]:
    """A round of two tables: table 1 submitted by its judge, then a protest for each payload lodged on its page;
    table 2 submitted by its judge and sent back from the chief judge's desk with the payloads for a comment."""
    round_ = make_round(ruleset, tables=2)
    people = new_people(round_)
    t = round_.stage.tournament
    t.protests_enabled = True  # fiim takes none unless the organizer turns them on
    t.save()
    one = submitted_by_judge(round_, people, ruleset)
    other = people["other"]
    two = service.open_protocol(table(round_, 2), other)
    two = service.change(two, other, two.version, finish(ruleset, "black"))
    two = service.submit(two, other, two.version)
    comment = " ".join(SCRIPTS)
    kwargs = {"slug": t.slug, "table": one.table_id}
    with django_capture_on_commit_callbacks(execute=True):
        judge = client_for(people["judge"])
        for seat, payload in enumerate(SCRIPTS, start=1):
            answer = judge.post(reverse("games:protests", kwargs=kwargs), {"seat": seat, "text": payload})
            assert answer.status_code == 302, answer.content.decode()[:2000]
        desk = client_for(people["chief"])
        sent = desk.post(reverse("games:desk_action", args=[t.slug, two.table_id]),
                         {"action": "send_back", "version": two.version, "comment": comment})
        assert sent.status_code == 302
    assert set(Game.objects.get(pk=one.pk).protests.values_list("text", flat=True)) == set(SCRIPTS)
    two.refresh_from_db()
    assert two.state == GameState.DRAFT and two.sent_back_comment == comment
    yield {"round": round_, "people": people, "t": t, "one": one, "two": two}


def test_protest_texts_and_send_back_comments_are_escaped_on_every_page(judged: dict[str, Any]) -> None:
    t, people, one, two = judged["t"], judged["people"], judged["one"], judged["two"]
    stage, number = judged["round"].stage.ext_id, judged["round"].number

    def at(name: str, game: Game) -> str:
        return reverse(f"games:{name}", kwargs={"slug": t.slug, "table": game.table_id})

    desk = reverse("games:desk", args=[t.slug])
    shown = [  # (the page, who opens it, also as its htmx fragment): table 1's protests, then table 2's comment
        (at("protests", one), "judge", False),
        (at("protocol", one), "chief", False),
        (reverse("public:game", args=[t.slug, stage, number, 1]), "anonymous", True),
        (at("protocol", two), "other", False),
        (at("table", two), "other", True),
        (at("history", two), "organizer", False),
        (reverse("games:protocols", args=[t.slug]), "other", False),
        (desk, "chief", True),
    ]
    clients = {who: client_for(None if who == "anonymous" else people[who])
               for who in ("anonymous", "judge", "other", "chief", "organizer")}
    for url, who, htmx in shown:
        escaped(page_of(clients[who], url), url, SCRIPTS)
        if htmx:
            escaped(page_of(clients[who], url, HTTP_HX_REQUEST="true"), url, SCRIPTS)
    for url in (reverse("public:home", args=[t.slug]), reverse("public:seating", args=[t.slug]),
                reverse("running:round", args=[t.slug, stage, number]), at("history", one)):
        no_raw(page_of(clients["organizer"], url), url)
    # the comment is kept in the history's reason and the protests in the tournament file, as they are
    assert two.history.filter(history_change_reason=f"sent back: {' '.join(SCRIPTS)}").exists()
    exported = clients["organizer"].get(reverse("exchange:export", args=[t.slug])).content.decode()
    assert all(escape(payload) not in exported for payload in SCRIPTS)  # JSON, not HTML: not escaped
    assert Game.objects.get(pk=one.pk).state == GameState.SUBMITTED


# --- the hall screen's announcements and timer title ------------------------------------------------------------


def test_hall_screen_announcements_are_escaped(make_round: Any, ruleset: str,
                                                django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round(ruleset, tables=1)
    t = round_.stage.tournament
    owner = client_for(t.organizers.get())
    control = reverse("venue_screen:control", args=[t.slug])
    with django_capture_on_commit_callbacks(execute=True):
        saved = owner.post(control, {"action": "announcements", "seconds_per_slide": "10",
                                     "announcements": "\n\n".join(SCRIPTS)})
        assert saved.status_code == 302
        started = owner.post(control, {"action": "start", "minutes": "5", "label": SCRIPTS[2]})
        assert started.status_code == 302
    screen = reverse("public:screen", args=[t.slug])
    shown = page_of(client_for(), screen)
    escaped(shown, screen, SCRIPTS)
    assert shown.count('class="venue-announcement"') == len(SCRIPTS)  # one slide each, as text
    escaped(page_of(client_for(), screen, HTTP_HX_REQUEST="true"), screen, SCRIPTS)
    escaped(page_of(owner, control), control, SCRIPTS)  # the textarea and the timer's state


# --- formulas in the rating's, the series' and the results' downloads --------------------------------------------


def csv_rows(client: Client, url: str) -> list[list[str]]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline="")))


def neutralised(value: str) -> str:
    """A text cell as ``paper.spreadsheets.csv_cell`` writes it: a leading ``'`` before a formula's start."""
    return "'" + value if value.startswith(FORMULA_START) else value


def assert_csv_cells(rows: list[list[str]], values: set[str]) -> None:
    """Each of ``values`` is in the CSV neutralised, never bare; no cell could start a formula."""
    cells = {cell for row in rows for cell in row}
    for value in values:
        assert neutralised(value) in cells and value not in cells, value
    for cell in cells:
        number = re.fullmatch(r"-?\d+([.,]\d+)?", cell)  # a negative number is written as it is
        assert not cell.startswith(FORMULA_START) or number, cell


def xlsx_cells(client: Client, url: str) -> list[Any]:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    with zipfile.ZipFile(io.BytesIO(response.content)) as archive:
        xml = "".join(archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/"))
    assert "<f>" not in xml and "<f " not in xml  # no formula anywhere in the workbook
    book = load_workbook(io.BytesIO(response.content))
    return [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row]


def assert_xlsx_cells(cells: list[Any], values: set[str]) -> None:
    """Each of ``values`` is a string cell holding the very text; no cell is a formula."""
    found = {cell.value: cell for cell in cells if isinstance(cell.value, str)}
    for value in values:
        assert value in found, value
        assert found[value].data_type == "s", (value, found[value].data_type)
    assert all(cell.data_type != "f" for cell in cells)


def name_players(tournament: Tournament, payloads: list[str]) -> set[str]:
    """The first players get the payloads for surname (their whole name), nickname, club and city."""
    from tournaments.models import Participant

    people = Participant.objects.filter(tournament=tournament).order_by("number").values_list("player_id", flat=True)
    for payload, pk in zip(payloads, people, strict=False):
        Player.objects.filter(pk=pk).update(surname=payload, first_name="", patronymic="", nickname=payload,
                                            club=payload, city=payload)
    return set(payloads)


def test_the_rating_downloads_keep_formulas_as_text(make_tournament: Any, add_participants: Any,
                                                    ruleset: str) -> None:
    """A tournament's players in the rating (``?tournament=SLUG``: its players, rated or not yet), and the whole
    rating once a player has a rating."""
    from ratings.models import PlayerRating

    t = make_tournament(ruleset, slug=f"rated-{ruleset}", name=FORMULAS[4])
    add_participants(t, 12)
    values = name_players(t, FORMULAS)
    for n, player in enumerate(Player.objects.filter(participations__tournament=t)):
        PlayerRating.objects.create(player=player, rating=1500.5 - n, games=3)
    reader = client_for()
    for query in (f"?tournament={t.slug}", ""):
        rows = csv_rows(reader, reverse("rating_exports:csv") + query)
        assert_csv_cells(rows, values)
        assert all(csv_cell(value) == neutralised(value) for value in values)  # the rule of the results' CSV
        cells = xlsx_cells(reader, reverse("rating_exports:xlsx") + query)
        assert_xlsx_cells(cells, values)


@pytest.fixture
def league(generated: Any, organizer: Any) -> Any:
    """A series of four finished tournaments, one a regulation, each named with a formula; their players too."""
    from series.models import Series, SeriesTournament

    series = Series.objects.create(name=FORMULAS[0], slug="formula-league")
    series.organizers.add(organizer)
    for order, ruleset in enumerate(RULESETS, start=1):
        t = generated(f"league-{ruleset}", players=TABLE_SIZE[ruleset], rounds=1, ruleset=ruleset,
                      standings_hidden=False)
        Tournament.objects.filter(pk=t.pk).update(name=FORMULAS[order])
        Stage.objects.filter(tournament=t).update(closed=True)
        SeriesTournament.objects.create(series=series, tournament=t, order=order)
        name_players(t, FORMULAS[order - 1:order + 1])
    return series


def test_the_series_downloads_keep_formulas_as_text(league: Any) -> None:
    reader = client_for()
    values = set(FORMULAS)  # the tournaments' names (columns), the players' names
    for language in ("en", "ru"):
        reader.cookies["django_language"] = language
        text = reader.get(reverse("series:csv", args=[league.slug])).content.decode("utf-8")
        rows = list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=";" if language == "ru" else ","))
        header = rows[0]
        assert [neutralised(name) for name in FORMULAS[1:]] == header[4:8]  # a column a tournament
        assert_csv_cells(rows, values)
    assert_xlsx_cells(xlsx_cells(reader, reverse("series:xlsx", args=[league.slug])), values)
    # the series' page shows them as text too
    no_raw(page_of(reader, reverse("series:detail", args=[league.slug])), "series")


def test_the_results_downloads_keep_formulas_as_text(generated: Any, ruleset: str) -> None:
    """The players' names, nicknames, clubs and cities in the results' CSV and XLSX: the rule the others follow."""
    t = generated(f"results-{ruleset}", players=TABLE_SIZE[ruleset], rounds=1, ruleset=ruleset,
                  standings_hidden=False)
    values = name_players(t, FORMULAS)
    reader = client_for()
    rows = csv_rows(reader, reverse("paper:results_csv", args=[t.slug]))
    column = rows[0].index("Player")
    assert {neutralised(value) for value in values} <= {row[column] for row in rows[1:] if len(row) > column}
    assert_csv_cells(rows, values)
    assert_xlsx_cells(xlsx_cells(reader, reverse("paper:results_xlsx", args=[t.slug])), values)

