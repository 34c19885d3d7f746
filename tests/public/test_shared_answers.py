"""Anonymous readers get the kept, compressed answer of the current version after one query (public/answers.py,
public/middleware.py): the same bytes the view would send, in the encoding asked for, with an ETag of that
encoding; never another version's, another language's, hidden standings' or a signed-in user's page."""

from __future__ import annotations

import gzip
from typing import Any

import brotli
import pytest
from django.test import Client
from django.urls import reverse

from public import answers
from public.versioning import bump
from tests.helpers import flip_a_result

pytestmark = pytest.mark.django_db

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


def public_urls(slug: str) -> list[str]:
    return [f"/p/{slug}/", f"/p/{slug}/rules/", f"/p/{slug}/seating/s1/1/", f"/p/{slug}/standings/s1/",
            f"/p/{slug}/players/p0001/", f"/p/{slug}/games/s1/1/1/", f"/p/{slug}/where/?q=Player 1",
            f"/api/tournaments/{slug}/standings/?stage=s1", f"/api/tournaments/{slug}/games/?stage=s1",
            f"/api/tournaments/{slug}/rounds/s1/1/seating/"]


def decoded(response: Any) -> bytes:
    body = response.content
    encoding = response.get("Content-Encoding")
    if encoding == "br":
        return bytes(brotli.decompress(body))
    if encoding == "gzip":
        return gzip.decompress(body)
    return bytes(body)




@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_public_answer_is_kept_compressed_and_served_after_one_query(
    client: Any, generated: Any, django_assert_num_queries: Any, ruleset: str,
) -> None:
    generated("shared", players=20, rounds=2, ruleset=ruleset, standings_hidden=False)
    for url in public_urls("shared"):
        plain = client.get(url)
        assert plain.status_code == 200, url
        assert "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"], url
        assert len(plain.content) >= answers.MIN_COMPRESSED_SIZE, url  # short ones: the test below
        for encoding in ("br", "gzip"):
            with django_assert_num_queries(1):  # the tournament and its version: nothing else runs
                packed = client.get(url, HTTP_ACCEPT_ENCODING=f"{encoding}, deflate")
            assert packed.status_code == 200 and packed["Content-Encoding"] == encoding, url
            assert decoded(packed) == plain.content, url
            assert int(packed["Content-Length"]) == len(packed.content) < len(plain.content), url
            assert packed["ETag"] != plain["ETag"] and packed["Vary"] == plain["Vary"], url
            with django_assert_num_queries(1):
                again = client.get(url, HTTP_ACCEPT_ENCODING=encoding, HTTP_IF_NONE_MATCH=packed["ETag"])
            assert again.status_code == 304 and again["ETag"] == packed["ETag"], url
        # the identity's ETag does not validate a compressed copy, nor the other way round
        other = client.get(url, HTTP_ACCEPT_ENCODING="br", HTTP_IF_NONE_MATCH=plain["ETag"])
        assert other.status_code == 200 and other["Content-Encoding"] == "br", url


def test_a_page_shared_by_every_reader_carries_no_token_no_cookie_and_nobody_s_query(
    client: Any, generated: Any,
) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    first = client.get(url + "?utm_source=someone")
    assert first.status_code == 200 and not first.cookies
    page = first.content.decode()
    assert "csrfmiddlewaretoken" not in page and "X-CSRFToken" not in page
    assert "utm_source" not in page and f'data-hx-get="{url}"' in page
    kept = client.get(url + "?fbclid=another")  # another query string the page does not read: the same answer
    assert kept.content == first.content


