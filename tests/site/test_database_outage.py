"""A database failing under a request is a 503 that says so and whether anything was saved, in
the user's language: JSON in the API, plain text to htmx, a page of its own otherwise; never a 500.

The failure is made here by refusing the app's statements (``connection.execute_wrapper``); the real
thing, a PostgreSQL server restarted and crashed under gunicorn, is tests/deploy/test_database_restart.py.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError, connection, transaction
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from base.database_outage import WriteWatch, is_change
from games.models import Game
from tests.conftest import PASSWORD
from tests.helpers import ROLES, table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

HTMX = {"HTTP_HX_REQUEST": "true"}
UNAVAILABLE = "The database is unavailable."
NOTHING_SAVED = "Nothing was saved: try again in a moment."
SAVED = "Your change was saved, but the page could not be shown: reload it in a moment."
TRANSACTION_CONTROL = ("SAVEPOINT", "RELEASE", "ROLLBACK")


@contextmanager
def failing(when: Callable[[str], bool] = lambda sql: True, error: Callable[[], Exception] | None = None
            ) -> Iterator[None]:
    """The app's statements for which ``when`` holds fail as if the server were gone (the test's own
    savepoints still work, so its transaction survives)."""

    def refuse(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if when(sql) and not sql.lstrip().upper().startswith(TRANSACTION_CONTROL):
            raise error() if error else OperationalError("connection to server failed: Connection refused")
        return execute(sql, params, many, context)

    with connection.execute_wrapper(refuse):
        yield


@pytest.fixture
def judge_screen(round_: Any, people: dict[str, Any]) -> tuple[Client, str]:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people["judge"])
    url = reverse("games:table", args=[round_.stage.tournament.slug, table(round_, 1).pk])
    assert client.get(url).status_code == 200  # opens the protocol: version 1
    roles = {f"s{n}_role": role for n, role in enumerate(ROLES["fiim"], start=1)}
    assert client.post(url, {"action": "roles", "version": 1, **roles}, **HTMX).status_code == 200
    return client, url


def foul(client: Client, url: str, version: int) -> Any:
    return client.post(url, {"action": "foul", "seat": 6, "reason": "other", "version": version}, **HTMX)


@pytest.mark.django_db
def test_a_tap_cut_half_way_is_a_plain_503_that_says_nothing_was_saved(judge_screen: tuple[Client, str]) -> None:
    client, url = judge_screen
    game = Game.objects.get()
    with failing(lambda sql: sql.startswith('UPDATE "games_gameseat"')):  # after the game row was written
        response = foul(client, url, game.version)
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert response["Content-Type"].startswith("text/plain")  # shown as it is by static/js/request-errors.js
    assert response.content.decode() == f"{UNAVAILABLE} {NOTHING_SAVED}"
    kept = Game.objects.get()
    assert kept.version == game.version and kept.seats.get(seat__number=6).fouls == 0  # all or nothing
    again = foul(client, url, game.version)  # the same tap once the database answers
    assert again.status_code == 200 and "Seat 6: foul 1" in again.content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_change_committed_before_the_failure_is_said_to_be_saved(judge_screen: tuple[Client, str]) -> None:
    client, url = judge_screen
    version = Game.objects.get().version
    committed: list[bool] = []

    def after_the_commit(sql: str) -> bool:
        if sql.startswith('UPDATE "games_gameseat"'):
            committed.append(True)
        return bool(committed) and not connection.in_atomic_block  # the screen is read after the save

    with failing(after_the_commit):
        response = foul(client, url, version)
    assert response.status_code == 503 and response.content.decode() == f"{UNAVAILABLE} {SAVED}"
    assert Game.objects.get().version == version + 1  # it was indeed saved


@pytest.mark.django_db
def test_the_api_answers_json_with_whether_it_was_saved(round_: Any, people: dict[str, Any]) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en",
                    HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=people['chief']).key}")
    url = reverse("api:protocol", args=[round_.stage.tournament.slug, table(round_, 1).pk])
    with failing():
        read = client.get(url)
        changed = client.put(url, {"version": 1, "seats": []}, content_type="application/json")
    assert read.status_code == 503 and read["Retry-After"] == "5"
    assert read.json() == {"detail": f"{UNAVAILABLE} Try again in a moment.", "saved": False}
    assert changed.status_code == 503 and changed.json() == {"detail": f"{UNAVAILABLE} {NOTHING_SAVED}",
                                                             "saved": False}


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "heading"), [("en", "Database unavailable"), ("ru", "База данных недоступна")])
def test_a_page_is_a_page_of_its_own_in_the_users_language(round_: Any, people: dict[str, Any], language: str,
                                                           heading: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(people["organizer"])
    slug = round_.stage.tournament.slug
    for url in (reverse("public:standings", args=[slug]), reverse("tournaments:detail", args=[slug])):
        with failing():
            response = client.get(url)
        page = response.content.decode()
        assert response.status_code == 503 and heading in page and 'id="database-unavailable"' in page
        assert f'href="{url}"' in page  # try again
        assert people["organizer"].username not in page  # nothing of the base page, which needs the database


@pytest.mark.django_db
def test_htmx_polling_a_public_page_gets_the_plain_message(round_: Any) -> None:
    with failing():
        response = Client(HTTP_ACCEPT_LANGUAGE="en").get(
            reverse("public:standings", args=[round_.stage.tournament.slug]), **HTMX)
    assert response.status_code == 503 and response.content.decode() == f"{UNAVAILABLE} Try again in a moment."


class Deadlock(Exception):
    pgcode = "40P01"


@pytest.mark.django_db
def test_a_failing_statement_is_not_called_an_outage_and_is_logged_with_its_traceback(
        judge_screen: tuple[Client, str], caplog: pytest.LogCaptureFixture) -> None:
    client, url = judge_screen

    def deadlock() -> Exception:
        error = OperationalError("deadlock detected")
        error.__cause__ = Deadlock()
        return error

    with caplog.at_level(logging.WARNING, logger="mafia_tournament.database"), \
            failing(lambda sql: sql.startswith('UPDATE "games_gameseat"'), deadlock):
        response = foul(client, url, Game.objects.get().version)
    assert response.status_code == 503
    assert response.content.decode() == f"The database could not complete the request. {NOTHING_SAVED}"
    record = next(r for r in caplog.records if r.name == "mafia_tournament.database")
    assert record.levelno == logging.ERROR and record.exc_info is not None


@pytest.mark.django_db
def test_an_outage_is_logged_in_one_line(round_: Any, caplog: pytest.LogCaptureFixture) -> None:
    url = reverse("public:standings", args=[round_.stage.tournament.slug])
    with caplog.at_level(logging.WARNING, logger="mafia_tournament.database"), failing():
        Client().get(url)
    record = next(r for r in caplog.records if r.name == "mafia_tournament.database")
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert record.getMessage() == f"database unavailable: GET {url}: connection to server failed: Connection refused"


def refuse_session_saves(monkeypatch: pytest.MonkeyPatch, error: Exception) -> None:
    def save(*args: Any, **kwargs: Any) -> None:
        raise error

    monkeypatch.setattr(SessionStore, "save", save)


@pytest.mark.django_db(transaction=True)
def test_a_failure_after_the_view_in_saving_the_session_is_a_503_too(round_: Any, people: dict[str, Any],
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """handler500: the round's start time is saved, then the middleware saving the session (its message)
    fails, which is no view's exception. Any other error there stays Django's 500."""
    client = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False)
    client.force_login(people["organizer"])
    url = reverse("running:round_start", args=[round_.stage.tournament.slug, round_.stage.ext_id, 1])
    refuse_session_saves(monkeypatch, OperationalError("server closed the connection unexpectedly"))
    response = client.post(url, {"starts_at": "2026-05-01T14:30"})
    assert response.status_code == 503 and f"{UNAVAILABLE} {SAVED}" in response.content.decode()
    round_.refresh_from_db()
    assert round_.starts_at is not None
    refuse_session_saves(monkeypatch, RuntimeError("a bug"))
    assert client.post(url, {"starts_at": "2026-05-02T14:30"}).status_code == 500


@pytest.mark.django_db(transaction=True)
def test_a_login_cut_by_the_failure_saved_nothing_of_the_users(people: dict[str, Any]) -> None:
    """The session, the login's record and the time of the last login were written before the session's
    last save failed: they are no change of the user's, who is not logged in."""
    with failing(lambda sql: sql.startswith('UPDATE "django_session"')):
        response = Client(HTTP_ACCEPT_LANGUAGE="en", raise_request_exception=False).post(
            reverse("login"), {"username": people["judge"].username, "password": PASSWORD})
    assert response.status_code == 503 and f"{UNAVAILABLE} {NOTHING_SAVED}" in response.content.decode()
    people["judge"].refresh_from_db()
    assert people["judge"].last_login is not None


