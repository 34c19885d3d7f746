"""Costly public documents (the results PDF, XLSX, CSV and print sheet), built once per results version.

A results PDF of a large tournament takes WeasyPrint many seconds. Built on every request, a handful of
anonymous visitors asking for it at once held every worker and the rest of the site waited (issue 13). So a
document is built by one request at a time and kept in the shared cache under the tournament's results
version (``cache_scope``: every worker and server sees it, and a saved protocol makes a new key, nothing to
purge):

- found for the current version: served at once;
- missing, and nobody building it: this request takes the lock and builds it;
- missing while another request builds it (for this or an older version): the last one built is served if
  there is one (a few seconds older at most); if there is none yet, this request waits briefly for the
  build and then answers "being prepared" (503 with Retry-After, a page that reloads itself) rather than
  holding a worker for the whole build.

The lock is one per document whatever the version, so a new build cannot start while one is running:
visitors cannot trigger builds faster than they complete. A build that dies leaves the lock to expire
after ``BUILD_LOCK_SECONDS``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.translation import get_language

from public.versioning import cache_scope, tournament_scope, version_tag
from tournaments.models import Tournament

DOCUMENT_SECONDS = 24 * 3600
BUILD_LOCK_SECONDS = 300  # longer than any build; a crashed build's lock expires after it
WAIT_SECONDS = 3.0  # how long a request waits for a first build before answering "being prepared"
POLL_SECONDS = 0.2
RETRY_AFTER_SECONDS = 10


@dataclass(frozen=True)
class Document:
    """A document's bytes and the results version it was built from (``version_tag``)."""

    data: bytes
    version: str


class BeingPrepared(Exception):
    """No copy of the document exists yet and another request is building it."""


def variant(tournament: Tournament, name: str) -> str:
    """What tells copies of a document apart within a version: its name, hidden or public, the language."""
    return f"{name}:{int(tournament.standings_hidden)}:{get_language()}"


def built_document(tournament: Tournament, name: str, build: Callable[[], bytes]) -> Document:
    """The document ``name`` of ``tournament`` (loaded with its results version) for this version, built by
    ``build()`` only when no copy is kept and no other request is building one."""
    part = variant(tournament, name)
    key = f"document:{cache_scope(tournament)}:{part}"
    newest = f"document-newest:{tournament_scope(tournament)}:{part}"
    lock = f"document-building:{tournament_scope(tournament)}:{part}"
    found = cache.get(key)
    if found is not None:
        return found  # type: ignore[no-any-return]
    deadline = time.monotonic() + WAIT_SECONDS
    while True:
        if cache.add(lock, True, BUILD_LOCK_SECONDS):
            try:
                document = Document(build(), version_tag(tournament))
                cache.set(key, document, DOCUMENT_SECONDS)
                cache.set(newest, key, DOCUMENT_SECONDS)
                return document
            finally:
                cache.delete(lock)
        older_key = cache.get(newest)
        older = cache.get(older_key) if older_key is not None else None
        if older is not None:
            return older  # type: ignore[no-any-return]
        if time.monotonic() >= deadline:
            raise BeingPrepared(name)
        time.sleep(POLL_SECONDS)
        found = cache.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
