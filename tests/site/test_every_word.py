"""Every word in the user's language: no raw id, enum value, Python repr, ISO timestamp or
6-decimal number reaches a page, a fragment or an export, in Russian or in English, and no English sentence
reaches a Russian page.

Two kinds of worlds are walked, every URL pattern of the app (``test_permission_walk.app_urls``) filled from
them:

- the permission walk's fixture tournament (a fiim round in play: a draft protocol with a pending protest,
  a seating job), as its organizer, the judge of table 1 and an anonymous visitor;
- a tournament of every ruleset imported from a generated file (two stages, a disqualification), one with
  its standings published and after the last round, one hidden with a round in play; a played game of each has
  fouls and a removal with their reasons, and two protests (one from a file with its ISO time, upheld; one
  recorded by the web, rejected).

Every answer 200 is read in ``ru`` and ``en`` (the ``django_language`` cookie), an HTML page also as an
htmx fragment (``HX-Request: true``); its visible text (no tags, scripts, styles, attribute values but
``title``, ``placeholder``, ``aria-label``, ``alt``, ``data-tap-label`` and a text field's value), a CSV's or an
XLSX's text cells, are checked by ``problems``. PDFs are skipped: they render the print pages' HTML, walked here.

It also covers what a newcomer once still read: snake_case ids anywhere (a parameter's name, a seating method's
prefilled in a form), a team's or an entry's file id (``t1``), a value rounded for reading on a page (``0,266667``
for 4/15: the worlds have a removal costing 2/3), the regulation's English summary on the Russian rules page (its
``lang`` quotation is read there), «одноклубники» for teammates, «от 18 до — лет», «он(а)» (a judge's account is
made), «не начат из 1 запланированного» (the worlds have a stage planned but not started), and the judge's taps
the offline queue would list by their action's id.
"""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import json
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from openpyxl import load_workbook

from games.reasons import LABELS as REASONS
from scoring.seating import METHODS
from tests.site.page_matrix_world import source_data, with_round_in_play
from tests.site.test_permission_walk import EXPECTED, app_urls, url_of
from tests.site.test_permission_walk import world as world

pytestmark = pytest.mark.django_db

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "ru" / "LC_MESSAGES" / "django.po"

LANGUAGES = ("ru", "en")

# Answers that show ids on purpose, and why; never read.
NOT_WORDS: dict[str, str] = {
    "exchange:export": "the tournament file: JSON whose ids are its format (docs/tournament-file.md)",
    "exchange:export_platform": "a rating platform's document: its field names and codes are the platform's",
    "api:schema": "the API's OpenAPI schema: field names and enum values are the interface",
    "api:tournaments": "API JSON: enum values are the interface (labels come with them where shown)",
    "api:tournament": "API JSON", "api:stages": "API JSON", "api:rounds": "API JSON", "api:seating": "API JSON",
    "api:games": "API JSON", "api:standings": "API JSON", "api:awards": "API JSON", "api:protocol": "API JSON",
    "api:export": "a rating platform's document through the API: the platform's field names and codes",
    "paper:seating_pdf": "a PDF of the print page walked here", "paper:forms_pdf": "a PDF of the print page",
    "paper:results_pdf": "a PDF of the print page", "paper:diplomas_pdf": "a PDF of the print page",
    "paper:application_form_pdf": "a PDF of the print page",
    "games:private_link": "signs its holder in and sends them on to the judge's screen, walked here",
    "site:start": "a redirect to the judge's screen or the list, both walked here",
    "notices_public:telegram": "a redirect to the bot's deep link (t.me), or back to the private page walked here",
}

# Actions, not pages: a GET is refused or sent on (``test_page_matrix.NOT_PAGES``).
POST_ONLY = frozenset({
    "tournaments:participant_remove", "tournaments:participant_disqualify", "tournaments:participant_reinstate",
    "tournaments:decide", "tournaments:decide_many", "tournaments:settings", "running:round_start",
    "public:standings_visibility", "api:token", "api:submit", "api:confirm", "api:reopen", "games:state",
    "games:decide", "logout", "set_language", "games:desk_action",
    ":favicon.ico",  # a redirect to the icon: no words
})

# The player registry's site-level pages, read as a superuser: no organizer may open them.
REGISTRY_PAGES = frozenset({"site:duplicate_players", "site:merge_players", "site:player"})

# Found here in files another branch owns, waiting for their fix: (a URL's pattern, a problem) -> where and why.
# Remove an entry once the fix is in: the test then holds it.
KNOWN_ELSEWHERE: dict[tuple[str, str], str] = {}  # (url, problem) → why it is left, with its file and line


def known_elsewhere(url: str, problem: str) -> bool:
    return any(re.search(where, url) and re.match(what, problem) for where, what in KNOWN_ELSEWHERE)