class Undone(Exception):
    pass


@pytest.mark.django_db(transaction=True)
def test_the_watch_marks_a_change_once_it_is_committed_and_never_a_rolled_back_one(
    make_user: Callable[..., User]
) -> None:
    user = make_user("watched")
    rename = type(user).objects.filter(pk=user.pk)
    watch = WriteWatch()
    with connection.execute_wrapper(watch):
        with transaction.atomic():
            for n in range(50):  # a long import: one mark waits for the commit, not one a row
                rename.update(first_name=f"n{n}")
            assert [func for _sids, func, _robust in connection.run_on_commit].count(watch.mark) == 1
            assert not watch.committed
        assert watch.committed

    undone = WriteWatch()
    with connection.execute_wrapper(undone), suppress(Undone), transaction.atomic():
        with suppress(Undone), transaction.atomic():
            rename.update(first_name="inner")
            raise Undone
        rename.update(first_name="outer")  # its own mark: the inner one went with its savepoint
        raise Undone
    assert not undone.committed

    kept = WriteWatch()
    with connection.execute_wrapper(kept), transaction.atomic():
        rename.update(first_name="outer")
        with suppress(Undone), transaction.atomic():
            rename.update(first_name="inner")
            raise Undone
    assert kept.committed


def test_only_the_users_changes_count_as_saved() -> None:
    assert is_change('UPDATE "games_game" SET "version" = %s WHERE "games_game"."id" = %s')
    assert is_change('INSERT INTO "tournaments_player" ("surname") VALUES (%s)')
    assert is_change('UPDATE "auth_user" SET "password" = %s, "last_login" = %s WHERE "auth_user"."id" = %s')
    assert not is_change('UPDATE "auth_user" SET "last_login" = %s WHERE "auth_user"."id" = %s')
    assert not is_change('INSERT INTO "django_session" ("session_key") VALUES (%s)')
    assert not is_change('INSERT INTO "axes_accesslog" ("username") VALUES (%s)')
    assert not is_change('SELECT "games_game"."id" FROM "games_game" FOR UPDATE')


def test_kept_connections_are_checked_and_connecting_is_bounded() -> None:
    database = settings.DATABASES["default"]
    assert database["CONN_HEALTH_CHECKS"] is True
    if database["ENGINE"] == "django.db.backends.postgresql":
        assert database["OPTIONS"]["connect_timeout"] == 5
