"""The public results documents are built once per results version, by the documents' worker, never in a request
(``GET /t/SLUG/results.pdf`` of a 1,000-player tournament took 18 s of WeasyPrint in the web
worker, and eight at once held every worker).

The first request asks the worker for it; while it is asked for or built, the last copy built is served, or,
before any exists, "being prepared" at once (202 Accepted, Retry-After); one task per document at a time,
whatever the version, and no more builds at once than the build slots."""

from __future__ import annotations

import threading
import time
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.utils import translation

from base.release import release
from paper import documents
from public.versioning import bump
from tests.helpers import flip_a_result

pytestmark = pytest.mark.django_db

SLUG = "docs"
URLS = {"pdf": f"/t/{SLUG}/results.pdf", "xlsx": f"/t/{SLUG}/results.xlsx", "csv": f"/t/{SLUG}/results.csv",
        "csv:s1": f"/t/{SLUG}/results/s1.csv", "print": f"/t/{SLUG}/results/"}
SHARED = "public, max-age=0, s-maxage=2, stale-while-revalidate=2"  # what the proxy may keep


@pytest.fixture(autouse=True)
def local_cache(settings: Any, monkeypatch: Any) -> Any:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "paper-documents"}}
    cache.clear()
    documents.NOT_YET.clear()
    monkeypatch.setattr(documents, "NOT_YET_SECONDS", 0.0)  # test_a_flood_is_answered_without_the_cache sets it
    yield
    cache.clear()


@pytest.fixture
def published(generated: Any) -> Any:
    tournament = generated(SLUG, players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)  # as the import's commit does outside the test's transaction
    return tournament




def counting_builds() -> tuple[dict[str, int], Any]:
    """Patches the documents' ``build`` so each build is counted by document name."""
    counts: dict[str, int] = {}
    real = documents.build

    def counted(tournament: Any, name: str) -> bytes:
        counts[name] = counts.get(name, 0) + 1
        return real(tournament, name)

    return counts, mock.patch("paper.documents.build", counted)


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
    lock = documents.document_state_keys(published, "csv:0:en")[1]
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
    lock = documents.document_state_keys(published, "pdf:0:en")[1]
    assert cache.add(lock, True, 60)
    with mock.patch("paper.builds.render_pdf") as pdf:
        response = client.get(URLS["pdf"])  # at once: a waiting request would hold a worker for the whole build
    assert pdf.call_count == 0
    assert response.status_code == 202 and response["Retry-After"] == str(documents.RETRY_AFTER_SECONDS)
    assert b'id="being-prepared"' in response.content and b'http-equiv="refresh"' in response.content


def test_a_quick_document_is_not_waited_for_either(client: Any, published: Any) -> None:
    """Even a document whose last build was quick (a CSV) is not waited for (a waiting request holds a web worker):
    "being prepared" at once, asking again in 2 s; then the copy the worker made is served."""
    lock = documents.document_state_keys(published, "csv:0:en")[1]
    assert cache.add(lock, True, 60)
    cache.set(documents.document_state_keys(published, "csv:0:en")[2], 0.5, 60)
    started = time.monotonic()
    response = client.get(URLS["csv"])
    assert response.status_code == 202 and response["Retry-After"] == "2" and time.monotonic() - started < 1
    copy = documents.Document(b"\xef\xbb\xbfmade by the worker", "x")
    cache.set(f"document:{documents.DOCUMENT_FORMAT}.{release()}:{published_key(published)}:csv:0:en", copy, 60)
    again = client.get(URLS["csv"])
    assert again.status_code == 200 and again.content == copy.data


def test_a_flood_is_answered_without_the_cache_and_marked_for_the_proxy(
    client: Any, published: Any, monkeypatch: Any,
) -> None:
    """For a second after a request found no copy, this process answers "being prepared" for that document without
    asking the cache; an anonymous visitor's page carries nothing personal and is marked for the proxy's cache
    (``public.conditional``), which answers the rest of a flood (tests/deploy/test_proxy_cache.py)."""
    monkeypatch.setattr(documents, "NOT_YET_SECONDS", 1.0)
    lock = documents.document_state_keys(published, "pdf:0:en")[1]
    assert cache.add(lock, True, 60)
    first = client.get(URLS["pdf"])
    assert first.status_code == 202 and first["Cache-Control"] == SHARED
    with mock.patch.object(documents, "cache") as untouched:
        again = [client.get(URLS["pdf"] + f"?x={n}") for n in range(5)]
    assert untouched.method_calls == []
    assert all(a.status_code == 202 and a.content == first.content for a in again)
    print_sheet = client.get(URLS["print"])  # another document of the same tournament: its own answer
    assert print_sheet.status_code == 200 and print_sheet["Cache-Control"] == SHARED
    assert b"csrfmiddlewaretoken" not in first.content and b"?x=" not in first.content
    time.sleep(1.05)
    copy = documents.Document(b"%PDF-made by the worker", "x")
    cache.set(f"document:{documents.DOCUMENT_FORMAT}.{release()}:{published_key(published)}:pdf:0:en", copy, 60)
    assert client.get(URLS["pdf"]).content == copy.data  # a second later, the copy the worker made


