"""The readers' cache of the shipped nginx files (deploy/nginx/), run by a real nginx in front of the real app:
a reader's second request within the validity is answered by nginx without reaching the app; a signed-in
request is never answered from the cache nor stored in it; two languages, and a page and its htmx fragment, never
get each other's answer; hidden standings stay hidden through the cache; text answers are compressed, the signed-in
pages too, and a reader's answer once, by the app, kept in each encoding.

Both pools of ``pools.conf`` point at the app's live server here; only the ports and the cache's folder change."""

from __future__ import annotations

import gzip
import http.client
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.signals import request_started
from django.test import Client

from tests.deploy.nginx_run import BROTLI_MODULE, NGINX, UPSTREAM_PORTS, running

pytestmark = [pytest.mark.skipif(NGINX is None, reason="nginx is not installed (scripts/system-packages.sh)"),
              pytest.mark.django_db(transaction=True)]

SLUG = "cached-cup"


@pytest.fixture
def proxy(live_server: Any, tmp_path: Path, settings: Any) -> Iterator[int]:
    """nginx with the shipped pools and locations in front of the app; its port. The validity is 30 s here, so that
    "within the validity" holds on a slow machine."""
    settings.PROXY_CACHE_SECONDS = 30
    app_port = int(live_server.url.rsplit(":", 1)[1])
    with running(tmp_path, dict.fromkeys(UPSTREAM_PORTS, app_port)) as port:
        yield port


@pytest.fixture
def reached() -> Iterator[list[str]]:
    """The requests that reached the app (its live server runs in this process)."""
    seen: list[str] = []

    def started(sender: Any, environ: dict[str, Any] | None = None, **kwargs: Any) -> None:
        seen.append((environ or {}).get("PATH_INFO", ""))

    request_started.connect(started)
    yield seen
    request_started.disconnect(started)


def get(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Host": "127.0.0.1", **(headers or {})})
    response = conn.getresponse()
    body = response.read()
    found = {k.lower(): v for k, v in response.getheaders()}
    if found.get("content-encoding") == "gzip":
        body = gzip.decompress(body)
    conn.close()
    return response.status, found, body.decode()


def session_of(user: Any) -> str:
    client = Client()
    client.force_login(user)
    return str(client.cookies[settings.SESSION_COOKIE_NAME].value)


def test_a_readers_second_request_is_answered_by_the_proxy(proxy: int, reached: list[str], import_file: Any) -> None:
    import_file("fiim-example.json", SLUG)
    path = f"/p/{SLUG}/standings/"
    status, headers, first = get(proxy, path, {"Accept-Language": "ru"})
    assert status == 200 and headers["x-cache"] == "MISS"
    assert headers["cache-control"] == "public, max-age=0, s-maxage=30, stale-while-revalidate=2"
    assert reached.count(path) == 1
    status, headers, again = get(proxy, path, {"Accept-Language": "ru"})
    assert (status, headers["x-cache"], again) == (200, "HIT", first)
    assert reached.count(path) == 1  # the app never heard of it
    # the public API too
    api = f"/api/tournaments/{SLUG}/standings/"
    get(proxy, api)
    status, headers, _body = get(proxy, api)
    assert (status, headers["x-cache"], reached.count(api)) == (200, "HIT", 1)


def test_a_signed_in_request_is_never_answered_from_the_cache_nor_kept(proxy: int, reached: list[str],
                                                                       import_file: Any, organizer: Any) -> None:
    import_file("fiim-example.json", SLUG)
    path = f"/p/{SLUG}/standings/"
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_of(organizer)}", "Accept-Language": "en"}
    for _ in range(2):
        status, headers, body = get(proxy, path, cookie)
        assert status == 200 and headers["x-cache"] == "BYPASS"
        assert "public" not in headers.get("cache-control", "")
        assert organizer.username in body  # their own page: the navbar names them
    assert reached.count(path) == 2
    status, headers, body = get(proxy, path, {"Accept-Language": "en"})  # a reader: not the organizer's page
    assert headers["x-cache"] == "MISS" and organizer.username not in body and reached.count(path) == 3


def test_languages_and_fragments_are_kept_apart(proxy: int, import_file: Any) -> None:
    import_file("fiim-example.json", SLUG)
    path = f"/p/{SLUG}/standings/"
    _s, _h, russian = get(proxy, path, {"Accept-Language": "ru"})
    _s, headers, english = get(proxy, path, {"Accept-Language": "en"})
    assert headers["x-cache"] == "MISS"
    assert 'lang="ru"' in russian and 'lang="en"' in english
    _s, headers, by_cookie = get(proxy, path, {"Cookie": "django_language=en", "Accept-Language": "ru"})
    assert headers["x-cache"] == "MISS" and 'lang="en"' in by_cookie
    _s, headers, fragment = get(proxy, path, {"Accept-Language": "ru", "HX-Request": "true"})
    assert headers["x-cache"] == "MISS" and "<html" not in fragment and 'id="standings"' in fragment
    _s, headers, page = get(proxy, path, {"Accept-Language": "ru"})
    assert headers["x-cache"] == "HIT" and page == russian


