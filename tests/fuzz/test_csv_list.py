"""The participants' CSV list, fuzzed: generated lists (commas, semicolons or tabs, quotes, BOMs, one
column, empty lines, CR and CRLF, cells past csv's 131,072-character limit, NUL, unpaired surrogates, HTML,
formula-looking names, dates out of range, unknown teams and columns) for every ruleset, through the list's
parser and the service that registers it (``CsvForm`` then ``tournaments.services.people.add_players``), and
through the page ``/t/SLUG/participants/import/`` (the preview, the confirming import, pasted or uploaded).
Never a server error; a list is imported whole (one participant per row) or nothing is."""

from __future__ import annotations

import datetime as dt
from typing import Any
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.forms.people import CSV_COLUMNS, CsvForm

from .conftest import FUZZ, NASTY_TEXT

pytestmark = pytest.mark.django_db

RULESETS = ["fiim", "tomsk", "kostroma", "zvezdy"]
TEAMS = ["Полночь", "Team <b>1</b>"]
LONG = "ж" * 131_073  # one past csv's field limit

NAMES = ["Иванов", "Petrov", "Сидорова-Ким", "O'Neil", "Ёлкина «Злата»", "李", "Ng", "=1+1", "+7 900", "-2",
         "@SUM(A1)", '=HYPERLINK("http://x","y")', "\t=1", "\r=1", "<script>alert(1)</script>", "<b>b</b>",
         "&amp;", "🎲🎲", "\u202eевонави", "a\x00b", "\x00", "\ud800", "x\udfffy", 'say "hi"', "a,b", "a;b", "a\tb",
         "a\nb", " ", "", "x" * 150, "x" * 300]
DATES = ["1995-05-05", "2000-02-29", "2007-03-16", "2011-01-01", "1994-03-15", "1900-01-01", "0001-01-01",
         "9999-12-31", "10000-01-01", "1995-02-30", "1995-13-01", "31.12.1995", "1995/05/05", "95-05-05", "-1",
         "today", ""]
CELLS = {
    "surname": st.sampled_from(NAMES), "first_name": st.sampled_from(NAMES), "patronymic": st.sampled_from(NAMES),
    "nickname": st.sampled_from(NAMES), "city": st.sampled_from(["Москва", "", "x" * 200, *NAMES[:6]]),
    "club": st.sampled_from(["Клуб «Полночь»", "", *NAMES[6:12]]), "birth_date": st.sampled_from(DATES),
    "phone": st.sampled_from(["+7 900 000-00-01", "", "x" * 100, "=1+1", "8(900)0000001"]),
    "team": st.sampled_from([*TEAMS, "Нет такой", "", " Полночь "]),
}
ANY_CELL = st.sampled_from(NAMES + DATES + NASTY_TEXT) | st.text(max_size=12)
HEADERS = st.sampled_from([*CSV_COLUMNS, "Surname", " surname ", "SURNAME", "name", "", "фамилия", "\ufeffsurname"])


@st.composite
def csv_lists(draw: st.DrawFn) -> str:
    """A list as an organizer might paste or export it, with careless and hostile values."""
    delimiter = draw(st.sampled_from([",", ";", "\t", ",", "|"]))
    columns = draw(st.lists(st.sampled_from(CSV_COLUMNS), min_size=1, max_size=5, unique=True))
    if draw(st.integers(0, 4)) == 0:
        columns = ["surname"]  # one column: no delimiter to tell
    elif draw(st.booleans()) and "surname" not in columns:
        columns.insert(draw(st.integers(0, len(columns))), "surname")
    header = [draw(HEADERS) if draw(st.integers(0, 9)) == 0 else c for c in columns]
    quoting = draw(st.sampled_from(["none", "all", "needed", "broken"]))

    def cell(value: str) -> str:
        if quoting == "all" or (quoting == "needed" and any(c in value for c in f'{delimiter}"\n\r')):
            return '"' + value.replace('"', '""') + '"'
        if quoting == "broken" and draw(st.integers(0, 3)) == 0:
            return '"' + value  # a quote never closed
        return value

    lines = [delimiter.join(cell(h) for h in header)]
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 19))
        if kind == 0:
            lines.append("")
            continue
        if kind == 1:
            lines.append(delimiter * draw(st.integers(1, 3)))
            continue
        values = [draw(CELLS.get(c.strip().lower(), ANY_CELL)) if draw(st.integers(0, 5)) else draw(ANY_CELL)
                  for c in columns]
        if kind == 2:
            values.append(draw(ANY_CELL))  # more cells than the header
        elif kind == 3 and values:
            values.pop()  # fewer
        elif kind == 4:
            values[draw(st.integers(0, len(values) - 1))] = LONG
        lines.append(delimiter.join(cell(v) for v in values))
    newline = draw(st.sampled_from(["\n", "\r\n", "\n", "\r"]))
    text = newline.join(lines) + draw(st.sampled_from(["", newline, newline * 3]))
    return draw(st.sampled_from(["", "", "\ufeff", " ", "\n"])) + text


