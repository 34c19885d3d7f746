"""Every form of the app, fuzzed: each POST URL (from the resolver, so a new one joins) gets generated field
sets built from the fields its forms really have (harvested from every page of a played tournament: inputs,
selects with their options, buttons, htmx taps) mixed with bad values, as a user who is the tournament's
organizer and its chief judge. Each input runs in a savepoint rolled back afterwards, so every one starts from
the same tournament. An input must never raise (a server error); one that is refused (a 4xx, or an error
message after a redirect) must leave every row as it was."""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

import pytest
from django.apps import apps
from django.contrib.messages import get_messages
from django.contrib.messages.constants import ERROR
from django.db import connection, transaction
from django.test import Client
from django.urls import Resolver404, resolve
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import fileio
from scoring.generate import generate
from tests.conftest import new_user
from tests.helpers import templates_unrecorded
from tests.site.test_permission_walk import app_urls
from tests.worlds import fresh, kept_world

from .conftest import FUZZ, NASTY_TEXT

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.django_db

SLUG = "fuzzed"
EXAMPLES_PER_URL = int(os.environ.get("FUZZ_EXAMPLES", "100"))

# POST URLs that are not forms of the tournament's pages, each fuzzed elsewhere.
ELSEWHERE = {
    "api:token": "tests/fuzz/test_api_writes.py", "api:protocol": "tests/fuzz/test_api_writes.py",
    "api:submit": "tests/fuzz/test_api_writes.py", "api:confirm": "tests/fuzz/test_api_writes.py",
    "api:reopen": "tests/fuzz/test_api_writes.py", "site:import_tournament": "tests/fuzz/test_file_import.py",
    "logout": "nothing to fuzz", "set_language": "a redirect whatever it gets (tests/site/test_login_next.py)",
    "login": "tests/site/test_login_throttle.py, tests/site/test_login_next.py",
    "games:private_link": "a 404 without a real token; tests/judges/test_private_links.py",
}
# URLs that answer GET only (405 to any POST): nothing to fuzz.
READ_ONLY_PREFIXES = ("public:", "api:", "rating_api:", "paper:")
READ_ONLY = {"site:tournaments", "tournaments:detail", "exchange:export", "exchange:exports",
             "exchange:export_platform", "games:protocols", "games:history",
             "series:list", "series:detail", "series:csv", "series:xlsx"}


class Forms(HTMLParser):
    """Every POST form and htmx tap of a page: its target path and each field's candidate values."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path
        self.found: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.form: str | None = None
        self.select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k.removeprefix("data-") if k.startswith("data-hx-") else k: v or "" for k, v in attrs}  # data-hx-*: htmx's
        if tag == "form" and (a.get("method", "").lower() == "post" or "hx-post" in a):
            self.form = urlsplit(a.get("hx-post") or a.get("action") or self.path).path
            self.found[self.form]
        # an htmx tap, or a tap of the judge's screen (static/js/table-screen.js posts data-tap to the page itself)
        if ("hx-post" in a or "data-tap" in a) and tag != "form":
            target = urlsplit(a.get("hx-post") or self.path).path
            fields = self.found[target]
            try:
                values = json.loads(a.get("hx-vals") or a.get("data-tap") or "{}")
            except ValueError:
                values = {}
            for key, value in values.items():
                fields[key].add(str(value))
            if self.form is not None:
                fields.update({k: v for k, v in self.found[self.form].items() if k not in fields})
        if self.form is None:
            return
        fields = self.found[self.form]
        name = a.get("name")
        if tag == "input" and name and name != "csrfmiddlewaretoken":
            fields[name].add(a.get("value", "") or ("1" if a.get("type") in ("checkbox", "radio") else ""))
        elif tag == "button" and name:
            fields[name].add(a.get("value", ""))
        elif tag == "textarea" and name:
            fields[name].add("")
        elif tag == "select" and name:
            self.select = name
            fields[name]
        elif tag == "option" and self.select:
            fields[self.select].add(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None


HARVESTED: dict[str, dict[str, list[str]]] = {}  # by URL name: the world is the same in every test


def harvest(client: Client, urls: list[str]) -> dict[str, dict[str, list[str]]]:
    """Each POST URL's fields (by URL name) and their values, from the forms of these pages (read once)."""
    if HARVESTED:
        return HARVESTED
    out: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for url in urls:
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        parser = Forms(urlsplit(url).path)
        parser.feed(response.content.decode())
        for target, fields in parser.found.items():
            try:
                match = resolve(target)
            except Resolver404:
                continue
            for name, values in fields.items():
                out[match.view_name][name] |= values
    HARVESTED.update({t: {n: sorted(v) for n, v in f.items()} for t, f in out.items()})
    return HARVESTED