def test_hidden_standings_stay_hidden_through_the_cache(proxy: int, import_file: Any, organizer: Any) -> None:
    """The organizer reads the hidden standings' figures (the API answers them theirs); a reader after them gets
    the refusal and the alphabetical list, never the organizer's answer."""
    import_file("fiim-example.json", SLUG, standings_hidden=True)
    api = f"/api/tournaments/{SLUG}/standings/"
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_of(organizer)}", "Accept-Language": "en"}
    status, headers, theirs = get(proxy, api, cookie)
    assert status == 200 and '"standings"' in theirs and headers["x-cache"] == "BYPASS"
    for _ in range(2):
        status, _headers, body = get(proxy, api, {"Accept-Language": "en"})
        assert status == 403 and '"standings"' not in body
    for _ in range(2):
        status, _headers, body = get(proxy, f"/p/{SLUG}/standings/", {"Accept-Language": "en"})
        assert status == 200 and 'id="standings-hidden"' in body and 'id="standings"' not in body


def test_text_answers_are_compressed_signed_in_pages_too(proxy: int, import_file: Any, organizer: Any) -> None:
    t = import_file("fiim-example.json", SLUG)
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_of(organizer)}", "Accept-Encoding": "gzip"}
    status, headers, body = get(proxy, f"/t/{t.slug}/participants/", cookie)
    assert status == 200 and headers.get("content-encoding") == "gzip" and "<html" in body
    status, headers, _body = get(proxy, "/static/css/site.css", {"Accept-Encoding": "gzip"})
    assert status == 200 and headers.get("content-encoding") == "gzip"


def raw_get(port: int, path: str, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers={"Host": "127.0.0.1", **headers})
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_a_readers_answer_is_compressed_once_and_kept_in_each_encoding(proxy: int, reached: list[str],
                                                                        import_file: Any) -> None:
    """The app compresses a reader's shareable answer in the reader's encoding (``public/compression.py``) and nginx
    keeps each encoding as its own copy, answered as it is: a reader never gets an encoding they did not ask for, and
    every copy reads as the same page."""
    import brotli

    import_file("fiim-example.json", SLUG)
    path = f"/p/{SLUG}/standings/"
    pages = {}
    for accept, encoding, first in (("gzip, deflate, br", "br", "MISS"), ("gzip", "gzip", "MISS"),
                                    ("identity", None, "MISS"), ("", None, "HIT")):  # "" shares identity's copy
        for attempt in (first, "HIT"):
            status, headers, body = raw_get(proxy, path, {"Accept-Language": "ru", "Accept-Encoding": accept})
            assert (status, headers["x-cache"], headers.get("content-encoding")) == (200, attempt, encoding), accept
        pages[accept] = (brotli.decompress(body) if encoding == "br" else gzip.decompress(body) if encoding
                         else body).decode()
        assert headers["etag"].startswith('W/"' if encoding else '"')
    assert len(set(pages.values())) == 1 and 'id="standings"' in pages[""]
    assert reached.count(path) == 3  # one answer of the app each for br, gzip and as it is