# --- the raw tokens --------------------------------------------------------------------------------------------

ROLE_IDS = ("civilian", "sheriff", "don", "mafia", "doctor", "maniac")
SIDE_IDS = ("red", "black")
STATE_IDS = ("draft", "submitted", "confirmed")
RULESET_IDS = ("fiim", "kostroma", "tomsk", "zvezdy")
DECISION_IDS = ("pending", "upheld", "rejected")
LEFT_IDS = ("voted", "killed", "removed")  # how a player left the table (games.models.Left)


def word_re(words: Any, flags: int = 0) -> re.Pattern[str]:
    return re.compile(r"(?<![\w-])(" + "|".join(sorted(map(re.escape, words), key=len, reverse=True)) +
                      r")(?![\w-])", flags)


# ids no language has as a word: snake_case reason and method ids, everywhere
CODE_IDS = word_re([*(r for r in REASONS if "_" in r or r[-1].isdigit()), *(m for m in METHODS if "_" in m)])
# on a Russian page a Latin id of any kind is a raw value (case-insensitive: "Sheriff" is as English)
RU_IDS = word_re([*ROLE_IDS, *SIDE_IDS, *STATE_IDS, *RULESET_IDS, *DECISION_IDS, *LEFT_IDS, *REASONS, *METHODS],
                 re.I)
# in English, the ruleset ids in lower case (the labels say "FIIM", "Tomsk")
EN_IDS = word_re(RULESET_IDS)
REPR = re.compile(r"\[['\"]|\{['\"]|(?<![\w-])(None|True|False)(?![\w-])|<\w+ object at|\bQuerySet\b")
ISO = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")
SIX_DECIMALS = re.compile(r"\d[.,]\d*000000")
# a value rounded for reading (2/3 as 0,666667): a page writes a fraction exactly, as the app writes it everywhere
#; a CSV or a workbook keeps the decimal a spreadsheet reads (``texts_of``: ``ROUNDED`` is for pages)
ROUNDED = re.compile(r"\d[.,]\d{5,}")
# snake_case ids (a parameter's name, a seating method's) in either language; an entry's or a team's file id (t1,
# p0003): an id, not a word
SNAKE = re.compile(r"(?<![\w./@:-])[a-z]+(?:_[a-z0-9]+)+(?![\w/@-])")
# the CSV list's English column names, which the import page gives on purpose (the file's own header)
CSV_COLUMNS = frozenset(c for c in ("surname", "first_name", "patronymic", "nickname", "city", "club", "birth_date",
                                    "phone", "team") if "_" in c)
FILE_ID = re.compile(r"(?<![\w./@:-])[a-z]\d{1,4}(?![\w/@-])")
# Russian that reads wrong: clubs for a team's members, an empty bound of ages, a gendered ending in
# brackets, a stage "not started of 1 planned"
RU_WORDS = [(re.compile(r"одноклубник\w*", re.I), "teammates are not clubmates"),
            (re.compile(r"(?:от|до) —"), "an age without its bound"),
            (re.compile(r"\w+\((?:а|ла|ло|и|ы|ая)\)"), "a gendered ending in brackets"),
            (re.compile(r"не начат\w*\s+из\b"), "not started of N planned")]
# a number with a decimal point: not part of a date (15.03.2025, 15.03), a time or a version (1.2.3)
RU_POINT = re.compile(r"(?<![\d.,:/])\d+\.\d{1,2}(?![\d.:/])(?!\s*(?:\d{2,4}|г\.|года?\b))")
# a clause of a regulation (приложение 1.1, п. 4.5, «по Положению (2.1)»): a number, not a decimal
CLAUSE = re.compile(r"(?:[Пп]риложени\w*|[Пп]ункт\w*|\bп\.|[Рр]аздел\w*|§|[Пп]оложени\w*\s*\()\s*\d+(?:\.\d+)+")
# a decimal comma in English: "2,5" (a thousands comma has three digits; a list "1, 2" a space)
EN_COMMA = re.compile(r"(?<![\d.,])\d+,\d{1,2}(?![\d,])")
PLACEHOLDER = re.compile(r"%\(\w+\)s")  # a script fills it
# English words a Russian page has no business with; three in a row (one of them a stopword) is a sentence
STOPWORDS = frozenset({"the", "and", "of", "is", "a", "an", "to", "by", "in", "on", "at", "for", "with", "from",
    "or", "not", "no", "it", "this", "that", "are", "was", "be", "has", "have", "as", "all", "any", "its", "their",
    "his", "her", "one", "each", "every", "when", "where", "which", "who", "while", "after", "before", "than",
    "then", "there", "here", "yes", "shown", "game", "games", "player", "players", "points", "round", "rounds",
    "stage", "table", "seat", "seats"})
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'’]*")


