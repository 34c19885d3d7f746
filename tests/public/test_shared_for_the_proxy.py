"""An anonymous reader's answer is everyone's, marked for the reverse proxy's cache (``public/conditional.py``): no
CSRF token, no cookie, nobody's query string, ``public, s-maxage`` and the version's ETag; a signed-in user's, or one
with messages or credentials, is ``private, no-cache``. Without a proxy every answer is rendered from the model of
the current version (a new result shows at once). tests/deploy/test_proxy_cache.py runs the real nginx in front."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from public.versioning import bump
from tests.helpers import flip_a_result

pytestmark = pytest.mark.django_db

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")
SHARED = "public, max-age=0, s-maxage=2, stale-while-revalidate=2"


def public_urls(slug: str) -> list[str]:
    return [f"/p/{slug}/", f"/p/{slug}/rules/", f"/p/{slug}/seating/s1/1/", f"/p/{slug}/standings/s1/",
            f"/p/{slug}/players/p0001/", f"/p/{slug}/games/s1/1/1/", f"/p/{slug}/where/?q=Player 1",
            f"/api/tournaments/{slug}/standings/?stage=s1", f"/api/tournaments/{slug}/games/?stage=s1",
            f"/api/tournaments/{slug}/rounds/s1/1/seating/"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_public_answer_is_marked_for_the_proxy_and_revalidates_after_one_query(
    client: Any, generated: Any, django_assert_num_queries: Any, ruleset: str,
) -> None:
    tournament = generated(f"shared-{ruleset}", ruleset=ruleset, players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    for url in public_urls(tournament.slug):
        first = client.get(url)
        assert first.status_code == 200, url
        assert first["Cache-Control"] == SHARED and not first.cookies, url
        assert "Cookie" in first["Vary"] and "HX-Request" in first["Vary"], url
        with django_assert_num_queries(1):  # the proxy asking again with the ETag: the version only
            again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304 and again["Cache-Control"] == SHARED, url


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
    other = client.get(url + "?fbclid=another")  # another query string the page does not read: the same answer
    assert other.content == first.content


def test_the_language_switch_of_a_shared_page_works_without_a_token(generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    browser = Client(enforce_csrf_checks=True)
    assert "csrfmiddlewaretoken" not in browser.get("/p/shared/").content.decode()
    switched = browser.post(reverse("set_language"), {"language": "ru", "next": "/p/shared/"})
    assert switched.status_code == 302 and switched.cookies["django_language"].value == "ru"
    assert browser.get("/p/shared/")["Content-Language"] == "ru"


def test_a_new_result_is_served_at_once(client: Any, generated: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    for url in ("/p/shared/standings/s1/", "/api/tournaments/shared/standings/?stage=s1"):
        before = client.get(url)
        flip_a_result(tournament, django_capture_on_commit_callbacks)
        after = client.get(url, HTTP_IF_NONE_MATCH=before["ETag"])
        assert after.status_code == 200 and after.content != before.content, url


def test_hiding_the_standings_hides_them_at_once(
    client: Any, generated: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = generated("shared", players=20, rounds=2, standings_hidden=False)
    api, page = "/api/tournaments/shared/standings/?stage=s1", "/p/shared/standings/s1/"
    visible = client.get(api)
    assert visible.status_code == 200
    shown = client.get(page)
    with django_capture_on_commit_callbacks(execute=True):
        tournament.standings_hidden = True
        tournament.save()
    refused = client.get(api, HTTP_IF_NONE_MATCH=visible["ETag"])
    assert refused.status_code == 403 and "public" not in refused["Cache-Control"]  # a refusal is never kept
    assert "ETag" not in refused
    hidden = client.get(page, HTTP_IF_NONE_MATCH=shown["ETag"])
    assert hidden.status_code == 200
    text = hidden.content.decode()
    assert 'id="standings-hidden"' in text and 'id="standings"' not in text


def test_signed_in_readers_get_their_own_page_never_kept(client: Any, generated: Any, organizer: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    anonymous = client.get(url)
    client.force_login(organizer)
    mine = client.get(url)
    assert mine["Cache-Control"] == "no-cache, private" and mine["ETag"] != anonymous["ETag"]
    assert "X-CSRFToken" in mine.content.decode() and organizer.username in mine.content.decode()


def test_languages_and_fragments_are_told_apart(client: Any, generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    english = client.get(url)
    client.cookies["django_language"] = "ru"
    russian = client.get(url)
    fragment = client.get(url, HTTP_HX_REQUEST="true")
    assert 'lang="en"' in english.content.decode() and 'lang="ru"' in russian.content.decode()
    assert "<html" not in fragment.content.decode() and fragment.content.decode().strip() in russian.content.decode()
    assert len({english["ETag"], russian["ETag"], fragment["ETag"]}) == 3
    del client.cookies["django_language"]
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="ru")["ETag"] == russian["ETag"]


def test_messages_and_credentials_are_never_marked_shared(client: Any, generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/api/tournaments/shared/standings/?stage=s1"
    assert client.get(url)["Cache-Control"] == SHARED
    assert "private" in client.get(url, HTTP_AUTHORIZATION="Token nope")["Cache-Control"]
    client.cookies["messages"] = "something"
    assert "private" in client.get(url)["Cache-Control"]


def test_head_gets_the_headers_only(client: Any, generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    full = client.get(url)
    head = client.head(url)
    assert head.status_code == 200 and head.content == b"" and head["ETag"] == full["ETag"]
    assert head["Cache-Control"] == SHARED


def test_a_host_the_site_does_not_serve_is_refused_as_elsewhere(client: Any, generated: Any) -> None:
    generated("shared", players=20, rounds=2, standings_hidden=False)
    url = "/p/shared/standings/s1/"
    assert client.get(url).status_code == 200
    assert client.get(url, HTTP_HOST="evil.example").status_code == 400
