"""Every write of the API, fuzzed: ``POST /api/token/`` with generated usernames, passwords and bodies,
and a table's protocol (``PUT .../protocols/TABLE/``, ``POST .../submit/``, ``.../confirm/``, ``.../reopen/``)
with generated JSON bodies (random structures, wrong types, huge numbers, seats lists with bad entries,
unknown keys, bodies that are not JSON) as the table's judge and as the chief judge, for every ruleset, on a
draft, a submitted and a confirmed protocol. Always a 2xx or 4xx answer with a JSON body, never a server
error; a refused write leaves every protocol, its seats and its history exactly as they were."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import PASSWORD
from tests.helpers import ROLES

from .conftest import FUZZ, NASTY_TEXT

if TYPE_CHECKING:
    pass

pytestmark = pytest.mark.django_db

RULESETS = ["fiim", "kostroma", "zvezdy", "tomsk"]
HUGE = [10**30, -(10**30), 2**31, 2**63, -(2**63), 10**400, 1e308, -1e308, 0.5, -0.0, 1e-300]
SCALARS = st.none() | st.booleans() | st.integers(-20, 20) | st.integers() | st.sampled_from(HUGE) | \
    st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from(NASTY_TEXT) | st.text(max_size=12) | \
    st.sampled_from(["red", "black", "maniac", "don", "mafia", "sheriff", "doctor", "civilian", "voted", "killed",
                     "removed", "", "1", "2.5", "1e3"])
JSON_VALUES = st.recursive(SCALARS, lambda children: st.lists(children, max_size=4)
                           | st.dictionaries(st.text(max_size=8), children, max_size=4), max_leaves=10)
GAME_KEYS = ["version", "winner", "seats", "first_killed", "best_move", "notes", "mafia_missed_three_nights",
             "circles", "days", "reason", "state", "table", "id", "changed_by", "extra_key", ""]
SEAT_KEYS = ["seat", "role", "side", "fouls", "removed", "left", "left_number", "extra", "best", "days_survived",
             "subjective", "player", "name", "number", "unknown"]
RAW_BODIES = ["", "{", "[]", "null", '"text"', "1e999", "{'version': 1}", '{"version": NaN}', '{"version": 1e999}',
              '{"version": ' + "9" * 5000 + "}", "[" * 5000 + "]" * 5000, '{"version": 2, "version": 3}',
              '{"reason": "\\ud800", "version": 2}', '{"version": 2, "seats": [' + "{}," * 300 + "{}]}",
              '{"notes": "' + "x" * 5000 + '", "version": 2}', "\x00", "<html></html>"]


RIGHT = "@@the protocol's version@@"  # replaced by the table's version when the body is sent


def full_protocol(version: Any, ruleset: str) -> dict[str, Any]:
    extra = {"subjective": 0} if ruleset == "tomsk" else {}  # tomsk: each player's SP
    return {"version": version, "winner": "red",
            "seats": [{"seat": n, "role": role, **extra} for n, role in enumerate(ROLES[ruleset], start=1)]}


@pytest.fixture(autouse=True)
def quick_passwords(settings: Any) -> None:
    """Users made for each ruleset and a password checked per token request: a fast hasher (the default one
    takes a third of a second, on purpose)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]



@pytest.fixture
def round_(make_round: Any, request: Any) -> Any:
    return make_round(getattr(request, "param", "fiim"), tables=3)