def build_world() -> dict[str, Any]:
    """A played fiim tournament: two rounds published with protocols, a third seated as a draft, a protest,
    judges assigned, a seating job; the organizer is also its chief judge. Its forms are harvested from its pages
    and every row is read (``before``): each input must leave a refused form's rows as they were."""
    from exchange.files import import_text
    from games.models import Game, Protest
    from judges.services import staff
    from running.services import planning
    from series.models import Series, SeriesTournament
    from tournaments.models import Round, SeatingJob, Stage, Table

    organizer = new_user("director", can_create=True)  # as conftest's organizer
    data = fileio.dump(generate("fiim", players=20, rounds=2, seed=4))
    data["tournament"] = {"name": "Кубок для проверки", "standings_hidden": False}
    tournament = import_text(json.dumps(data), slug=SLUG, organizers=[organizer])
    stage = Stage.objects.get(tournament=tournament)
    stage.planned_rounds = 5
    stage.save()
    draft = planning.generate_next_round(stage, seed=3)
    staff.add_judge(tournament, organizer, chief=True)
    judge = staff.add_judge(tournament, new_user("judge"))
    staff.assign(judge, stage, draft, 1)
    played = Round.objects.get(stage=stage, number=2)
    table = Table.objects.get(round=played, number=1)
    game = Game.objects.get(table=table)
    protest = Protest.objects.create(game=game, seat=3, text="the vote was miscounted")
    job = SeatingJob.objects.create(stage=stage, method="random", seed=1, created_by=organizer)
    participant = tournament.participants.order_by("number").first()
    league = Series.objects.create(name="Лига", slug="league")  # the organizer's series of this tournament
    league.organizers.add(organizer)
    SeriesTournament.objects.create(series=league, tournament=tournament)
    values = {"slug": SLUG, "pk": participant.pk, "decision": "accept", "stage": stage.ext_id, "number": 2,
              "table": table.pk, "protest": protest.pk, "player": participant.ext_id, "token": "no-such-token",
              "series": league.slug}
    overrides = {"running:job": {"pk": job.pk}, "running:round": {"number": draft.number}}
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer)
    world = {"client": client, "values": values, "overrides": overrides, "draft": draft, "tournament": tournament}
    pages = [url_of(n, r, world) for n, r in app_urls().items()
             if n.startswith(("tournaments:", "games:", "series:")) and n not in ("exchange:export",)]
    world["forms"] = harvest(client, pages)
    world["before"] = rows()  # every input starts from this: each is rolled back
    return world