def test_the_language_switch_of_a_shared_page_works_without_a_token(generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    browser = Client(enforce_csrf_checks=True)
    assert "csrfmiddlewaretoken" not in browser.get("/p/shared/").content.decode()
    switched = browser.post(reverse("set_language"), {"language": "ru", "next": "/p/shared/"})
    assert switched.status_code == 302 and switched.cookies["django_language"].value == "ru"
    assert "Турнир" in browser.get("/p/shared/").content.decode() or \
        browser.get("/p/shared/")["Content-Language"] == "ru"


def test_a_new_result_is_served_at_once(client: Any, generated: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    for url in ("/p/shared/standings/s1/", "/api/tournaments/shared/standings/?stage=s1"):
        before = decoded(client.get(url, HTTP_ACCEPT_ENCODING="br"))
        flip_a_result(tournament, django_capture_on_commit_callbacks)
        after = client.get(url, HTTP_ACCEPT_ENCODING="br")
        assert decoded(after) != before and decoded(after) == client.get(url).content, url


def test_hiding_the_standings_hides_the_kept_answers(
    client: Any, generated: Any, organizer: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    api = "/api/tournaments/shared/standings/?stage=s1"
    page = "/p/shared/standings/s1/"
    assert client.get(api, HTTP_ACCEPT_ENCODING="gzip").status_code == 200
    shown = decoded(client.get(page, HTTP_ACCEPT_ENCODING="gzip")).decode()
    with django_capture_on_commit_callbacks(execute=True):
        tournament.standings_hidden = True
        tournament.save()
    assert client.get(api, HTTP_ACCEPT_ENCODING="gzip").status_code == 403
    hidden = decoded(client.get(page, HTTP_ACCEPT_ENCODING="gzip")).decode()
    assert 'id="standings-hidden"' in hidden and 'id="standings"' not in hidden and hidden != shown


def test_signed_in_readers_get_their_own_page(client: Any, generated: Any, organizer: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    anonymous = client.get(url, HTTP_ACCEPT_ENCODING="br")
    assert anonymous["Content-Encoding"] == "br"
    client.force_login(organizer)
    mine = client.get(url, HTTP_ACCEPT_ENCODING="br")
    assert "Content-Encoding" not in mine  # made for this reader, not kept
    assert "X-CSRFToken" in mine.content.decode() and organizer.username in mine.content.decode()


def test_languages_and_fragments_are_kept_apart(client: Any, generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    english = decoded(client.get(url, HTTP_ACCEPT_ENCODING="br")).decode()
    client.cookies["django_language"] = "ru"
    russian = decoded(client.get(url, HTTP_ACCEPT_ENCODING="br")).decode()
    fragment = decoded(client.get(url, HTTP_ACCEPT_ENCODING="br", HTTP_HX_REQUEST="true")).decode()
    assert 'lang="en"' in english and 'lang="ru"' in russian
    assert "<html" not in fragment and fragment.strip() in russian
    del client.cookies["django_language"]
    by_header = decoded(client.get(url, HTTP_ACCEPT_ENCODING="br", HTTP_ACCEPT_LANGUAGE="ru")).decode()
    assert by_header == russian


def test_messages_and_credentials_skip_the_kept_answers(
    client: Any, generated: Any, django_assert_num_queries: Any,
) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/api/tournaments/shared/standings/?stage=s1"
    client.get(url)
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_ACCEPT_ENCODING="br")["Content-Encoding"] == "br"
    assert "Content-Encoding" not in client.get(url, HTTP_ACCEPT_ENCODING="br", HTTP_AUTHORIZATION="Token nope")
    client.cookies["messages"] = "something"
    assert "Content-Encoding" not in client.get(url, HTTP_ACCEPT_ENCODING="br")


def test_a_short_answer_is_sent_as_it_is(client: Any, generated: Any, django_assert_num_queries: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/api/tournaments/shared/"
    plain = client.get(url)
    assert len(plain.content) < answers.MIN_COMPRESSED_SIZE
    with django_assert_num_queries(1):
        kept = client.get(url, HTTP_ACCEPT_ENCODING="br, gzip")
    assert "Content-Encoding" not in kept and kept.content == plain.content and kept["ETag"] == plain["ETag"]


def test_head_gets_the_headers_only(client: Any, generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    full = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    head = client.head(url, HTTP_ACCEPT_ENCODING="gzip")
    assert head.status_code == 200 and head.content == b"" and head["ETag"] == full["ETag"]
    assert head["Content-Length"] == full["Content-Length"]


@pytest.mark.parametrize(("header", "codings"), [
    ("gzip, deflate, br", {"gzip", "deflate", "br"}),
    ("br;q=0, gzip;q=0.5", {"gzip"}),
    ("identity", {"identity"}),
    ("", set()),
    ("*;q=0.1", {"*"}),
])
def test_accept_encoding_is_read_with_its_weights(header: str, codings: set[str]) -> None:
    assert answers.accepted(header) == codings


def test_a_new_release_names_new_keys(tmp_path: Any, settings: Any) -> None:
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "views.py").write_text("x = 1\n")
    settings.STATIC_ROOT = str(tmp_path / "staticfiles")
    first = answers.release_digest(tmp_path)
    (tmp_path / "app" / "page.html").write_text("<p>new</p>")
    assert answers.release_digest(tmp_path) != first


def test_while_a_new_version_is_being_built_readers_get_the_last_kept_answer(
    client: Any, generated: Any, django_assert_num_queries: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """Between a result and its page, the middleware serves the last answer kept (one query), as the views
    serve the last fragment rendered, instead of sending every reader to the view."""
    from public.cache import building_lock, tournament_scope

    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    url = "/p/shared/standings/s1/"
    before = client.get(url, HTTP_ACCEPT_ENCODING="br")
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    tournament.refresh_from_db()
    from django.core.cache import cache

    assert cache.add(building_lock(tournament), True, 30)  # another worker builds the new version's model
    with django_assert_num_queries(1):
        meanwhile = client.get(url, HTTP_ACCEPT_ENCODING="br")
    assert meanwhile["ETag"] == before["ETag"] and meanwhile.content == before.content
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_ACCEPT_ENCODING="br", HTTP_IF_NONE_MATCH=before["ETag"]).status_code == 304
    cache.delete(building_lock(tournament))
    after = client.get(url, HTTP_ACCEPT_ENCODING="br")
    assert after["ETag"] != before["ETag"] and decoded(after) == client.get(url).content
    assert not [key for key in cache._cache if f"public-rendering:{tournament_scope(tournament)}" in key]


def test_within_the_refresh_interval_the_last_kept_answer_is_served(
    client: Any, generated: Any, settings: Any, django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    settings.PUBLIC_REFRESH_SECONDS = 60
    url = "/api/tournaments/shared/standings/?stage=s1"
    before = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").content == before.content
    settings.PUBLIC_REFRESH_SECONDS = 0
    assert client.get(url, HTTP_ACCEPT_ENCODING="gzip").content != before.content


@pytest.mark.django_db(transaction=True)
def test_a_connection_the_database_dropped_is_replaced_without_an_error(client: Any, generated: Any) -> None:
    """The answer's one query is its own health check: a kept connection that died (the database restarted)
    is closed and the query runs again on a new one."""
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("closing the driver's connection under Django is PostgreSQL's failure mode")
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    assert client.get(url, HTTP_ACCEPT_ENCODING="br").status_code == 200
    connection.ensure_connection()
    connection.connection.close()  # as a restarted server leaves it: the next query fails
    assert client.get(url, HTTP_ACCEPT_ENCODING="br").status_code == 200


def test_a_process_holding_one_encoding_still_answers_the_one_asked_for(client: Any, generated: Any) -> None:
    """Another worker kept the answer; this one has fetched only the plain copy so far (found by the bench: it
    sent that copy, with the plain ETag, to phones that asked for brotli and held the brotli ETag)."""
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    packed = client.get(url, HTTP_ACCEPT_ENCODING="br")
    answers.LOCAL_ANSWERS.clear()  # as in another process
    assert "Content-Encoding" not in client.get(url)
    again = client.get(url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert again["Content-Encoding"] == "br" and again.content == packed.content
    assert client.get(url, HTTP_ACCEPT_ENCODING="br", HTTP_IF_NONE_MATCH=packed["ETag"]).status_code == 304


def test_with_a_refresh_interval_the_version_is_read_at_most_every_quarter_of_it(
    client: Any, generated: Any, settings: Any, django_assert_num_queries: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The production profile's 2 s: half a second without a query; a change is served once it has passed."""
    import time

    from public.middleware import RECENT_STAMPS

    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    RECENT_STAMPS.read.clear()
    settings.PUBLIC_REFRESH_SECONDS = 4
    url = "/p/shared/standings/s1/"
    before = client.get(url, HTTP_ACCEPT_ENCODING="br")
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_ACCEPT_ENCODING="br").content == before.content
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    time.sleep(1.05)  # past a quarter: the version is read again (the last answer stands for the rest of it)
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_ACCEPT_ENCODING="br").content == before.content
    settings.PUBLIC_REFRESH_SECONDS = 0
    assert decoded(client.get(url, HTTP_ACCEPT_ENCODING="br")) != decoded(before)
    RECENT_STAMPS.read.clear()


def test_a_host_the_site_does_not_serve_is_refused_as_elsewhere(client: Any, generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    assert client.get(url, HTTP_ACCEPT_ENCODING="br").status_code == 200
    assert client.get(url, HTTP_ACCEPT_ENCODING="br", HTTP_HOST="evil.example").status_code == 400


SHARED_STANDINGS, SHARED_API = "/p/shared/standings/s1/", "/api/tournaments/shared/standings/?stage=s1"


def kept_then_changed(client: Any, generated: Any, capture: Any) -> tuple[Any, bytes, bytes]:
    """A tournament whose standings page and API answer are kept, then a result changed: the tournament and the
    two answers kept before the change."""
    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    old_standings = decoded(client.get(SHARED_STANDINGS, HTTP_ACCEPT_ENCODING="br"))
    old_api = decoded(client.get(SHARED_API, HTTP_ACCEPT_ENCODING="br"))
    flip_a_result(tournament, capture)
    return tournament, old_standings, old_api


def test_after_a_render_the_slot_rests_and_readers_get_the_last_answer(
    client: Any, generated: Any, settings: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """With ``PUBLIC_WORK_SHARE`` N renders take at most an N-th of a core: after one, the tournament's next render
    waits N - 1 times as long (made endless here), and a page due meanwhile is the last one kept."""
    import time

    from django.core.cache import cache

    from public import middleware, snapshot

    tournament, old_standings, old_api = kept_then_changed(client, generated, django_capture_on_commit_callbacks)
    standings, api = SHARED_STANDINGS, SHARED_API
    settings.PUBLIC_REFRESH_SECONDS = 0.1
    settings.PUBLIC_WORK_SHARE = 10_000  # the renders' rest; the model is built again as usual:
    monkeypatch.setattr(snapshot, "refresh_interval", lambda took: settings.PUBLIC_REFRESH_SECONDS)
    time.sleep(0.15)  # both kept answers are due
    assert decoded(client.get(standings, HTTP_ACCEPT_ENCODING="br")) != old_standings  # rendered; the slot rests
    assert isinstance(cache.get(middleware.public_slot(tournament_identity(tournament))), float)
    assert decoded(client.get(api, HTTP_ACCEPT_ENCODING="br")) == old_api  # the last one kept, meanwhile
    cache.delete(middleware.public_slot(tournament_identity(tournament)))  # its rest is over
    settings.PUBLIC_REFRESH_SECONDS = 0
    assert decoded(client.get(api, HTTP_ACCEPT_ENCODING="br")) != old_api
    middleware.RECENT_STAMPS.read.clear()


def test_with_a_share_of_one_the_next_due_page_renders_right_after_the_last(
    client: Any, generated: Any, settings: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """``PUBLIC_WORK_SHARE`` 1 (the default): one render of a tournament at a time, but no rest after it, so the
    next page due is rendered at once and readers see a result within seconds of the model."""
    import time

    from django.core.cache import cache

    from public import middleware

    tournament, old_standings, old_api = kept_then_changed(client, generated, django_capture_on_commit_callbacks)
    standings, api = SHARED_STANDINGS, SHARED_API
    settings.PUBLIC_REFRESH_SECONDS = 0.1
    settings.PUBLIC_WORK_SHARE = 1
    try:
        time.sleep(0.15)  # both kept answers are due
        assert decoded(client.get(standings, HTTP_ACCEPT_ENCODING="br")) != old_standings
        assert cache.get(middleware.public_slot(tournament_identity(tournament))) is None  # free at once
        assert decoded(client.get(api, HTTP_ACCEPT_ENCODING="br")) != old_api
    finally:
        settings.PUBLIC_REFRESH_SECONDS = 0
        middleware.RECENT_STAMPS.read.clear()


def test_a_second_slot_renders_a_page_while_the_first_is_taken_and_an_overdue_page_renders_without_one(
    client: Any, generated: Any, settings: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """``PUBLIC_RENDER_SLOTS``: how many pages of a tournament render at once; ``PUBLIC_MOST_BEHIND_SECONDS``: a page
    kept longer ago than that renders even with every slot taken (0: never)."""
    import time

    from django.core.cache import cache

    from public import middleware

    tournament, old_standings, old_api = kept_then_changed(client, generated, django_capture_on_commit_callbacks)
    standings, api = SHARED_STANDINGS, SHARED_API
    identity = tournament_identity(tournament)
    settings.PUBLIC_REFRESH_SECONDS = 0.1
    try:
        cache.set(middleware.public_slot(identity), time.time() + 3600, 60)  # the first slot rests an hour
        time.sleep(0.15)  # both kept answers are due
        settings.PUBLIC_RENDER_SLOTS, settings.PUBLIC_MOST_BEHIND_SECONDS = 1, 0
        assert decoded(client.get(standings, HTTP_ACCEPT_ENCODING="br")) == old_standings  # no slot: the last one
        settings.PUBLIC_RENDER_SLOTS = 2
        assert decoded(client.get(standings, HTTP_ACCEPT_ENCODING="br")) != old_standings  # the second slot
        assert cache.get(middleware.public_slot(identity, 1)) is None  # free again after the render
        cache.set(middleware.public_slot(identity, 1), time.time() + 3600, 60)  # both slots taken now
        assert decoded(client.get(api, HTTP_ACCEPT_ENCODING="br")) == old_api
        settings.PUBLIC_MOST_BEHIND_SECONDS = 0.1  # the API's answer was kept longer ago than that
        assert decoded(client.get(api, HTTP_ACCEPT_ENCODING="br")) != old_api
    finally:
        settings.PUBLIC_REFRESH_SECONDS = 0
        middleware.RECENT_STAMPS.read.clear()


def test_while_a_model_is_built_a_page_renders_only_if_a_newer_model_than_its_own_is_built() -> None:
    """The view renders from the last model built while another is being built: worth it when that model is newer
    than the kept answer, not when the answer already shows it."""
    from django.core.cache import cache

    from public import middleware
    from public.answers import Stamp
    from public.cache import building_lock_of, built_key_of

    stamp = Stamp("9.1", "scope", 12, False)
    cache.delete_many([building_lock_of("9.1"), built_key_of("9.1")])
    assert not middleware.nothing_newer_to_show(stamp, 8)  # nothing being built: the view builds the current one
    cache.set(building_lock_of("9.1"), 1, 60)
    assert middleware.nothing_newer_to_show(stamp, 8)  # being built, none built yet
    cache.set(built_key_of("9.1"), (8, None, 0.0, 0.1), 60)
    assert middleware.nothing_newer_to_show(stamp, 8)  # the kept answer shows the newest model built
    cache.set(built_key_of("9.1"), (10, None, 0.0, 0.1), 60)
    assert not middleware.nothing_newer_to_show(stamp, 8)  # a newer one is built: render from it
    cache.delete_many([building_lock_of("9.1"), built_key_of("9.1")])


def tournament_identity(tournament: Any) -> str:
    from public.cache import tournament_scope

    return tournament_scope(tournament)