def english_runs(text: str) -> Iterator[str]:
    """Runs of 3+ Latin words (only spaces and light punctuation between), at least one of them a stopword."""
    for match in re.finditer(r"[A-Za-z][A-Za-z'’]*(?:[ ,:;()\"«»-]+[A-Za-z][A-Za-z'’]*){2,}", text):
        words = LATIN_WORD.findall(match.group())
        if sum(w.lower() in STOPWORDS for w in words) >= 1 and len(words) >= 3:
            yield match.group()


@functools.cache
def russian_messages() -> frozenset[str]:
    """The catalogue's Russian sentences (whole messages, or the parts between their placeholders), long enough
    not to be a player's name: one of them on an English page was stored or built in the other language."""
    import polib

    found: set[str] = set()
    for entry in polib.pofile(str(CATALOGUE)):
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            for part in re.split(r"%\(\w+\)[sd]|\{\w*\}|%[sd]|\n", text):
                part = part.strip(" .,:;—-()«»")
                if len(part) >= 16 and " " in part and re.search("[а-яё]", part):
                    found.add(part)
    return frozenset(found)


@functools.cache
def russian_by_start() -> dict[str, list[str]]:
    """``russian_messages`` by their first 8 characters: a run is looked up at each word's start, not scanned."""
    index: dict[str, list[str]] = {}
    for message in russian_messages():
        index.setdefault(message[:8], []).append(message)
    return index


def russian_in(text: str) -> list[str]:
    index = russian_by_start()
    found = set()
    for run in re.findall(r"[А-Яа-яЁё][А-Яа-яЁё0-9 ,.:;()«»—-]{15,}", text):
        for start in (0, *(m.end() for m in re.finditer(r"[\s(«]+", run))):
            found.update(m for m in index.get(run[start:start + 8], ()) if run.startswith(m, start))
    return sorted(found)


def problems(text: str, language: str, page: bool = True) -> list[str]:
    """What is wrong in ``text`` read in ``language``; ``page``: a page's text (a CSV or a workbook keeps its
    decimals)."""
    found: list[str] = []
    if text.startswith("CSV: "):
        return [text]
    checks = [(CODE_IDS, "id"), (REPR, "repr"), (ISO, "ISO time"), (SIX_DECIMALS, "6 decimals"), (SNAKE, "id")]
    # a page's words; a CSV or a workbook keeps the file's ids (a player's p0003) and the decimal a spreadsheet reads
    for pattern, what in [*checks, *([(ROUNDED, "rounded"), (FILE_ID, "file id")] if page else [])]:
        found += [f"{what} {m.group()!r}" for m in pattern.finditer(text) if m.group() not in CSV_COLUMNS]
    if language == "ru":
        found += [f"{what} {m.group()!r}" for pattern, what in RU_WORDS for m in pattern.finditer(text)]
        found += [f"id {m.group()!r}" for m in RU_IDS.finditer(text)]
        found += [f"decimal point {m.group()!r}" for m in RU_POINT.finditer(CLAUSE.sub(" ", text))]
        found += [f"English {run!r}" for run in english_runs(text)]
    else:
        found += [f"id {m.group()!r}" for m in EN_IDS.finditer(text)]
        found += [f"decimal comma {m.group()!r}" for m in EN_COMMA.finditer(text)]
        found += [f"Russian {m!r}" for m in russian_in(text)]
    return list(dict.fromkeys(found))  # an id both patterns find, said once


def context_of(text: str, token: str) -> str:
    at = text.find(token.split("'")[1] if "'" in token else token)
    return text[max(0, at - 50):at + 60] if at >= 0 else ""


# --- the visible text -----------------------------------------------------------------------------------------