@pytest.fixture(scope="module")
def kept(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """One tournament for all the forms (it takes seconds to seat), built once for the module's tests."""
    with kept_world(django_db_blocker) as build, templates_unrecorded():  # set up before the tests' own fixtures
        yield build(build_world)


@pytest.fixture
def world(kept: dict[str, Any]) -> dict[str, Any]:
    return fresh(kept)


def url_of(name: str, route: str, world: dict[str, Any]) -> str:
    values = {**world["values"], **world["overrides"].get(name, {})}
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def form_urls() -> list[str]:
    return sorted(name for name in app_urls()
                  if name not in ELSEWHERE and name not in READ_ONLY and not name.startswith(READ_ONLY_PREFIXES))


def test_every_post_url_is_fuzzed_or_said_where() -> None:
    """A new URL joins this suite, or says where its bad input is tested."""
    assert form_urls(), "no form to fuzz"
    assert set(ELSEWHERE) <= set(app_urls())


WATCHED = ("tournaments", "games", "public", "venue_screen", "series", "auth", "axes")


def watched_models() -> list[Any]:
    """The models of the apps that hold tournament data (their history and the results version aside)."""
    out = []
    for label in WATCHED:
        try:
            config = apps.get_app_config(label)
        except LookupError:
            continue
        for model in config.get_models():
            if model._meta.label in {"public.ResultsVersion"} or "Historical" in model.__name__ or \
                    model._meta.label.startswith("axes."):
                continue
            out.append(model)
    return out


def rows() -> dict[str, Any]:
    """Every row of the apps that hold tournament data (compared before and after). On PostgreSQL each table's
    rows are compared as a digest of all of them in sorted order, in one query (it runs after each refused input;
    reading every row into Python took half of this test's time); elsewhere as plain values."""
    models = watched_models()
    if connection.vendor == "postgresql":
        parts = [f"(SELECT md5(count(*)::text || ':' || coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '')) "
                 f"FROM {connection.ops.quote_name(model._meta.db_table)} t)" for model in models]
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {', '.join(parts)}")
            digests = cursor.fetchone()
        return {model._meta.label: digest for model, digest in zip(models, digests, strict=True)}
    return {model._meta.label: sorted(map(repr, model.objects.values_list())) for model in models}


def encode(data: dict[str, str]) -> bytes:
    """A urlencoded body as a client could send it, unpaired surrogates included (as raw bytes)."""
    return "&".join(f"{quote(k)}={quote(v.encode('utf-8', 'surrogatepass'))}" for k, v in data.items()).encode()


def refused(response: Any) -> bool:
    if 400 <= response.status_code < 500:
        return True
    return any(m.level >= ERROR for m in get_messages(response.wsgi_request))


@pytest.mark.parametrize("name", form_urls())
def test_every_form_takes_bad_input_cleanly(name: str, world: dict[str, Any], fuzz_inputs: Any) -> None:
    """One test per URL (the work stealing shares them between the processes), all on the kept tournament."""
    fuzz_form(name, url_of(name, app_urls()[name], world), world["client"], world["forms"].get(name, {}),
              world["before"], fuzz_inputs)


def fuzz_form(name: str, url: str, client: Client, fields: dict[str, list[str]], before: dict[str, Any],
              fuzz_inputs: Any) -> None:
    names = sorted(fields) or ["action", "value", "reason"]

    def value_for(field: str) -> st.SearchStrategy[str]:
        real = [v for v in fields.get(field, []) if v]
        return (st.sampled_from(real) if real else st.nothing()) | st.sampled_from(NASTY_TEXT) | st.text(max_size=30)

    inputs = st.fixed_dictionaries({}, optional={n: value_for(n) for n in names}) | \
        st.dictionaries(st.sampled_from([*names, "extra", "id", "pk"]), st.sampled_from(NASTY_TEXT), max_size=6)

    @settings(FUZZ, max_examples=EXAMPLES_PER_URL)
    @given(data=inputs, htmx=st.booleans())
    def run(data: dict[str, str], htmx: bool) -> None:
        fuzz_inputs()
        with transaction.atomic():
            headers = {"HX-Request": "true"} if htmx else {}
            response = client.post(url, data=encode(data), content_type="application/x-www-form-urlencoded",
                                   headers=headers)
            assert response.status_code < 500, (name, data, response.status_code)
            if refused(response):
                assert rows() == before, (name, data, "refused, yet rows changed")
            transaction.set_rollback(True)

    run()


LONG_TEXT = "ж" * 5000  # past every text column's length (the longest is 300), under every body bound


@pytest.mark.parametrize("name", form_urls())
def test_every_field_past_its_length_is_refused_cleanly(name: str, world: dict[str, Any]) -> None:
    """A timer title over 100 characters reached the database (a 500). Each field of each form, for each
    of its actions, gets a 5,000-character text while the others keep a real value: never a 5xx, and a refused
    input changes nothing. Deterministic, beside the generated inputs above."""
    url, client, fields = url_of(name, app_urls()[name], world), world["client"], world["forms"].get(name, {})
    real = {field: next((v for v in values if v), "") for field, values in fields.items()}
    actions = sorted({v for v in fields.get("action", []) if v}) or [real.get("action", "")]
    for action in actions:
        for field in sorted(set(fields) - {"action", "csrfmiddlewaretoken"}):
            data = {**real, "action": action, field: LONG_TEXT} if action else {**real, field: LONG_TEXT}
            with transaction.atomic():
                response = client.post(url, data=encode(data), content_type="application/x-www-form-urlencoded")
                assert response.status_code < 500, (name, action, field, response.status_code)
                if refused(response):
                    assert rows() == world["before"], (name, action, field, "refused, yet rows changed")
                transaction.set_rollback(True)