@pytest.fixture
def world(round_: Any, people: dict[str, Any], api: Any, settings: Any) -> dict[str, Any]:
    """Table 1 (the judge's): a draft with its result; table 2 (the other judge's): submitted; table 3:
    confirmed by the chief judge."""
    settings.LANGUAGE_CODE = "en"
    ruleset = round_.stage.tournament.ruleset
    slug = round_.stage.tournament.slug
    tables = {t.number: t for t in round_.tables.all()}
    urls = {n: {action: reverse(f"api:{name}", args=[slug, tables[n].pk])
                for action, name in [("put", "protocol"), ("submit", "submit"), ("confirm", "confirm"),
                                     ("reopen", "reopen")]} for n in tables}
    clients = {who: api(people[who]) for who in ("judge", "other", "chief", "organizer")}
    steps = [(1, "judge", []), (2, "other", ["submit"]), (3, "chief", ["submit", "confirm"])]
    for number, who, actions in steps:
        client = clients[who]
        version = client.get(urls[number]["put"]).json()["version"]
        response = client.put(urls[number]["put"], full_protocol(version, ruleset), format="json")
        assert response.status_code == 200, response.json()
        for action in actions:
            version = response.json()["version"]
            response = clients["chief" if action == "confirm" else who].post(
                urls[number][action], {"version": version}, format="json")
            assert response.status_code == 200, (action, response.json())
    return {"ruleset": ruleset, "urls": urls, "clients": clients, "round": round_}


def snapshot(round_: Any) -> Any:
    """Every protocol of the round, its seats and its history, as plain values."""
    from games.models import Game, GameSeat

    games = Game.objects.filter(table__round=round_)
    return (sorted(map(repr, games.values_list())),
            sorted(map(repr, GameSeat.objects.filter(game__in=games).values_list())),
            Game.history.count(), GameSeat.history.count())


def answered(response: Any) -> Any:
    assert response.status_code < 500, (response.status_code, response.content[:300])
    assert 200 <= response.status_code < 300 or 400 <= response.status_code < 500, response.status_code
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    return json.loads(response.content)


@st.composite
def protocol_bodies(draw: st.DrawFn, ruleset: str, versions: list[int]) -> Any:
    """A protocol body near a right one (a version that is right, stale or absurd; some facts wrong; seats
    missing, doubled or bad), random JSON, or a reason for reopening."""
    version = draw(st.sampled_from([RIGHT, RIGHT, RIGHT]) | st.sampled_from(versions) | SCALARS)
    kind = draw(st.integers(0, 9))
    if kind <= 5:
        body = full_protocol(version, ruleset)
        seats = body["seats"]
        for _ in range(draw(st.integers(0, 3))):
            change = draw(st.integers(0, 5))
            if change == 0 and seats:
                seats[draw(st.integers(0, len(seats) - 1))][draw(st.sampled_from(SEAT_KEYS))] = draw(JSON_VALUES)
            elif change == 1 and seats:
                seats.pop(draw(st.integers(0, len(seats) - 1)))
            elif change == 2 and seats:
                seats.append(dict(draw(st.sampled_from(seats))))  # a seat twice
            elif change == 3:
                seats.insert(draw(st.integers(0, len(seats))), draw(JSON_VALUES))
            elif change == 4:
                body[draw(st.sampled_from(GAME_KEYS))] = draw(JSON_VALUES)
            else:
                body["seats"] = seats = draw(st.lists(st.fixed_dictionaries(
                    {"seat": st.integers(-2, 14) | SCALARS, "role": st.sampled_from(ROLES[ruleset]) | SCALARS}),
                    max_size=14))
        return body
    if kind <= 7:
        return {"version": version, **({"reason": draw(st.sampled_from(NASTY_TEXT) | st.text(max_size=30))}
                                        if draw(st.booleans()) else {})}
    return draw(JSON_VALUES)