def lines_get(port: int, path: str, lines: list[tuple[str, str]]) -> tuple[int, dict[str, str], bytes]:
    """A GET with the header lines as given, a name repeated as written."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.putrequest("GET", path, skip_host=True, skip_accept_encoding=True)
    for name, value in [("Host", "127.0.0.1"), *lines]:
        conn.putheader(name, value)
    conn.endheaders()
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_a_reader_gets_a_copy_only_in_an_encoding_they_take(proxy: int, import_file: Any) -> None:
    """nginx keys a copy by its own choice of encoding and sends the app that choice: two ``Accept-Encoding`` lines
    (nginx reads the first, gunicorn would join them) never put another encoding's body under a key, and an encoding
    refused with ``q=0`` is not chosen."""
    import_file("fiim-example.json", SLUG)
    path = f"/p/{SLUG}/standings/"
    ru = ("Accept-Language", "ru")
    status, headers, _body = lines_get(proxy, path, [ru, ("Accept-Encoding", "gzip"), ("Accept-Encoding", "br")])
    assert (status, headers["x-cache"], headers.get("content-encoding")) == (200, "MISS", "gzip")
    status, headers, body = lines_get(proxy, path, [ru, ("Accept-Encoding", "gzip")])
    assert (status, headers["x-cache"], headers.get("content-encoding")) == (200, "HIT", "gzip")
    assert 'id="standings"' in gzip.decompress(body).decode()
    status, headers, _body = lines_get(proxy, path, [ru, ("Accept-Encoding", "identity"), ("Accept-Encoding", "gzip")])
    assert (status, headers["x-cache"], headers.get("content-encoding")) == (200, "MISS", None)
    status, headers, body = lines_get(proxy, path, [ru])  # curl, a script reading the page: as it is
    assert (status, headers["x-cache"], headers.get("content-encoding")) == (200, "HIT", None)
    assert 'id="standings"' in body.decode()
    status, headers, _body = lines_get(proxy, path, [ru, ("Accept-Encoding", "br;q=0, gzip")])
    assert (status, headers["x-cache"], headers.get("content-encoding")) == (200, "HIT", "gzip")


@pytest.mark.skipif(not BROTLI_MODULE.exists(), reason="Debian's nginx Brotli module is not installed")
def test_brotli_where_the_phone_takes_it(proxy: int, import_file: Any, organizer: Any) -> None:
    t = import_file("fiim-example.json", SLUG)
    cookie = {"Cookie": f"{settings.SESSION_COOKIE_NAME}={session_of(organizer)}", "Accept-Encoding": "gzip, br"}
    conn = http.client.HTTPConnection("127.0.0.1", proxy, timeout=30)
    conn.request("GET", f"/t/{t.slug}/participants/", headers={"Host": "127.0.0.1", **cookie})
    response = conn.getresponse()
    response.read()
    assert response.status == 200 and response.getheader("Content-Encoding") == "br"


def test_an_old_copy_is_answered_only_briefly_past_its_validity(proxy: int, reached: list[str], import_file: Any,
                                                                 settings: Any) -> None:
    """Within ``PROXY_STALE_SECONDS`` past its validity a copy is answered at once while nginx asks the app again
    behind; a copy older than that (a page nobody read for a while: a phone polling every 20 s) is never answered:
    the reader waits for the app's answer."""
    import time

    settings.PROXY_CACHE_SECONDS, settings.PROXY_STALE_SECONDS = 1, 3
    import_file("fiim-example.json", SLUG)
    path = f"/p/{SLUG}/standings/"
    status, headers, _body = get(proxy, path, {"Accept-Language": "ru"})
    assert (status, headers["x-cache"]) == (200, "MISS")
    assert headers["cache-control"] == "public, max-age=0, s-maxage=1, stale-while-revalidate=3"
    # nginx counts whole seconds: each window may last up to a second more
    time.sleep(2.2)  # past the validity, within the stale seconds: the old copy at once, asked for again behind
    status, headers, _body = get(proxy, path, {"Accept-Language": "ru"})
    assert status == 200 and headers["x-cache"] in ("STALE", "UPDATING")
    for _ in range(50):  # the update behind reaches the app
        if reached.count(path) == 2:
            break
        time.sleep(0.1)
    assert reached.count(path) == 2
    time.sleep(6)  # past the validity and the stale seconds of the copy the update left
    status, headers, _body = get(proxy, path, {"Accept-Language": "ru"})
    assert status == 200 and headers["x-cache"] in ("EXPIRED", "REVALIDATED")  # the reader waited for the app
    assert reached.count(path) == 3


def test_an_answer_behind_the_version_is_kept_to_the_end_of_its_second(
    proxy: int, reached: list[str], import_file: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """While the new version's model is built the app answers the version before (``model_cache.settle``), and nginx
    keeps that copy only to the end of the second it was made in (``X-Accel-Expires``; ``s-maxage=1`` alone kept it
    into the next second, nginx counting whole seconds), then answers it stale while it asks the app again: the
    app's ``stale-while-revalidate`` is still read beside the absolute moment."""
    import time

    from django.core.cache import cache

    from public.model_cache import building_lock
    from tests.helpers import flip_a_result

    tournament = import_file("fiim-example.json", SLUG)
    assert get(proxy, f"/p/{SLUG}/standings/", {"Accept-Language": "ru"})[0] == 200  # this version's model, built
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    assert cache.add(building_lock(tournament), True, 60)  # another worker builds the new version's model
    path = f"/p/{SLUG}/standings/"
    status, headers, _body = get(proxy, path, {"Accept-Language": "en"})
    made = time.time()
    assert (status, headers["x-cache"]) == (200, "MISS")
    assert headers["cache-control"] == "public, max-age=0, s-maxage=1, stale-while-revalidate=2"
    assert "x-accel-expires" not in headers  # nginx's alone
    time.sleep(int(made) + 1.2 - time.time())  # the next second: s-maxage=1 would still count it fresh
    status, headers, _body = get(proxy, path, {"Accept-Language": "en"})
    assert status == 200 and headers["x-cache"] in ("STALE", "UPDATING")  # answered at once, asked for again behind
    for _ in range(50):
        if reached.count(path) == 3:
            break
        time.sleep(0.1)
    assert reached.count(path) == 3
    cache.delete(building_lock(tournament))
