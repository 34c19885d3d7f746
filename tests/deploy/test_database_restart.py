"""The database restarted in the middle of a round, for real.

A private PostgreSQL cluster (``private_postgres``; the machine's shared server is not touched) holds a
tournament whose round 2 is being entered: a judge taps on the phone's table screen (a logged-in session,
htmx) and another enters table 2 through the write API (a token). The app runs under gunicorn with the
production profile, so with persistent connections (``CONN_MAX_AGE`` 60). The server's connections are
dropped, it is restarted, and it is crashed (``pg_ctl stop -m immediate``) while two saves wait half-way
in their transactions. While it is down every request answers at once with a specific, translated 503
(JSON in the API, plain text to htmx, a page otherwise), never a 500; once it is back the same gunicorn
serves again, everything committed before is there, the saves cut by the crash left nothing behind, they
can be repeated, and the version check still refuses a stale change.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.deploy.private_postgres import (
    ROOT,
    Answer,
    AppServer,
    Browser,
    PrivateCluster,
    gunicorn,
    manage,
    private_cluster,
    why_unavailable,
)
from tests.deploy.round_in_play import PASSWORD
from tests.helpers import ROLES

pytestmark = pytest.mark.skipif(why_unavailable() is not None,
                                reason=f"no private PostgreSQL cluster can be started: {why_unavailable()}")

DATABASE = "app"
# The production profile, but with Django's plain static storage: collectstatic's compressed, hashed
# copies take some 40 s to build here, and no static file is fetched.
PROFILE = """from mafia_tournament.settings_production import *  # noqa: F403
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
"""
WITHOUT_REDIS = """CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
"""
QUICK = 2.0  # seconds: an answer while the database is down comes at once
UNAVAILABLE = "The database is unavailable."
NOTHING_SAVED = "Nothing was saved: try again in a moment."
UNAVAILABLE_RU = "База данных недоступна."
HTMX = {"HX-Request": "true"}


@dataclass
class Day:
    cluster: PrivateCluster
    server: AppServer
    slug: str
    tables: list[int]
    tokens: dict[str, str]

    def api(self, who: str) -> Browser:
        return Browser(self.server.port, token=self.tokens[who])

    def protocol(self, table: int) -> str:
        return f"/api/tournaments/{self.slug}/protocols/{table}/"

    def screen(self, table: int) -> str:
        return f"/t/{self.slug}/tables/{table}/live/"

    def app_connections(self) -> int:
        """The app's connections to the database now (each gunicorn worker keeps one)."""
        rows = self.cluster.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s", (DATABASE,))
        return int(rows[0][0])


@pytest.fixture(scope="module")
def cluster() -> Iterator[PrivateCluster]:
    with private_cluster() as started:
        yield started


@pytest.fixture(scope="module")
def day(cluster: PrivateCluster) -> Iterator[Day]:
    cluster.execute(f"CREATE DATABASE {DATABASE}")
    profile_dir = cluster.root / "profile"
    profile_dir.mkdir()
    redis_url = os.environ.get("REDIS_URL", "")
    (profile_dir / "restart_profile.py").write_text(PROFILE + ("" if redis_url else WITHOUT_REDIS))
    prefix = f"restart-{secrets.token_hex(4)}"
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE", "CONN_MAX_AGE"}}
    env.update(DJANGO_SETTINGS_MODULE="restart_profile", PYTHONPATH=f"{profile_dir}{os.pathsep}{ROOT}",
               DATABASE_URL=cluster.url(DATABASE), SECRET_KEY=secrets.token_urlsafe(50),
               REDIS_URL=redis_url or "redis://unused", CACHE_KEY_PREFIX=prefix, ALLOWED_HOSTS="127.0.0.1",
               LOG_LEVEL="WARNING")
    manage(env, "migrate", "--noinput")
    built = subprocess.run([sys.executable, "-m", "tests.deploy.round_in_play"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=120)
    assert built.returncode == 0, built.stderr
    scene = json.loads(built.stdout)
    try:
        with gunicorn(env, cluster.root / "gunicorn.log") as server:
            yield Day(cluster, server, scene["slug"], scene["tables"], scene["tokens"])
    finally:
        if redis_url:
            import redis

            client = redis.Redis.from_url(redis_url)
            for key in client.scan_iter(match=f"{prefix}:*"):
                client.delete(key)


def every_worker_connected(day: Day, request: Callable[[], Answer], workers: int = 2, tries: int = 30) -> int:
    """Sends ``request`` (each must succeed) until every worker holds a connection, or ``tries`` ran out;
    returns how many connections the app holds."""
    for _ in range(tries):
        answer = request()
        assert answer.status == 200, answer.text
        if day.app_connections() >= workers:
            break
    return day.app_connections()


def test_dropped_connections_and_a_restart_between_requests_cost_no_request(day: Day) -> None:
    """The workers' kept connections die with the server; the next requests reconnect instead of failing
    on them (``conn_health_checks``: without it the first request of each worker was a 500)."""
    chief = day.api("chief")

    def read() -> Answer:
        return chief.get(day.protocol(day.tables[1]))

    kept = every_worker_connected(day, read)
    assert kept >= 1  # persistent connections: kept between requests
    day.cluster.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (DATABASE,))
    wait_for(lambda: day.app_connections() == 0, "the app's connections to end")
    assert every_worker_connected(day, read, workers=kept) == kept  # every worker with a dead one was asked

    day.cluster.stop("fast")
    day.cluster.start()
    assert every_worker_connected(day, read, workers=kept) == kept