class Visible(HTMLParser):
    """The text a reader sees: data outside scripts and styles, the attributes a browser shows, a text field's value
    (what a form proposes is read as it stands: "random, random, swiss_tens" was) and the words the
    judge's offline queue shows for a tap (``data-tap-label``)."""

    SHOWN = ("title", "placeholder", "aria-label", "alt", "data-tap-label")
    # The words the pages' scripts show (static/js): a request's failure, a text's limit, the lineup's and the
    # check-in's answers; their %(name)s placeholders are filled by the script.
    SCRIPTS_SHOW = ("data-absent", "data-failed", "data-left", "data-more", "data-no", "data-none", "data-offline",
                    "data-over", "data-page-text", "data-place", "data-refused", "data-sending", "data-several",
                    "data-showing", "data-text", "data-toggle", "data-unnamed", "data-waiting", "data-yes")
    FIELDS = ("text", "search", "")  # a number field's value the browser writes in the reader's format itself

    def __init__(self, json_values: bool = False) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden = 0
        self.json_values = json_values  # the parameters' structured fields hold JSON (docs/rules/parameters.md)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style", "template"):
            self.hidden += 1
        self.parts += [f" {value} " for name, value in attrs if name in self.SHOWN and value]
        self.parts += [f" | {PLACEHOLDER.sub(' ', value)} | " for name, value in attrs
                       if name in self.SCRIPTS_SHOW and value]
        given = dict(attrs)
        if (tag == "input" and (given.get("type") or "") in self.FIELDS and given.get("value")
                and "slug" not in (given.get("name") or "")):  # an address's short name is an id by nature
            value = str(given["value"])
            self.parts.append(f" | {JSON_VALUE.sub(' ', value) if self.json_values else value} | ")
        if tag in ("br", "td", "th", "li", "p", "div", "option", "tr"):
            self.parts.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "template") and self.hidden:
            self.hidden -= 1
        self.parts.append(" ")

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            self.parts.append(data)


# What a page shows on purpose, cut before reading: ``<code>`` holding an address, a command or a password (a
# parameter's name in ``<code>`` is an id: the rules page names parameters by their labels); an element
# that declares its own language with ``lang`` is a name or a platform's own line (an exports page), except on the
# rules page, which quotes nothing: its summary is the app's own, translated (it showed the ruleset's English
# docstring, ids and all).
ADDRESS_CODE = re.compile(r'<code\b[^>]*\bid="new-password"[^>]*>[^<]*</code>|<code\b[^>]*>[^<]*[/\s][^<]*</code>|'
                          r'<(\w+)\b[^>]*\btranslate="no"[^>]*>[^<]*</\1>')