def published_key(tournament: Any) -> str:
    from public.model_cache import cache_scope
    from tournaments.models import Tournament

    return cache_scope(Tournament.objects.select_related("results_version").get(pk=tournament.pk))


def test_a_slow_document_being_prepared_says_when_to_ask_again(client: Any, published: Any) -> None:
    lock = documents.document_state_keys(published, "pdf:0:en")[1]
    assert cache.add(lock, True, 60)
    cache.set(documents.document_state_keys(published, "pdf:0:en")[2], 17.6, 60)  # the last build took 17.6 s
    response = client.get(URLS["pdf"])
    assert response.status_code == 202 and response["Retry-After"] == "18"


def test_builds_never_overlap_whatever_the_worker(published: Any, settings: Any) -> None:
    """However many workers take the documents' queue, builds wait for a build slot (``DOCUMENT_BUILDS_AT_ONCE``)."""
    from tournaments.models import Tournament

    settings.DOCUMENT_BUILDS_AT_ONCE = 1
    running = threading.Event()
    active, most = [0], [0]

    def slow_build(tournament: Any, name: str) -> bytes:
        active[0] += 1
        most[0] = max(most[0], active[0])
        running.set()
        time.sleep(0.3)
        active[0] -= 1
        return name.encode()

    tournament = Tournament.objects.select_related("results_version").get(pk=published.pk)

    def worker(name: str) -> None:
        with translation.override("ru"):
            documents.store(tournament, name)

    with mock.patch("paper.documents.build", slow_build):
        workers = [threading.Thread(target=worker, args=(name,)) for name in ("pdf", "xlsx", "csv")]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join(10)
    assert running.is_set() and most[0] == 1


@pytest.mark.django_db(transaction=True)
def test_a_request_never_builds_a_document_the_worker_does(client: Any, generated: Any, settings: Any) -> None:
    """With the tasks in the database (production), the request only asks: the first gets "being prepared" at
    once and queues one task; the others queue nothing; the worker builds it; then it is served."""
    from django_tasks_db.models import DBTaskResult

    from tests.conftest import TASKS_IN_DATABASE

    tournament = generated(SLUG, players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    settings.TASKS = TASKS_IN_DATABASE
    counts, patch = counting_builds()
    with patch:
        first = client.get(URLS["pdf"])
        again = client.get(URLS["pdf"] + "?x=2")
        assert first.status_code == again.status_code == 202 and counts == {}
        queued = DBTaskResult.objects.get()
        assert queued.task_path == "paper.tasks.build_document" and queued.queue_name == "documents"
        assert queued.args_kwargs["args"][1:] == ["pdf", "en"]
        run_queued_tasks()
        served = client.get(URLS["pdf"])
    assert served.status_code == 200 and served.content.startswith(b"%PDF") and counts == {"pdf": 1}
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


@pytest.mark.django_db(transaction=True)
def test_the_organizers_pdfs_are_made_by_the_worker(client: Any, generated: Any, organizer: Any,
                                                    settings: Any) -> None:
    """The seating sheets' and the blank protocols' PDFs: the page is made in the request, its PDF by the worker;
    the organizer's page says it is being made and reloads itself until it is there."""
    from django_tasks_db.models import DBTaskResult

    from tests.conftest import TASKS_IN_DATABASE

    tournament = generated(SLUG, players=20, rounds=2, standings_hidden=False)
    tournament.organizers.add(organizer)
    settings.TASKS = TASKS_IN_DATABASE
    client.force_login(organizer)
    stage = tournament.stages.order_by("order").first()
    for kind in ("seating", "protocols"):
        url = f"/t/{SLUG}/print/{stage.ext_id}/1/{kind}.pdf"
        with mock.patch("paper.documents.html_to_pdf") as pdf:
            waiting = client.get(url)
            assert waiting.status_code == 202 and pdf.call_count == 0
            assert b'http-equiv="refresh"' in waiting.content
        assert DBTaskResult.objects.filter(task_path="paper.tasks.make_pdf", status="READY").count() == 1
        run_queued_tasks()
        made = client.get(url)
        assert made.status_code == 200 and made.content.startswith(b"%PDF")
        assert made["Content-Disposition"].endswith(f'{kind}.pdf"')


def run_queued_tasks() -> None:
    """Every task queued, run by ``db_worker``'s own worker until none is left (``--batch``)."""
    from django_tasks_db.management.commands.db_worker import Worker

    Worker(queue_names=["*"], interval=0, batch=True, backend_name="default", startup_delay=False, max_tasks=None,
           worker_id="test", excluded_queue_names=[]).run()


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