LISTS = csv_lists() | csv_lists() | csv_lists() | st.text(max_size=60) | st.sampled_from(
    ["", "surname", "surname\n", "surname\nИванов", "surname\n" + LONG, LONG, "\ufeffsurname\nИванов", "\x00",
     "surname,first_name\n\n\n", '"surname\nИванов', "surname\n\ud800", ";;;\n;;;", "\t\t\n"])


def counts() -> dict[str, int]:
    from tournaments.models import Participant, Player, Team

    return {model.__name__: model.objects.count() for model in (Participant, Player, Team)}


@pytest.fixture
def tournaments(make_tournament: Any) -> dict[str, Any]:
    from tournaments.models import Team

    out = {}
    for ruleset in RULESETS:
        tournament = make_tournament(ruleset, starts=dt.date(2025, 3, 15), ends=dt.date(2025, 3, 16))
        for n, name in enumerate(TEAMS, start=1):
            Team.objects.create(tournament=tournament, name=name, ext_id=f"t{n}")
        out[ruleset] = tournament
    return out


def encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def test_the_parser_and_the_service_import_whole_or_nothing(tournaments: dict[str, Any], fuzz_inputs: Any) -> None:
    from tournaments.services import registration
    from tournaments.services.people import add_players

    @settings(FUZZ, max_examples=900)
    @given(text=LISTS, ruleset=st.sampled_from(RULESETS))
    def run(text: str, ruleset: str) -> None:
        if not encodable(text):  # what a request carries is text: its bytes not UTF-8 are decoded (the page's test)
            text = text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
        fuzz_inputs()
        tournament = tournaments[ruleset]
        with transaction.atomic():
            before = counts()
            form = CsvForm(data={"text": text}, tournament=tournament)
            if not form.is_valid() or form.bad_rows:
                assert form.errors or form.bad_rows
                assert all(row.errors for row in form.bad_rows)
                assert counts() == before, "a refused list saved rows"
            else:
                rows = [(dict(row.form.cleaned_data), row.team) for row in form.rows if row.form]
                assert rows and len(rows) == len(form.rows)
                try:
                    add_players(tournament, rows)
                except registration.RegistrationError:
                    assert counts() == before, "a refused list saved rows"
                else:
                    after = counts()
                    assert after["Participant"] == before["Participant"] + len(rows)
                    assert after["Player"] == before["Player"] + len(rows)
            transaction.set_rollback(True)

    run()


def body(data: dict[str, str]) -> bytes:
    """A urlencoded body as a browser sends it; an unpaired surrogate as the bytes it would be (not UTF-8)."""
    return "&".join(f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in data.items()).encode()


def test_the_page_previews_and_imports_whole_or_nothing(tournaments: dict[str, Any], organizer: Any,
                                                        fuzz_inputs: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer)

    @settings(FUZZ, max_examples=450)
    @given(text=LISTS, ruleset=st.sampled_from(RULESETS), confirm=st.sampled_from(["", "1", "1", "yes"]),
           upload=st.integers(0, 3), encoding=st.sampled_from(["utf-8", "utf-8-sig", "cp1251", "utf-16"]))
    def run(text: str, ruleset: str, confirm: str, upload: int, encoding: str) -> None:
        fuzz_inputs()
        url = f"/t/{tournaments[ruleset].slug}/participants/import/"
        with transaction.atomic():
            before = counts()
            if upload == 0:  # an uploaded file, in some encoding
                raw = text.encode(encoding, "surrogatepass") if encoding.startswith("utf-8") else \
                    text.encode(encoding, "replace")
                data: dict[str, Any] = {"upload": SimpleUploadedFile("list.csv", raw, content_type="text/csv")}
                if confirm:
                    data["confirm"] = confirm
                response = client.post(url, data)
            else:
                fields = {"text": text, **({"confirm": confirm} if confirm else {})}
                response = client.post(url, body(fields), content_type="application/x-www-form-urlencoded")
            assert response.status_code in (200, 302, 400), (response.status_code, text[:300])
            if response.status_code != 302:
                assert counts() == before, ("not imported, yet rows changed", text[:300])
            else:
                assert confirm == "1", "imported without the confirmation"
                assert counts()["Participant"] > before["Participant"]
            transaction.set_rollback(True)

    run()