QUOTED = re.compile(r"<(?!html\b)(\w+)\b[^>]*\blang=\"[^\"]*\"[^>]*>.*?</\1>", re.S)
# The structured parameters are typed as JSON (docs/rules/parameters.md): their fields' values and the hints under
# them show JSON, whose keys are ids and whose numbers have a point, on the two pages of the parameters' form; the
# regulation's value under each is in words.
JSON_PAGES = ("/new/", "/parameters/")
JSON_VALUE = re.compile(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|\[[-\d., ]*\]")


def json_hints() -> list[str]:
    from tournaments.forms.params import JSON_HINTS

    return sorted((str(hint) for hint in JSON_HINTS.values()), key=len, reverse=True)


def visible(html: str, url: str = "") -> str:
    parser = Visible(json_values=url.endswith(JSON_PAGES))
    html = ADDRESS_CODE.sub(" ", html)
    if not url.endswith("/rules/"):
        html = QUOTED.sub(" ", html)
    parser.feed(html)
    text = " ".join("".join(parser.parts).split())
    if url.endswith(JSON_PAGES):
        for hint in json_hints():
            text = text.replace(hint, " ")
    return text


def texts_of(response: Any, language: str, url: str) -> list[str]:
    """The answer's readable texts: a page's visible text, a CSV's or a workbook's text cells (one a line).
    A Russian CSV is separated by ";" (Excel in a Russian locale reads "," files as one column), an English
    one by ","; its first line is the header (more than one cell)."""
    kind = response.get("Content-Type", "")
    content = b"".join(response.streaming_content) if response.streaming else response.content
    if "text/csv" in kind:
        text = content.decode("utf-8-sig")
        rows = list(csv.reader(io.StringIO(text), delimiter=";" if language == "ru" else ","))
        header = ["CSV: the first line is not a header in its language's separator"] if len(rows[0]) < 2 else []
        return header + [" | ".join(row) for row in rows]
    if "spreadsheetml" in kind:
        book = load_workbook(io.BytesIO(content))
        return [" | ".join(str(v) for v in row if isinstance(v, str)) for sheet in book.worksheets
                for row in sheet.iter_rows(values_only=True)] + [sheet.title for sheet in book.worksheets]
    if "json" in kind or "pdf" in kind:
        return []
    if "text/calendar" in kind:  # iCalendar (entries/): its property names are the format, its values the words
        from icalendar import Calendar

        return [re.sub(r"https?://\S+", "", str(part[key])) for part in Calendar.from_ical(content).walk()
                for key in ("X-WR-CALNAME", "SUMMARY", "DESCRIPTION", "LOCATION") if key in part]
    return [visible(content.decode(), url)]


# --- the walk -------------------------------------------------------------------------------------------------


def read(client: Client, url: str, language: str, label: str, failures: list[str], htmx: bool = True) -> bool:
    """Reads the answer into ``failures``; False if it is no 200 (nothing to read)."""
    client.cookies["django_language"] = language
    response = client.get(url)
    if response.status_code != 200:
        return False
    variants = [("", response)]
    if htmx and "text/html" in response.get("Content-Type", ""):
        fragment = client.get(url, headers={"HX-Request": "true"})
        if fragment.status_code == 200 and fragment.content != response.content:
            variants.append((" (htmx)", fragment))
    for suffix, answer in variants:
        page = "text/html" in answer.get("Content-Type", "")
        for text in texts_of(answer, language, url):
            for problem in problems(text, language, page):
                if known_elsewhere(url, problem):
                    continue
                failures.append(f"{language} {label} {url}{suffix}: {problem} … {context_of(text, problem)}")
    return True


def routes() -> dict[str, str]:
    return {name: route for name, route in app_urls().items() if name not in NOT_WORDS}


def test_the_fixture_tournament(world: dict[str, Any]) -> None:
    """The permission walk's tournament, as each role that may GET a page (by ``EXPECTED``)."""
    from django.contrib.auth.models import User

    from games.models import Protest
    from tournaments.models import Tournament

    # the fixture's own words (its name, the protest, the user names) in Russian: only the app's are read
    Tournament.objects.filter(slug=world["values"]["slug"]).update(name="Кубок ФИИМ 2025")
    Protest.objects.filter(pk=world["values"]["protest"]).update(text="Месту 1 не дали слова")
    for number, user in enumerate(u for u in world["users"].values() if u is not None):
        User.objects.filter(pk=user.pk).update(username=f"судья{number}")
    failures: list[str] = []
    roles = {"organizer": 6, "judge": 3, "anonymous": 0}
    for name, route in routes().items():
        url = url_of(name, route, world)
        for role, column in roles.items():
            if EXPECTED[name][0][column] != 200:
                continue
            client = Client()
            if world["users"][role] is not None:
                client.force_login(world["users"][role])
            for language in LANGUAGES:
                read(client, url, language, role, failures)
    judge_taps(world, failures)
    judge_accounts(world, failures)
    organizer_posts(world, failures)
    assert not failures, "\n".join(sorted(set(failures)))


def judge_taps(world: dict[str, Any], failures: list[str]) -> None:
    """What the judge's screen says after each tap (htmx): fouls with their reasons, a removal, a vote, a kill,
    the fourth foul, a return, best, the winner; in each language from a fresh protocol (roles given)."""
    from games.models import Game
    from games.reasons import FOULS, REMOVALS
    from tournaments.models import Tournament

    # points for a removal (as kostroma's −1, zvezdy's −3), a fraction: the removal's message names them
    Tournament.objects.filter(slug=world["values"]["slug"]).update(params={"removal_points": -1.5})
    judge = Client()
    judge.force_login(world["users"]["judge"])
    screen = url_of("games:table", app_urls()["games:table"], world)
    game = Game.objects.get(table_id=world["values"]["table"])
    cards = dict(enumerate(["don", "mafia", "mafia", "sheriff"], start=1))
    taps = [{"action": "foul", "seat": "1", "reason": FOULS["fiim"][0]},
            {"action": "remove", "seat": "2", "removal": REMOVALS["fiim"][-2]}, {"action": "voted", "seat": "3"},
            {"action": "phase", "value": "next"}, {"action": "killed", "seat": "4"},
            *({"action": "foul", "seat": "5", "reason": FOULS["fiim"][1]} for _ in range(4)),
            {"action": "back", "seat": "2"}, {"action": "best", "seat": "6"}, {"action": "winner", "value": "red"}]
    for language in LANGUAGES:
        judge.cookies["django_language"] = language
        game.refresh_from_db()
        judge.post(screen, {"action": "roles", "version": game.version,
                            **{f"s{n}_role": cards.get(n, "civilian") for n in range(1, 11)}})
        for tap in taps:
            game.refresh_from_db()
            response = judge.post(screen, {**tap, "version": game.version}, headers={"HX-Request": "true"})
            for problem in problems(visible(response.content.decode()), language) + unnamed_taps(response):
                if not known_elsewhere(screen, problem):
                    failures.append(f"{language} judge tap {tap}: {problem}")
        game.seats.update(fouls=0, foul_reasons=[], removed=False, removal_reason="", left="", left_number=None)
        Game.objects.filter(pk=game.pk).update(phase=1, winner="")


class Taps(HTMLParser):
    """The judge's screen's taps that would be listed in the offline queue by their action's id ("phase next",
    "submit_ask":): a form sent as a tap without ``data-tap-label``, a button without words."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.unnamed: list[str] = []
        self.open: list[tuple[dict[str, str | None], list[str]]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        given = dict(attrs)
        if tag == "form" and "data-tap-form" in given and not given.get("data-tap-label"):
            self.unnamed.append(f"a tap without words: form {given.get('id') or given}")
        if "data-tap" in given and "data-tap-controls" not in given:
            self.open.append((given, []))

    def handle_data(self, data: str) -> None:
        for _given, text in self.open:
            text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self.open:
            given, text = self.open.pop()
            if not (given.get("data-tap-label") or given.get("aria-label") or "".join(text).strip()):
                self.unnamed.append(f"a tap without words: {given.get('data-tap')}")


def unnamed_taps(response: Any) -> list[str]:
    parser = Taps()
    parser.feed(response.content.decode())
    return parser.unnamed


def judge_accounts(world: dict[str, Any], failures: list[str]) -> None:
    """The message of a judge's account made by the organizer ("он(а) — судья"), in each language."""
    organizer = Client()
    organizer.force_login(world["users"]["organizer"])
    url = url_of("games:staff", app_urls()["games:staff"], world)
    for number, language in enumerate(LANGUAGES):
        organizer.cookies["django_language"] = language
        response = organizer.post(url, {"action": "account", "username": f"words-judge-{number}",
                                        "name": "Судья Словарёв", "password_mode": "link", "link": "on"},
                                 follow=True)
        assert response.status_code == 200
        failures += [f"{language} judge's account: {problem}"
                     for problem in problems(visible(response.content.decode(), url), language)]


def organizer_posts(world: dict[str, Any], failures: list[str]) -> None:
    """The messages and the form errors: every URL posted empty by the organizer (its refusals, its "saved"), the
    answer read after its redirect; last, as the posts change the tournament (the logout would end the walk)."""
    organizer = Client()
    organizer.force_login(world["users"]["organizer"])
    for language in LANGUAGES:
        organizer.cookies["django_language"] = language
        for name, route in routes().items():
            if name in ("logout", "set_language"):
                continue
            url = url_of(name, route, world)
            response = organizer.post(url, follow=True)
            if response.status_code in (200, 400) and "text/html" in response.get("Content-Type", ""):
                shown = response.redirect_chain[-1][0] if response.redirect_chain else url
                for problem in problems(visible(response.content.decode(), shown), language):
                    failures.append(f"{language} organizer POST {name}: {problem}")


# --- the imported tournaments ---------------------------------------------------------------------------------


def enrich(tournament: Any, organizer: Any) -> dict[str, Any]:
    """A played game's fouls and removal with their reasons, two protests; the URL values of the world."""
    from games.models import Game, Protest
    from games.reasons import FOULS, REMOVALS
    from series.models import Series, SeriesTournament
    from tournaments.models import SeatingJob, Table

    tables = list(Table.objects.filter(round__stage__tournament=tournament)
                  .order_by("round__stage__order", "round__number", "number").select_related("round__stage"))
    played = Game.objects.filter(table__round__stage__tournament=tournament).exclude(winner="") \
        .order_by("table__round__stage__order", "-table__round__number", "table__number").first()
    assert played is not None
    seats = list(played.seats.order_by("seat__number"))
    fouls = FOULS[tournament.ruleset]
    seats[0].fouls, seats[0].foul_reasons = 2, list(fouls[:2])
    seats[0].save()
    seats[1].removed, seats[1].removal_reason = True, REMOVALS[tournament.ruleset][0]
    seats[1].left, seats[1].left_number = "removed", 2
    seats[1].save()
    seats[2].left, seats[2].left_number = "killed", 1
    seats[2].save()
    Protest.objects.create(game=played, seat=3, text="Игрока не выслушали", lodged_at="2025-05-01T15:20:00+03:00",
                           decision="upheld", decided_by="Главный судья")
    Protest.objects.create(game=played, seat=4, text="Не та ночь",
                           recorded_at=dt.datetime(2025, 5, 1, 12, 30, tzinfo=dt.UTC), decision="rejected",
                           decided_at=dt.datetime(2025, 5, 1, 12, 45, tzinfo=dt.UTC),
                           reason="Правила соблюдены", decider=organizer, recorded_by=organizer)
    protest = Protest.objects.create(game=played, seat=5, text="Ждёт решения")
    # words a newcomer once read wrong: a removal costing 2/3 of a point (written exactly, not 0,666667), a team with
    # its file id (t1, never shown), a stage planned but not started (its rounds in words)
    from tournaments.models import Stage, Team

    tournament.params = {**(tournament.params or {}), "removal_points": "-2/3"}
    tournament.save(update_fields=["params"])
    if not tournament.teams.exists():
        team = Team.objects.create(tournament=tournament, name="Сибирь", ext_id="t1")
        tournament.participants.filter(pk__in=[s.seat.participant_id for s in seats[:2]]).update(team=team)
    Stage.objects.create(tournament=tournament, ext_id="extra", name="Дополнительный этап", kind="final",
                         order=tournament.stages.count() + 1, planned_rounds=1)
    stage = tables[0].round.stage
    job = SeatingJob.objects.create(stage=stage, method="balanced", seed=1, created_by=organizer)
    from checkin import services as checkin
    from checkin.models import MarkSource

    check_in = checkin.open_check_in(tournament, organizer)  # the day's: its card on every round page too
    for person, source in zip(checkin.expected(check_in)[:2], (MarkSource.ORGANIZER, MarkSource.SELF), strict=True):
        checkin.tick(check_in, person.pk, True, by=organizer, source=source)
    participants = list(tournament.participants.order_by("number"))
    disqualified = [p for p in participants if p.ext_id == "p0003"]
    chosen = [played.table, tables[0], tables[-1]]
    combos = [{"stage": t.round.stage.ext_id, "number": t.round.number, "table": t.pk, "game": t.number}
              for t in chosen]
    people = [{"pk": p.pk, "player": p.ext_id, "registry": p.player_id} for p in [participants[0], *disqualified]]
    league = Series.objects.create(name="Лига", slug=f"league-{tournament.slug}")  # a series holding it
    league.organizers.add(organizer)
    SeriesTournament.objects.create(series=league, tournament=tournament)
    return {"slug": tournament.slug, "combos": combos, "people": people, "protest": protest.pk, "job": job.pk,
            "series": league.slug, "check_in": check_in}


def urls_of(name: str, route: str, values: dict[str, Any]) -> list[str]:
    params = set(re.findall(r"<(?:\w+:)?(\w+)>", route))
    urls = []
    for combo, person in product(values["combos"], values["people"]):
        filled = {"slug": values["slug"], **combo, **person, "protest": values["protest"], "decision": "accept",
                  "series": values["series"]}
        if name == "running:job":
            filled["pk"] = values["job"]
        if name.startswith("running:checkin"):
            check_in = values["check_in"]
            filled["pk"] = check_in.pk
            filled["token"] = check_in.door_token if name == "running:checkin_self" else check_in.volunteer_token
        if name.startswith("games:overlay"):  # the stream overlay's secret link, table number by table number
            from stream.services import overlays
            from tournaments.models import Tournament

            filled["token"] = overlays.open_overlay(Tournament.objects.get(slug=values["slug"])).token
            filled["number"] = combo["game"]
        if name == "public:game":
            filled["table"] = combo["game"]
        if name.startswith(("entries_public:me", "entries_public:my_calendar", "entries:badge",
                            "notices_public:unsubscribe")):
            from entries.models import Entry  # a player's private link, and their badge (entries/)
            from entries.services import registering
            from tournaments.models import Tournament

            registering.ensure_entries(Tournament.objects.get(slug=values["slug"]))
            entry = Entry.objects.get(participant_id=person["pk"])
            filled["token"], filled["pk"] = entry.token, entry.pk if name == "entries:badge" else filled["pk"]
        if name == "ratings:player":  # the registry's player, not the tournament's id
            filled["player"] = person["registry"]
        if name == "site:player":
            from tournaments.models import Participant

            filled["pk"] = Participant.objects.get(pk=filled["pk"]).player_id
        urls.append("/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m, filled=filled: str(filled[m.group(1)]), route))
    unique = list(dict.fromkeys(urls))
    return unique if params else unique[:1]


@pytest.mark.parametrize("moment", ["done", "live"])
@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "tomsk", "zvezdy"])
def test_every_ruleset(ruleset: str, moment: str, organizer: Any, settings: Any) -> None:
    """One world a test: published after the last round (``done``), or hidden with a round in play (``live``)."""
    from django.contrib.auth.models import User
    from django.core.cache import cache

    from exchange.files import import_text

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"words-{ruleset}-{moment}"}}
    cache.clear()
    data = source_data("generated", ruleset)
    hidden = moment == "live"
    content = with_round_in_play(data)[0] if hidden else data
    label = f"w-{ruleset}-{moment}"
    failures: list[str] = []
    read_names: set[str] = set()
    content = {**content, "tournament": {**content["tournament"], "standings_hidden": hidden,
                                         "name": "Турнир для проверки слов"}}
    tournament = import_text(json.dumps(content), slug=label.replace("fiim", "a").replace("kostroma", "b")
                             .replace("tomsk", "c").replace("zvezdy", "d"), organizers=[organizer])
    values = enrich(tournament, organizer)
    owner = Client()
    owner.force_login(organizer)
    admin = Client()
    admin.force_login(User.objects.filter(is_superuser=True).first()
                      or User.objects.create_superuser("words-admin", "words@example.org", "pw-12345!"))
    for name, route in routes().items():
        for url in urls_of(name, route, values):
            for language in LANGUAGES:
                client = admin if name in REGISTRY_PAGES or name == "rating_rules:rules" else owner
                if read(client, url, language, f"{label} organizer", failures):
                    read_names.add(name)
                if not hidden and name.startswith(("public:", "entries_public:", "paper:results", "paper:stage")):
                    read(Client(), url, language, f"{label} anonymous", failures, htmx=False)
    assert not failures, "\n".join(sorted(set(failures)))
    # every page was read: none answered only a refusal or a redirect (the teams' CSV: where there are teams)
    unread = set(routes()) - read_names - POST_ONLY - (set() if tournament.teams.exists() else {"paper:teams_csv"})
    unread -= set() if ruleset == "kostroma" else {"paper:application_form"}  # annex 1.1: where players apply
    assert not unread, sorted(unread)


