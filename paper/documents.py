"""Costly public documents (the results PDF, XLSX, CSV and print sheet, the diplomas), built once per results
version by a background worker, never in a request.

A results PDF of a large tournament takes WeasyPrint many seconds. Built in the requests, a handful of
anonymous visitors asking for it at once held every web worker and the rest of the site waited.
So a request only reads: the document is kept in the shared cache under the tournament's results version
(``cache_scope``: every worker and server sees it, and a saved protocol makes a new key, nothing to purge), and
built by the documents' queue (``paper.tasks.build_document``, docs/background.md):

- found for the current version: served at once;
- missing: the first request asks the worker for it (one task per document, language and hidden-or-public at a
  time, whatever the version: ``document_state_keys``' "building" flag), then serves the last copy built if
  there is one (of an older version, a few seconds older at most), or else answers at once "being prepared"
  (202 Accepted with Retry-After, a page that reloads itself: after the last build's time, at least 2 s). A
  request never waits for a build.

The worker builds the tournament's current version (a task asked for an older one makes the newest), skips a
document already kept, takes one of ``DOCUMENT_BUILDS_AT_ONCE`` build slots shared by every worker, and a PDF's
child process is stopped after ``DOCUMENT_BUILD_SECONDS`` (``paper.pdf``), below the web workers' timeout.
"""

from __future__ import annotations

import contextlib
import hashlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Generic, TypeVar

import cachetools
from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

from base.release import release
from public.model_cache import cache_scope, release_lock, take_lock, tournament_scope, version_tag
from tournaments.models import Tournament

from .builds import build
from .pdf import html_to_pdf

K = TypeVar("K")
V = TypeVar("V")


DOCUMENT_FORMAT = 4  # the keys' own format; a release that builds documents otherwise has its own keys (base.release)
DOCUMENT_SECONDS = 24 * 3600
BUILD_LOCK_SECONDS = 300  # longer than a build waits in the queue and takes; a crashed worker's flag expires
SLOT_SECONDS = 150  # a build slot's lease: longer than a build may take (DOCUMENT_BUILD_SECONDS)
RETRY_AFTER_SECONDS = 3  # "being prepared": when to ask again, unless the last build says otherwise


@dataclass(frozen=True)
class Document:
    """A document's bytes and the results version it was built from (``version_tag``)."""

    data: bytes
    version: str


class BeingPrepared(Exception):
    """No copy of the document exists yet and another request is building it; ask again after ``retry_after``."""

    def __init__(self, name: str, retry_after: int = RETRY_AFTER_SECONDS) -> None:
        super().__init__(name)
        self.retry_after = retry_after


class Recent(Generic[K, V]):
    """A cachetools cache this process keeps, behind a lock (cachetools' caches are not thread-safe): the documents
    served (``LOCAL_DOCUMENTS``, the last few) and those found with no copy yet (``NOT_YET``, each for a while)."""

    def __init__(self, kept: cachetools.Cache[K, V]) -> None:
        self.kept = kept
        self.lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self.lock:
            return self.kept.get(key)

    def keep(self, key: K, value: V) -> V:
        with self.lock:
            self.kept[key] = value
        return value

    def clear(self) -> None:
        with self.lock:
            self.kept.clear()


# The last few documents this process served, by cache key (a key names one version, so a copy kept here is never
# stale): a 1 MB PDF asked for again and again is not fetched from Redis each time. Used only while the shared cache
# still holds the key, so clearing the cache clears this too.
LOCAL_DOCUMENTS: Recent[str, Document] = Recent(cachetools.LRUCache(8))


def cached(key: str) -> Document | None:
    found = LOCAL_DOCUMENTS.get(key) if cache.has_key(key) else None
    if found is None:
        found = cache.get(key)
        if found is not None:
            LOCAL_DOCUMENTS.keep(key, found)
    return found


def variant(tournament: Tournament, name: str) -> str:
    """What tells copies of a document apart within a version: its name, hidden or public, the language."""
    return variant_of(name, tournament.standings_hidden, get_language())


def variant_of(name: str, hidden: bool, language: str) -> str:
    return f"{name}:{int(hidden)}:{language}"


def document_key(tournament: Tournament, part: str) -> str:
    """A results document of this version (``part``: its name, hidden or public, the language: ``variant``), as
    this release builds it (``base.release``)."""
    return f"document:{DOCUMENT_FORMAT}.{release()}:{cache_scope(tournament)}:{part}"


def document_state_keys(tournament: Tournament, part: str) -> tuple[str, str, str]:
    """A document's newest copy's key, its build lock and its last build's time, whatever the version."""
    scope = f"{release()}:{tournament_scope(tournament)}"  # a release never serves nor waits for another's builds
    newest, lock, took = (f"document-{kind}:{scope}:{part}" for kind in ("newest", "building", "took"))
    return newest, lock, took


# The documents this process found with no copy at all (their Retry-After), for ``NOT_YET_SECONDS``: a flood of
# requests for a document being prepared is answered from here, without a trip to the cache each (eight
# clients nonstop, bench/public_load.py's H1); the first copy is served at most that much later.
NOT_YET_SECONDS = 1.0
# NOT_YET_SECONDS is read at each keep (a test changes it), hence a time-to-use function rather than a fixed TTL.
NOT_YET: Recent[str, int] = Recent(cachetools.TLRUCache(256, lambda _key, _value, now: now + NOT_YET_SECONDS,
                                                        timer=time.monotonic))


