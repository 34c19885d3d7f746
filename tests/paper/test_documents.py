"""The public results documents are built once per results version (issue 13: ``GET /t/SLUG/results.pdf`` of a
1,000-player tournament took 18 s of WeasyPrint on every request, and eight at once held every worker).

Each document is built by one request and kept in the shared cache; while another request builds it, the last
copy built is served, or, before any exists, a short wait and then "being prepared" (503, Retry-After); a new
build cannot start while one runs, whatever the version."""

from __future__ import annotations

import threading
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.utils import translation

from paper import documents
from public.cache import tournament_scope
from public.versioning import bump
from tests.helpers import flip_a_result

pytestmark = pytest.mark.django_db

SLUG = "docs"
URLS = {"pdf": f"/t/{SLUG}/results.pdf", "xlsx": f"/t/{SLUG}/results.xlsx", "csv": f"/t/{SLUG}/results.csv",
        "csv:s1": f"/t/{SLUG}/results/s1.csv", "print": f"/t/{SLUG}/results/"}


@pytest.fixture(autouse=True)
def local_cache(settings: Any) -> Any:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "paper-documents"}}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def published(generated: Any) -> Any:
    tournament = generated(SLUG, players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)  # as the import's commit does outside the test's transaction
    return tournament




def counting_builds() -> tuple[dict[str, int], Any]:
    """Patches ``built_document`` so each call's ``build`` is counted by document name."""
    counts: dict[str, int] = {}
    real = documents.built_document

    def counted(tournament: Any, name: str, build: Any) -> Any:
        def build_counted() -> bytes:
            counts[name] = counts.get(name, 0) + 1
            return bytes(build())

        return real(tournament, name, build_counted)

    return counts, mock.patch("paper.views_results.built_document", counted)


@pytest.mark.parametrize("name", sorted(URLS))
def test_each_document_is_built_once_per_results_version(name: str, client: Any, published: Any,
                                                         django_capture_on_commit_callbacks: Any) -> None:
    counts, patch = counting_builds()
    with patch:
        first = client.get(URLS[name])
        assert first.status_code == 200
        for query in ("", "?x=1", "?utm_source=chat"):  # a query string is the same document
            again = client.get(URLS[name] + query)
            assert again.status_code == 200 and again.content == first.content
        assert counts == {name: 1}
        # the browser that has it gets 304
        assert client.get(URLS[name], HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
        flip_a_result(published, django_capture_on_commit_callbacks)  # a new results version
        newer = client.get(URLS[name], HTTP_IF_NONE_MATCH=first["ETag"])
        assert newer.status_code == 200 and newer["ETag"] != first["ETag"]
        assert counts == {name: 2}


def test_while_one_request_builds_the_others_get_the_last_copy(client: Any, published: Any,
                                                               django_capture_on_commit_callbacks: Any) -> None:
    old = client.get(URLS["csv"])
    flip_a_result(published, django_capture_on_commit_callbacks)
    lock = f"document-building:{tournament_scope(published)}:csv:0:en"
    assert cache.add(lock, True, 60)  # another worker is building the new version's copy
    counts, patch = counting_builds()
    with patch:
        meanwhile = client.get(URLS["csv"])
    assert meanwhile.status_code == 200 and meanwhile.content == old.content and meanwhile["ETag"] == old["ETag"]
    assert counts == {}  # nothing built: the lock holder builds it
    cache.delete(lock)
    with patch:
        after = client.get(URLS["csv"])
    assert after.status_code == 200 and after.content != old.content and counts == {"csv": 1}


def test_before_any_copy_exists_a_request_says_it_is_being_prepared(client: Any, published: Any) -> None:
    lock = f"document-building:{tournament_scope(published)}:pdf:0:en"
    assert cache.add(lock, True, 60)
    with mock.patch("paper.views_results.render_pdf") as pdf:
        response = client.get(URLS["pdf"])  # at once: a waiting request would hold a worker for the whole build
    assert pdf.call_count == 0
    assert response.status_code == 503 and response["Retry-After"] == str(documents.RETRY_AFTER_SECONDS)
    assert b'id="being-prepared"' in response.content and b'http-equiv="refresh"' in response.content


def test_a_quick_document_is_waited_for(client: Any, published: Any) -> None:
    """A document whose last build was quick (a CSV) is worth a short wait rather than a "being prepared"."""
    lock = f"document-building:{tournament_scope(published)}:csv:0:en"
    assert cache.add(lock, True, 60)
    cache.set(f"document-took:{tournament_scope(published)}:csv:0:en", 0.5, 60)
    copy = documents.Document(b"\xef\xbb\xbfmade by the other worker", "x")
    key = f"document:{documents.DOCUMENT_FORMAT}:{published_key(published)}:csv:0:en"

    def finish() -> None:
        cache.set(key, copy, 60)
        cache.delete(lock)

    timer = threading.Timer(0.4, finish)
    timer.start()
    try:
        response = client.get(URLS["csv"])
    finally:
        timer.join()
    assert response.status_code == 200 and response.content == copy.data


def published_key(tournament: Any) -> str:
    from public.cache import cache_scope
    from tournaments.models import Tournament

    return cache_scope(Tournament.objects.select_related("results_version").get(pk=tournament.pk))


def test_a_slow_document_being_prepared_says_when_to_ask_again(client: Any, published: Any) -> None:
    lock = f"document-building:{tournament_scope(published)}:pdf:0:en"
    assert cache.add(lock, True, 60)
    cache.set(f"document-took:{tournament_scope(published)}:pdf:0:en", 17.6, 60)  # the last build took 17.6 s
    response = client.get(URLS["pdf"])
    assert response.status_code == 503 and response["Retry-After"] == "18"


def test_builds_never_overlap_whatever_the_version(published: Any) -> None:
    """The lock is per document, not per version: a build for a new version waits for the running one."""
    from tournaments.models import Tournament

    tournament = Tournament.objects.select_related("results_version").get(pk=published.pk)
    running = threading.Event()
    release = threading.Event()
    overlaps: list[int] = []
    active = [0]

    def slow_build() -> bytes:
        active[0] += 1
        overlaps.append(active[0])
        running.set()
        release.wait(5)
        active[0] -= 1
        return b"v1"

    def build_in_another_request() -> None:
        with translation.override("ru"):  # the language is per thread, as per request
            documents.built_document(tournament, "pdf", slow_build)

    worker = threading.Thread(target=build_in_another_request)
    worker.start()
    assert running.wait(5)
    bump(tournament.pk)
    newer = Tournament.objects.select_related("results_version").get(pk=published.pk)
    with translation.override("ru"):
        with pytest.raises(documents.BeingPrepared):
            documents.built_document(newer, "pdf", lambda: b"v2")  # refused while v1 builds: no copy to serve
        release.set()
        worker.join()
        assert max(overlaps) == 1
        assert documents.built_document(newer, "pdf", lambda: b"v2").data == b"v2"  # built once the first ended


def test_hidden_copies_are_never_served_to_the_public(client: Any, published: Any, organizer: Any,
                                                      django_capture_on_commit_callbacks: Any) -> None:
    public_copy = client.get(URLS["csv"]).content
    with django_capture_on_commit_callbacks(execute=True):
        published.standings_hidden = True
        published.save()
    organizer_client = type(client)()
    organizer_client.cookies["django_language"] = "en"
    organizer_client.force_login(organizer)
    hidden_copy = organizer_client.get(URLS["csv"])
    assert hidden_copy.status_code == 200 and b"not for publication" in hidden_copy.content
    assert client.get(URLS["csv"]).status_code == 403
    assert hidden_copy.content != public_copy
