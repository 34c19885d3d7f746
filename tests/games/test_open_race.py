"""Two requests opening a never-opened table at the same moment (the judge's table screen, the
API, one of each): exactly one protocol row with one row per seat, and both requests are answered with
that protocol. Threads, each with its own PostgreSQL connection, released together by a barrier."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, GameSeat
from games.services import protocol as service
from tests.helpers import table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"),
]

ROUNDS = 5  # races per path: each on a fresh table


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Runs the calls in threads released at once; each thread closes its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:  # reported to the test, not lost in the thread
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def tables(make_round: Any, make_user: Callable[..., User]) -> list[Any]:
    """A round of ``ROUNDS`` tables none of which has a protocol yet; the chief judge opens any."""
    from judges.services import staff

    round_ = make_round("fiim", tables=ROUNDS)
    staff.add_judge(round_.stage.tournament, make_user("chief"), chief=True)
    return [table(round_, n) for n in range(1, ROUNDS + 1)]


def browser(user: User) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def api(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def one_protocol(t: Any) -> Game:
    games = list(Game.objects.filter(table=t))
    assert len(games) == 1, games
    assert GameSeat.objects.filter(game=games[0]).count() == t.seats.count() == 10
    assert games[0].version == 1
    return games[0]


def screen(user: User, t: Any) -> Callable[[], int]:
    client = browser(user)
    url = reverse("games:table", args=[t.round.stage.tournament.slug, t.pk])
    return lambda: client.get(url).status_code


def protocol_api(user: User, t: Any) -> Callable[[], Any]:
    client = api(user)
    url = reverse("api:protocol", args=[t.round.stage.tournament.slug, t.pk])

    def call() -> Any:
        response = client.get(url)
        return response.status_code, response.json()

    return call


def test_the_service_twice_at_once(tables: list[Any], django_user_model: Any) -> None:
    chief = django_user_model.objects.get(username="chief")
    t = tables[0]
    first, second = together([lambda: service.open_protocol(t, chief), lambda: service.open_protocol(t, chief)])
    assert isinstance(first, Game) and isinstance(second, Game), (first, second)
    assert first.pk == second.pk == one_protocol(t).pk


def test_two_table_screens_at_once(tables: list[Any], django_user_model: Any) -> None:
    chief = django_user_model.objects.get(username="chief")
    organizer = tables[0].round.stage.tournament.organizers.get()
    for t in tables:
        assert together([screen(chief, t), screen(organizer, t)]) == [200, 200]
        one_protocol(t)


def test_two_api_reads_at_once(tables: list[Any], django_user_model: Any) -> None:
    chief = django_user_model.objects.get(username="chief")
    organizer = tables[0].round.stage.tournament.organizers.get()
    for t in tables:
        (code_a, a), (code_b, b) = together([protocol_api(chief, t), protocol_api(organizer, t)])
        assert code_a == code_b == 200, (a, b)
        game = one_protocol(t)
        assert a["version"] == b["version"] == 1 and a["seats"] == b["seats"]
        assert game.version == 1


def test_a_screen_and_the_api_at_once(tables: list[Any], django_user_model: Any) -> None:
    chief = django_user_model.objects.get(username="chief")
    organizer = tables[0].round.stage.tournament.organizers.get()
    for t in tables:
        code, (api_code, _body) = together([screen(chief, t), protocol_api(organizer, t)])
        assert code == api_code == 200
        one_protocol(t)