# --- the checks themselves ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "language", "expected"), [
    ("Роль: sheriff", "ru", ["id 'sheriff'"]),
    ("Баллы: 2.5", "ru", ["decimal point '2.5'"]),
    ("Приложение 1.1 к Положению; по Положению (2.1) участвуют", "ru", []),
    ("Баллы (2.5)", "ru", ["decimal point '2.5'"]),
    ("Дата 15.03.2025, время 12:30, 2,5 балла", "ru", []),
    ("Points: 2,5", "en", ["decimal comma '2,5'"]),
    ("['a']", "en", ["repr \"['\""]),
    ("2025-05-01T15:20:00+03:00", "en", ["ISO time '2025-05-01T15:20'"]),
    ("0.333333000000", "en", ["6 decimals '0.333333000000'", "rounded '0.333333000000'"]),
    ("Протест: the judge was away", "ru", ["English 'the judge was away'"]),
    ("Судья Don Corleone", "en", []),
    ("hand_off_vote", "en", ["id 'hand_off_vote'"]),
    ("Seating: Отменена организатором; ничего не сохранено.", "en",
     ["Russian 'Отменена организатором; ничего не сохранено'"]),
    ("Игрок Отменена Организатором-Петров", "en", []),
    # words a newcomer once read wrong
    ("Возраст: от 18 до — лет", "ru", ["an age without its bound 'до —'"]),
    ("товарищи: одноклубники за одним столом", "ru", ["teammates are not clubmates 'одноклубники'"]),
    ("Учётная запись создана, он(а) — судья", "ru", ["a gendered ending in brackets 'он(а)'"]),
    ("не начат из 1 запланированного", "ru", ["not started of N planned 'не начат из'"]),
    ("Ci: 0,266667", "ru", ["rounded '0,266667'"]),
    ("Ci: 4/15", "ru", []),
    ("random, random, swiss_tens", "en", ["id 'swiss_tens'"]),
    ("Сибирь t1", "ru", ["file id 't1'"]),
    ("Points for a win absence_points", "en", ["id 'absence_points'"]),
])
def test_problems(text: str, language: str, expected: list[str]) -> None:
    assert problems(text, language) == expected