def login(browser: Browser, username: str) -> None:
    assert browser.get("/accounts/login/").status == 200  # the CSRF cookie
    answer = browser.post_form("/accounts/login/", {"username": username, "password": PASSWORD,
                                                    "csrfmiddlewaretoken": browser.cookies["csrftoken"]})
    assert answer.status == 302, answer.text


def version_on(screen: Answer) -> int:
    found = re.search(r'name="version" value="(\d+)"', screen.text)
    assert found, screen.text
    return int(found.group(1))


def tap(judge: Browser, path: str, seat: int, version: int) -> Answer:
    return judge.post_form(path, {"action": "foul", "seat": str(seat), "version": str(version), "reason": "other"},
                           **HTMX)


def full_protocol(version: int, fouls: dict[int, int]) -> dict[str, Any]:
    return {"version": version, "winner": "red", "seats": [
        {"seat": n, "role": role, "fouls": fouls.get(n, 0)} for n, role in enumerate(ROLES["fiim"], start=1)]}


def snapshot(cluster: PrivateCluster) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the app but the sessions and the login attempts (logins write them)."""
    tables = [row[0] for row in cluster.execute(
        "SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename NOT LIKE 'axes%%' "
        "AND tablename <> 'django_session' ORDER BY tablename", database=DATABASE)]
    return {table: cluster.execute(f'SELECT * FROM "{table}" ORDER BY 1', database=DATABASE) for table in tables}


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        time.sleep(0.05)


def lock_waiters(cluster: PrivateCluster) -> int:
    rows = cluster.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock'",
                           (DATABASE,))
    return int(rows[0][0])


def in_thread(call: Callable[[], Answer]) -> Callable[[], Answer]:
    """Starts ``call``; the returned function waits for its answer."""
    result: list[Any] = []
    thread = threading.Thread(target=lambda: result.append(call()), daemon=True)
    thread.start()

    def answer() -> Answer:
        thread.join(timeout=30)
        assert result, "no answer in 30 s"
        return result[0]

    return answer


def assert_unavailable(answer: Answer, *, says: str = "") -> None:
    assert answer.status == 503, (answer.status, answer.text[:500])
    assert answer.seconds < QUICK, answer.seconds
    assert answer.headers.get("retry-after") == "5"
    assert UNAVAILABLE in answer.text and "Traceback" not in answer.text
    if says:
        assert says in answer.text


def test_a_crash_in_the_middle_of_a_round_loses_nothing_and_half_saves_nothing(day: Day) -> None:
    judge, scribe, chief = Browser(day.server.port), day.api("scribe"), day.api("chief")
    first, second = day.tables
    screen = day.screen(first)
    login(judge, "judge")

    # Before: the judge enters the roles and a foul; the scribe enters table 2 and submits it.
    version = version_on(judge.get(screen))
    roles = {f"s{n}_role": role for n, role in enumerate(ROLES["fiim"], start=1)}
    assert "Roles are saved." in judge.post_form(screen, {"action": "roles", "version": str(version), **roles},
                                                 **HTMX).text
    answer = tap(judge, screen, 5, version + 1)
    assert answer.status == 200 and "Seat 5: foul 1" in answer.text
    on_screen = version_on(answer)
    table_two = scribe.get(day.protocol(second)).json()["version"]
    answer = scribe.send_json("PUT", day.protocol(second), full_protocol(table_two, {3: 2}))
    assert answer.status == 200, answer.text
    submitted = scribe.send_json("POST", day.protocol(second) + "submit/", {"version": table_two + 1}).json()
    assert submitted["state"] == "submitted"  # saved just before the crash

    # Two saves wait half-way, on seat 6's rows (locked here): the game row is already changed in each.
    blocker = day.cluster.connect(DATABASE)
    blocker.autocommit = False
    with blocker.cursor() as cursor:
        cursor.execute("SELECT gs.id FROM games_gameseat gs JOIN games_game g ON g.id = gs.game_id "
                       "JOIN tournaments_seat s ON s.id = gs.seat_id WHERE s.number = 6 AND g.table_id IN (%s, %s) "
                       "FOR UPDATE OF gs", (first, second))
    tapped = in_thread(lambda: tap(judge, screen, 6, on_screen))
    # a submitted protocol is the chief judge's to change (games.services.protocol.change)
    changed = in_thread(lambda: chief.send_json("PUT", day.protocol(second),
                                                full_protocol(submitted["version"], {3: 2, 6: 1})))
    wait_for(lambda: lock_waiters(day.cluster) == 2, "both saves to reach the locked rows")
    committed = snapshot(day.cluster)
    day.cluster.stop("immediate")  # the crash
    blocker.close()

    # Down: the cut saves and every other request say so at once; nothing is swapped into the screen.
    answer = tapped()
    assert_unavailable(answer, says=NOTHING_SAVED)
    assert answer.headers["content-type"].startswith("text/plain")
    answer = changed()
    assert_unavailable(answer)
    assert answer.json() == {"detail": f"{UNAVAILABLE} {NOTHING_SAVED}", "saved": False}
    assert_unavailable(tap(judge, screen, 6, on_screen), says=NOTHING_SAVED)
    page = judge.get(screen)
    assert_unavailable(page)
    assert 'id="database-unavailable"' in page.text and page.headers["content-type"].startswith("text/html")
    assert_unavailable(scribe.get(day.protocol(second)))
    standings = f"/p/{day.slug}/standings/"
    assert_unavailable(Browser(day.server.port).get(standings))
    assert_unavailable(Browser(day.server.port).get(standings, **HTMX), says="Try again in a moment.")
    russian = Browser(day.server.port, language="ru").get(standings)
    assert russian.status == 503 and UNAVAILABLE_RU in russian.text

    # Back: the same gunicorn serves at once, and the database holds exactly what was committed.
    day.cluster.start()
    assert chief.get(day.protocol(second)).status == 200
    assert snapshot(day.cluster) == committed
    table_two_now = chief.get(day.protocol(second)).json()
    assert (table_two_now["version"], table_two_now["state"]) == (submitted["version"], "submitted")
    assert [s["fouls"] for s in table_two_now["seats"]][2:6] == [2, 0, 0, 0]
    assert version_on(judge.get(screen)) == on_screen

    # The cut saves are repeated from the same screen and body; a stale one is refused by the version.
    answer = tap(judge, screen, 6, on_screen)
    assert answer.status == 200 and "Seat 6: foul 1" in answer.text, answer.text
    assert "The protocol was changed meanwhile" in tap(judge, screen, 6, on_screen).text
    table_one = chief.get(day.protocol(first)).json()
    assert [s["fouls"] for s in table_one["seats"]][4:6] == [1, 1] and table_one["version"] == on_screen + 1
    answer = chief.send_json("PUT", day.protocol(second), full_protocol(submitted["version"], {3: 2, 6: 1}))
    assert answer.status == 200, answer.text
    stale = chief.send_json("PUT", day.protocol(second), full_protocol(submitted["version"], {3: 2}))
    assert stale.status == 409 and stale.json()["version"] == submitted["version"] + 1
    confirmed = chief.send_json("POST", day.protocol(second) + "confirm/", {"version": submitted["version"] + 1})
    assert confirmed.status == 200 and confirmed.json()["state"] == "confirmed"

    logged = day.server.logged()
    assert "database unavailable: POST" in logged and "database unavailable: PUT" in logged
    assert "Traceback" not in logged and "Internal Server Error" not in logged


def test_an_unreachable_database_fails_a_request_in_seconds() -> None:
    """A server that accepts the connection and never answers (a host gone from the network) is given up
    after the connect timeout of the settings (5 s), not after minutes."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)  # the kernel completes the handshake; nobody ever answers
        port = silent.getsockname()[1]
        code = ("import time, django; django.setup(); from django.db import connection, OperationalError\n"
                "started = time.monotonic()\n"
                "try:\n    connection.ensure_connection()\nexcept OperationalError:\n"
                "    print(round(time.monotonic() - started, 1))\n")
        env = {**os.environ, "DATABASE_URL": f"postgres://nobody@127.0.0.1:{port}/app",
               "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings"}
        result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                                timeout=60)
    assert result.returncode == 0, result.stderr
    assert 4 <= float(result.stdout) < 10, result.stdout
