"""Costly public documents (the results PDF, XLSX, CSV and print sheet), built once per results version.

A results PDF of a large tournament takes WeasyPrint many seconds. Built on every request, a handful of
anonymous visitors asking for it at once held every worker and the rest of the site waited (issue 13). So a
document is built by one request at a time and kept in the shared cache under the tournament's results
version (``cache_scope``: every worker and server sees it, and a saved protocol makes a new key, nothing to
purge):

- found for the current version: served at once;
- missing, and nobody building it: this request takes the lock and builds it;
- missing while another request builds it (for this or an older version): the last one built is served if
  there is one (a few seconds older at most); if there is none yet, this request waits for the build only
  when the last build of that document was quick (a CSV), at most ``MAX_WAIT_SECONDS``, and otherwise
  answers at once "being prepared" (503 with Retry-After, a page that reloads itself): a waiting request
  holds a worker, and a flood of them waiting for an 18-second PDF would hold them all.

The lock is one per document whatever the version, so a new build cannot start while one is running:
visitors cannot trigger builds faster than they complete. A build that dies leaves the lock to expire
after ``BUILD_LOCK_SECONDS``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import get_language

from public.cache import document_key, document_state_keys, release_lock, take_lock, version_tag
from tournaments.models import Tournament

DOCUMENT_FORMAT = 4  # raise it when what a document holds changes (a deployment must not serve older copies)
DOCUMENT_SECONDS = 24 * 3600
BUILD_LOCK_SECONDS = 300  # longer than any build; a crashed build's lock expires after it
MAX_WAIT_SECONDS = 1.0  # the longest a request waits for another's build (only for quick documents)
POLL_SECONDS = 0.05
RETRY_AFTER_SECONDS = 10  # "being prepared": when to ask again, unless the last build says otherwise


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


class LocalDocuments:
    """The last few documents this process served, by cache key (a key names one version, so a copy kept
    here is never stale): a 1 MB PDF asked for again and again is not fetched from Redis each time. Used
    only while the shared cache still holds the key, so clearing the cache clears this too."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.documents: OrderedDict[str, Document] = OrderedDict()

    def get(self, key: str) -> Document | None:
        with self.lock:
            return self.documents.get(key)

    def keep(self, key: str, document: Document) -> Document:
        with self.lock:
            self.documents[key] = document
            self.documents.move_to_end(key)
            while len(self.documents) > self.size:
                self.documents.popitem(last=False)
        return document


LOCAL_DOCUMENTS = LocalDocuments()


def cached(key: str) -> Document | None:
    found = LOCAL_DOCUMENTS.get(key) if cache.has_key(key) else None
    if found is None:
        found = cache.get(key)
        if found is not None:
            LOCAL_DOCUMENTS.keep(key, found)
    return found


def variant(tournament: Tournament, name: str) -> str:
    """What tells copies of a document apart within a version: its name, hidden or public, the language."""
    return f"{name}:{int(tournament.standings_hidden)}:{get_language()}"


def built_document(tournament: Tournament, name: str, build: Callable[[], bytes]) -> Document:
    """The document ``name`` of ``tournament`` (loaded with its results version) for this version, built by
    ``build()`` only when no copy is kept and no other request is building one."""
    part = variant(tournament, name)
    key = document_key(tournament, DOCUMENT_FORMAT, part)
    newest, lock, took = document_state_keys(tournament, part)
    found = cached(key)
    if found is not None:
        return found
    deadline: float | None = None
    while True:
        if take_lock(lock, BUILD_LOCK_SECONDS, cache):
            try:
                started = time.monotonic()
                document = Document(build(), version_tag(tournament))
                cache.set(key, document, DOCUMENT_SECONDS)
                cache.set(newest, key, DOCUMENT_SECONDS)
                cache.set(took, time.monotonic() - started, DOCUMENT_SECONDS)
                return LOCAL_DOCUMENTS.keep(key, document)
            finally:
                release_lock(lock, cache)
        older_key = cache.get(newest)
        older = cached(older_key) if older_key is not None else None
        if older is not None:
            return older
        last_build = cache.get(took)
        if deadline is None:  # wait only for a build known to be quick
            wait = 0.0 if last_build is None or last_build > MAX_WAIT_SECONDS else last_build * 1.5
            deadline = time.monotonic() + wait
        if time.monotonic() >= deadline:
            retry = RETRY_AFTER_SECONDS if last_build is None else min(60, max(2, round(last_build)))
            raise BeingPrepared(name, retry)
        time.sleep(POLL_SECONDS)
        found = cached(key)
        if found is not None:
            return found