def test_the_words_a_script_shows_are_read() -> None:
    """An English sentence in a data-* attribute a script shows (here the text limit's line) is found on a Russian
    page; its placeholders are not words."""
    reader = Visible()
    reader.feed('<div id="text-limits" hidden data-over="%(n)s characters too many (at most %(limit)s): shorten the '
                'text" data-left="Осталось знаков: %(n)s из %(limit)s"></div>')
    text = " ".join(reader.parts)
    assert problems(text, "ru") == ["English 'characters too many (at most  ): shorten the text'"]
    assert "%(" not in text


def test_a_csv_keeps_its_decimals() -> None:
    """A CSV keeps the file's ids and the decimal a spreadsheet reads; a page says neither."""
    assert problems("p1 | 0.666667", "en", page=False) == []
    assert problems("p1 | 0.666667", "en") == ["rounded '0.666667'", "file id 'p1'"]


@pytest.mark.parametrize(("value", "expected"), [
    ("2025-05-01T15:20:00+03:00", "01.05.2025 15:20"),
    ("2025-05-01T12:20:00Z", "01.05.2025 15:20"),  # UTC in a file, Moscow time on the page
    (dt.datetime(2025, 5, 1, 12, 20, tzinfo=dt.UTC), "01.05.2025 15:20"),
    ("2025-05-01", "01.05.2025"),
    ("after round 3", "after round 3"),  # a file's free text stays as written
    (None, ""),
])
def test_local_moment(value: Any, expected: str, settings: Any) -> None:
    from tournaments.labels import local_moment

    settings.TIME_ZONE = "Europe/Moscow"
    assert local_moment(value) == expected