def built_document(tournament: Tournament, name: str) -> Document:
    """The document ``name`` of ``tournament`` (loaded with its results version) for this version, or the last
    copy built; asks the worker for it when missing. Raises ``BeingPrepared`` when there is none yet."""
    from .tasks import build_document

    part = variant(tournament, name)
    key = document_key(tournament, part)
    retry_after = NOT_YET.get(key)
    if retry_after is not None:
        raise BeingPrepared(name, retry_after)
    newest, building, took = document_state_keys(tournament, part)
    found = cached(key)
    if found is not None:
        return found
    if (token := take_lock(building, BUILD_LOCK_SECONDS, cache)) is not None:
        try:
            build_document.enqueue(tournament.pk, name, get_language())
        except Exception:
            release_lock(building, token, cache)  # the next request asks again
            raise
        found = cached(key)  # made already where tasks run at once (the tests)
        if found is not None:
            return found
    older_key, last_build = (cache.get_many([newest, took]).get(k) for k in (newest, took))
    older = cached(older_key) if older_key is not None else None
    if older is not None:
        return older
    retry_after = RETRY_AFTER_SECONDS if last_build is None else min(60, max(2, round(last_build)))
    NOT_YET.keep(key, retry_after)
    raise BeingPrepared(name, retry_after)


def store(tournament: Tournament, name: str) -> str:
    """Builds document ``name`` of ``tournament`` (loaded now with its results version) in the active language
    and keeps it, unless a copy of this version is kept already; what happened, for the task's row. Always
    clears the document's "building" flag, so the next request may ask again."""
    part = variant(tournament, name)
    key = document_key(tournament, part)
    newest, building, took = document_state_keys(tournament, part)
    try:
        if cache.has_key(key):
            return "kept already"
        with build_slot():
            if cache.has_key(key):
                return "kept already"
            started = time.monotonic()
            document = Document(build(tournament, name), version_tag(tournament))
            seconds = time.monotonic() - started
            cache.set(key, document, DOCUMENT_SECONDS)
            cache.set(newest, key, DOCUMENT_SECONDS)
            cache.set(took, seconds, DOCUMENT_SECONDS)
            return f"built in {seconds:.1f} s"
    finally:
        cache.delete(building)  # a flag, not this process's lock: whoever enqueued the build set it


class NoBuildSlot(RuntimeError):
    """Every build slot stayed taken for ``SLOT_SECONDS``: the task fails and the next request asks again."""


@contextlib.contextmanager
def build_slot() -> Iterator[int]:
    """One of ``DOCUMENT_BUILDS_AT_ONCE`` slots shared by every worker of every server (in the cache), held for
    the build: however many workers take the documents' queue, no more builds run at once."""
    slots = max(1, int(getattr(settings, "DOCUMENT_BUILDS_AT_ONCE", 1)))
    give_up = time.monotonic() + SLOT_SECONDS
    while True:
        for number in range(slots):
            name = f"document-build-slot:{number}"
            if (token := take_lock(name, SLOT_SECONDS, cache)) is not None:
                try:
                    yield number
                finally:
                    release_lock(name, token, cache)
                return
        if time.monotonic() >= give_up:
            raise NoBuildSlot(f"no free build slot of {slots} in {SLOT_SECONDS} s")
        time.sleep(0.2)


# --- the organizer's PDFs: a page made in the request, its PDF by the worker ----------------------------------

PDF_SECONDS = 3600  # an organizer's PDF is kept an hour by its HTML's digest (the same page, the same PDF)


def pdf_document(html: str, kind: str) -> bytes:
    """The PDF of ``html`` (a printable page just rendered: ``kind`` ``seating`` or ``protocols``), made by the
    documents' worker: found by the page's digest, or asked for (the page kept for the worker) and then, unless
    made at once (the tests), ``BeingPrepared``: the organizer's page reloads until it is there."""
    from .tasks import make_pdf

    digest = hashlib.sha256(html.encode("utf-8")).hexdigest()
    key, page, building = (f"pdf-{part}:{DOCUMENT_FORMAT}:{digest}" for part in ("made", "page", "building"))
    found = cache.get(key)
    if found is not None:
        return bytes(found)
    if (token := take_lock(building, BUILD_LOCK_SECONDS, cache)) is not None:
        try:
            cache.set(page, html, BUILD_LOCK_SECONDS)
            make_pdf.enqueue(digest, kind)
        except Exception:
            release_lock(building, token, cache)
            raise
        found = cache.get(key)
        if found is not None:
            return bytes(found)
    took = cache.get(f"pdf-took:{kind}")
    raise BeingPrepared(kind, RETRY_AFTER_SECONDS if took is None else min(60, max(2, round(took))))


def store_pdf(digest: str, kind: str) -> str:
    """The worker's half of ``pdf_document``: the page kept under ``digest`` made into its PDF and kept."""
    key, page, building = (f"pdf-{part}:{DOCUMENT_FORMAT}:{digest}" for part in ("made", "page", "building"))
    try:
        if cache.has_key(key):
            return "made already"
        html = cache.get(page)
        if html is None:
            return "the page is gone (asked for again on the next request)"
        with build_slot():
            started = time.monotonic()
            cache.set(key, html_to_pdf(html), PDF_SECONDS)
            seconds = time.monotonic() - started
            cache.set(f"pdf-took:{kind}", seconds, DOCUMENT_SECONDS)
            cache.delete(page)
            return f"made in {seconds:.1f} s"
    finally:
        cache.delete(building)  # the flag ``pdf_document`` set