@pytest.mark.parametrize("round_", RULESETS, indirect=True)
def test_every_protocol_write_answers_json_and_a_refusal_saves_nothing(world: dict[str, Any],
                                                                       fuzz_inputs: Any) -> None:
    from games.models import Game

    ruleset, urls, clients, round_ = world["ruleset"], world["urls"], world["clients"], world["round"]
    versions = sorted({v for v in Game.objects.filter(table__round=round_).values_list("version", flat=True)}
                      | {0, 1, 2, 3, 4, 5})

    @settings(FUZZ, max_examples=160)
    @given(who=st.sampled_from(["judge", "chief", "chief", "other", "organizer"]), table=st.sampled_from([1, 2, 3]),
           action=st.sampled_from(["put", "put", "submit", "confirm", "reopen"]),
           body=protocol_bodies(ruleset, versions) | st.sampled_from(RAW_BODIES).map(lambda text: ("raw", text)),
           content_type=st.sampled_from(["application/json"] * 5 + ["text/plain", "application/x-www-form-urlencoded",
                                                                    "application/json; charset=latin-1"]))
    def run(who: str, table: int, action: str, body: Any, content_type: str) -> None:
        fuzz_inputs()
        client = clients[who]
        if isinstance(body, dict) and body.get("version") == RIGHT:
            body = {**body, "version": Game.objects.get(table__round=round_, table__number=table).version}
        data = body[1].encode("utf-8", "surrogatepass") if isinstance(body, tuple) else json.dumps(body).encode()
        with transaction.atomic():
            before = snapshot(round_)
            method = client.put if action == "put" else client.post
            response = method(urls[table][action], data, content_type=content_type)
            answer = answered(response)
            if response.status_code >= 400:
                assert snapshot(round_) == before, (who, table, action, body, "refused, yet the protocol changed")
                assert isinstance(answer, dict) and answer.get("detail"), answer
            transaction.set_rollback(True)

    run()


def text(value: Any) -> str:
    """A form field as a browser sends it: text (an unpaired surrogate arrives as the replacement character)."""
    return ("" if value is None else str(value)).encode("utf-8", "surrogatepass").decode("utf-8", "replace")


TOKEN_FIELDS = st.sampled_from(["judge", "chief", "", " ", "JUDGE", "judge ", "nobody", "admin", PASSWORD,
                                PASSWORD + " ", *NASTY_TEXT]) | st.text(max_size=20) | st.integers() | st.none()


@pytest.mark.parametrize("round_", ["fiim"], indirect=True)
def test_the_token_endpoint_answers_400_401_or_429(people: dict[str, Any], api: Any,
                                                   fuzz_inputs: Any) -> None:
    url = reverse("api:token")
    client = api()

    @settings(FUZZ, max_examples=260)
    @given(body=st.fixed_dictionaries({}, optional={"username": TOKEN_FIELDS, "password": TOKEN_FIELDS,
                                                    "extra": JSON_VALUES})
           | JSON_VALUES | st.sampled_from(RAW_BODIES).map(lambda text: ("raw", text)),
           content_type=st.sampled_from(["json", "json", "form", "multipart"]),
           repeat=st.sampled_from([1] * 9 + [6]))
    def run(body: Any, content_type: str, repeat: int) -> None:
        with transaction.atomic():
            for attempt in range(repeat):
                fuzz_inputs()
                if isinstance(body, tuple):
                    response = client.post(url, body[1].encode("utf-8", "surrogatepass"),
                                           content_type="application/json")
                elif content_type == "json":
                    response = client.post(url, json.dumps(body), content_type="application/json")
                elif isinstance(body, dict):
                    fields = {k: text(v) for k, v in body.items()}
                    if content_type == "form":
                        response = client.post(url, urlencode(fields), content_type="application/x-www-form-urlencoded")
                    else:
                        response = client.post(url, fields, format="multipart")
                else:
                    response = client.post(url, str(body), content_type="text/plain")
                answer = answered(response)
                right = isinstance(body, dict) and body.get("username") in ("judge", "chief") and \
                    body.get("password") == PASSWORD
                if response.status_code == 200:
                    assert right and len(answer["token"]) == 40, (body, answer)
                else:
                    assert response.status_code in (400, 401, 415, 429), (response.status_code, body, answer)
                    if response.status_code == 429:
                        assert attempt >= 4 and answer["retry_after"] > 0, (attempt, answer)
            transaction.set_rollback(True)

    run()
