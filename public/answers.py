"""Whole answers shared by every anonymous reader, kept compressed, found before the rest of Django runs.

A spectator's phone asking for the standings gets the same bytes as every other spectator's: the answer
depends only on the tournament's results version (and whether its standings are hidden), the address, the
query parameters the view reads, the language and whether htmx asks for the fragment alone. So the first
such request of a version goes through the view as any other; its answer (200, no cookie set, marked
shareable by the view with ``share``) is kept with a gzip and a brotli copy of its body, and every later
anonymous request is answered by ``public.middleware.SharedAnswerMiddleware`` from it with one query (the
tournament's version): no session, authentication, CSRF, view or template, and a body compressed once,
not once per request. Each encoding has its own ETag, so a revalidation answers 304 just as cheaply.

A key names one release of the code, one version and one language, so an answer kept is never stale: a new
version, a deployment (``release()``) or a hidden/published switch names new keys. The bodies live in the
shared cache, and each process keeps the last ones it served (``LocalAnswers``), so a busy page costs no
cache round trip either.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import brotli
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from .cache import CACHE_SECONDS, MODEL_SECONDS, cache_scope, current, page_name, tournament_scope

ENCODINGS = ("br", "gzip")  # preferred first, when the client accepts both equally
BROTLI_QUALITY = 5  # 450 KiB of standings in about 3 ms, 16 KiB (quality 6: 3.5 ms, 16 KiB; 3: 1 ms, 19 KiB)
GZIP_LEVEL = 6
MIN_COMPRESSED_SIZE = 200  # smaller bodies are sent as they are
KEPT_HEADERS = ("Content-Type", "Content-Language", "Cache-Control", "Vary", "X-Frame-Options")
QUESTION_ATTRIBUTE = "shared_question"  # set by the middleware on a shareable request
KEY_ATTRIBUTE = "shared_answer_key"  # set by the view (``share``): where its answer is kept
HOLDING_ATTRIBUTE = "shared_answer_lock"  # set by the middleware: the rendering lock it took for the request


SOURCE_SUFFIXES = (".py", ".html", ".mo", ".js", ".css")
NOT_SERVED = {".venv", "tests", "bench", "node_modules", ".git", "staticfiles", "__pycache__", "docs", "locale-src"}


def release_digest(root: Path | None = None) -> str:
    """A digest of the code, templates, translations and static files' manifest this process serves, so that
    answers kept by an older deployment are never served by a newer one (and back). Read once per process."""
    root = root or Path(settings.BASE_DIR)
    digest = hashlib.sha1()
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(name for name in subfolders if name not in NOT_SERVED and not name.startswith("."))
        for name in sorted(files):
            if name.endswith(SOURCE_SUFFIXES):
                path = Path(folder) / name
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    manifest = Path(settings.STATIC_ROOT) / "staticfiles.json"
    if manifest.exists():
        digest.update(manifest.read_bytes())
    return digest.hexdigest()[:12]


_release: str | None = None


def release() -> str:
    global _release
    if _release is None:
        _release = release_digest()
    return _release


# --- the key ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Question:
    """What a shareable answer depends on besides the tournament's version: a function of the request."""

    path: str
    query: str  # the parameters the view reads, in its order (``query_keys``); any other changes nothing
    language: str
    fragment: bool  # htmx asks for the fragment alone

    def key(self, scope: str, hidden: bool) -> str:
        """The answer at one version (``cache.cache_scope``)."""
        return f"answer:{release()}:{scope}:{self.part(hidden)}"

    def newest_key(self, identity: str, hidden: bool) -> str:
        """Where the newest version's answer kept is named, whatever the version (``cache.tournament_scope``)."""
        return f"answer-newest:{release()}:{identity}:{self.part(hidden)}"

    def page(self, identity: str, hidden: bool) -> str:
        """The page this answer is of, whatever the version (``cache.page_name``): its rendering lock is the
        views' own, so one request at a time renders it, whether the middleware or a view took the lock."""
        return page_name(identity, hidden, self.language, self.where)

    @property
    def where(self) -> str:
        return hashlib.sha1(f"{self.path}?{self.query}".encode()).hexdigest()

    def part(self, hidden: bool) -> str:
        return f"{int(hidden)}:{self.language}:{int(self.fragment)}:{self.where}"


def question_of(request: HttpRequest, query_keys: Iterable[str], language: str) -> Question:
    query = "&".join(f"{key}={request.GET.get(key, '')}" for key in query_keys)
    return Question(request.path, query, language, bool(request.headers.get("HX-Request")))


def is_shared(request: HttpRequest) -> bool:
    """Whether the middleware found this request anonymous enough to share its answer: then the view leaves
    out everything personal (the CSRF token above all) and tells its version with ``share``."""
    return hasattr(request, QUESTION_ATTRIBUTE)


@dataclass(frozen=True)
class Stamp:
    """A tournament's version as far as its answers go (``cache.tournament_scope`` and ``cache.cache_scope``)."""

    identity: str
    scope: str
    version: int
    hidden: bool

    @classmethod
    def of(cls, tournament: Any) -> Stamp:
        """The version a view served (loaded with ``results_version``; maybe older: ``serve_older``)."""
        return cls(tournament_scope(tournament), cache_scope(tournament), current(tournament),
                   bool(tournament.standings_hidden))


def share(request: HttpRequest, tournament: Any) -> None:
    """Called by a view whose answer to this request is the same for every anonymous reader, with the
    tournament as it served it: its results version may be older than the current one (``serve_older``)."""
    question: Question | None = getattr(request, QUESTION_ATTRIBUTE, None)
    if question is not None:
        stamp = Stamp.of(tournament)
        setattr(request, KEY_ATTRIBUTE, Kept(question.key(stamp.scope, stamp.hidden), stamp.version,
                                             question.newest_key(stamp.identity, stamp.hidden)))


@dataclass(frozen=True)
class Kept:
    """Where a view's answer is kept: its key, its version and the newest-version pointer of its question."""

    key: str
    version: int
    newest: str


def ask(request: HttpRequest, question: Question, holding: str | None = None) -> None:
    """Marks ``request`` shareable: the view may then keep its answer (``share``). ``holding``: the rendering
    lock the middleware took for it (the view renders without taking it again; the middleware lets it go)."""
    setattr(request, QUESTION_ATTRIBUTE, question)
    setattr(request, HOLDING_ATTRIBUTE, holding)


def holds(request: HttpRequest, lock: str) -> bool:
    """Whether the middleware took ``lock`` for this request."""
    return getattr(request, HOLDING_ATTRIBUTE, None) == lock


def shared_key(request: HttpRequest) -> Kept | None:
    return getattr(request, KEY_ATTRIBUTE, None)


# --- the answer kept ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Head:
    """An answer's status line and headers, and its ETag as the view gave it (for the body as it is)."""

    headers: tuple[tuple[str, str], ...]
    etag: str
    encodings: tuple[str, ...]  # the compressed copies kept


def etag_of(etag: str, encoding: str) -> str:
    """The ETag of one encoding of a body: a compressed copy is other bytes, so another validator."""
    return etag if encoding == "identity" else f'{etag[:-1]}-{encoding}"'


def accepted(header: str) -> set[str]:
    """The content codings an ``Accept-Encoding`` header accepts (``q=0`` refuses one)."""
    codings = set()
    for part in header.split(","):
        name, _, params = part.strip().partition(";")
        quality = params.strip()
        if quality.startswith("q=") and _is_zero(quality[2:]):
            continue
        if name.strip():
            codings.add(name.strip().lower())
    return codings


def _is_zero(value: str) -> bool:
    try:
        return float(value) == 0
    except ValueError:
        return False


def encoding_for(request: HttpRequest, head: Head) -> str:
    codings = accepted(request.headers.get("Accept-Encoding", ""))
    for encoding in ENCODINGS:
        if encoding in head.encodings and (encoding in codings or "*" in codings):
            return encoding
    return "identity"


def compress(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(body, quality=BROTLI_QUALITY))
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


def head_key(key: str) -> str:
    return f"{key}:head"


def body_key(key: str, encoding: str) -> str:
    return f"{key}:{encoding}"


class LocalAnswers:
    """The answers this process served last, up to ``limit`` bytes of bodies: a key names one version, so
    what is kept here is never stale, only evicted."""

    def __init__(self, limit: int = 64 * 1024 * 1024) -> None:
        self.limit = limit
        self.size = 0
        self.lock = threading.Lock()
        self.kept: OrderedDict[tuple[str, str], tuple[Head, bytes]] = OrderedDict()
        self.heads: dict[str, Head] = {}  # the heads of the answers kept, by key

    def head(self, key: str) -> Head | None:
        """The head of an answer of which this process keeps some encoding (each encoding it keeps has it)."""
        with self.lock:
            return self.heads.get(key)

    def get(self, key: str, encoding: str) -> tuple[Head, bytes] | None:
        with self.lock:
            found = self.kept.get((key, encoding))
            if found is not None:
                self.kept.move_to_end((key, encoding))
            return found

    def keep(self, key: str, encoding: str, head: Head, body: bytes) -> None:
        with self.lock:
            old = self.kept.pop((key, encoding), None)
            if old is not None:
                self.size -= len(old[1])
            self.kept[(key, encoding)] = (head, body)
            self.heads[key] = head
            self.size += len(body)
            while self.size > self.limit and len(self.kept) > 1:
                (gone, _encoding), (_head, gone_body) = self.kept.popitem(last=False)
                self.size -= len(gone_body)
                if not any(kept == gone for kept, _ in self.kept):
                    self.heads.pop(gone, None)

    def clear(self) -> None:
        with self.lock:
            self.kept.clear()
            self.heads.clear()
            self.size = 0


LOCAL_ANSWERS = LocalAnswers()


def keep(key: str, response: HttpResponse) -> Head:
    """Stores the view's answer and its compressed copies in the shared cache (and this process)."""
    patch_vary_headers(response, ("Accept-Encoding",))
    body = response.content
    encodings = ENCODINGS if len(body) >= MIN_COMPRESSED_SIZE else ()
    head = Head(tuple((name, response[name]) for name in KEPT_HEADERS if name in response),
                response["ETag"], encodings)
    bodies = {"identity": body, **{encoding: compress(body, encoding) for encoding in encodings}}
    cache.set_many({head_key(key): head, **{body_key(key, e): b for e, b in bodies.items()}}, CACHE_SECONDS)
    for encoding, data in bodies.items():
        LOCAL_ANSWERS.keep(key, encoding, head, data)
    return head


def find(key: str, request: HttpRequest) -> HttpResponseBase | None:
    """The kept answer to ``request`` under ``key`` (a 304 when the client holds it), or None."""
    head = LOCAL_ANSWERS.head(key)
    if head is None:
        head = cache.get(head_key(key))
        if head is None:
            return None
    encoding = encoding_for(request, head)
    if not_modified := revalidated(request, head, encoding):
        return not_modified
    local = LOCAL_ANSWERS.get(key, encoding)
    if local is not None:
        return answer(request, head, local[1], encoding)
    body = cache.get(body_key(key, encoding))
    if body is None:
        return None
    LOCAL_ANSWERS.keep(key, encoding, head, body)
    return answer(request, head, body, encoding)


def revalidated(request: HttpRequest, head: Head, encoding: str) -> HttpResponseBase | None:
    held = request.headers.get("If-None-Match")
    if not held:
        return None
    etag = etag_of(head.etag, encoding)
    tags = parse_etags(held)
    if "*" not in tags and etag.removeprefix("W/") not in {t.removeprefix("W/") for t in tags}:
        return None
    response = HttpResponseNotModified()
    response["ETag"] = etag
    for name, value in head.headers:
        if name in ("Cache-Control", "Vary", "Content-Language"):
            response[name] = value
    return response


def answer(request: HttpRequest, head: Head, body: bytes, encoding: str) -> HttpResponseBase:
    """The body in ``encoding`` with the kept headers (the caller has checked for a 304: ``find``)."""
    response = HttpResponse(b"" if request.method == "HEAD" else body)
    for name, value in head.headers:
        response[name] = value
    response["ETag"] = etag_of(head.etag, encoding)
    response["Content-Length"] = str(len(body))
    if encoding != "identity":
        response["Content-Encoding"] = encoding
    return response


def serve(kept: Kept, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """What the middleware sends after the view answered a shareable request: the answer kept (in the
    encoding the client accepts) when it can be shared, the view's own answer otherwise. A view that served
    a version already kept (a newer one is being built) keeps nothing again: it only says when it looked."""
    if not isinstance(response, HttpResponse) or response.status_code != 200 or response.cookies \
            or response.has_header("Content-Encoding") or "ETag" not in response or request.method != "GET":
        return response
    if LOCAL_ANSWERS.head(kept.key) is None and not cache.has_key(head_key(kept.key)):
        keep(kept.key, response)
    newest = cache.get(kept.newest)
    if newest is None or newest[0] <= kept.version:  # a race may keep a slightly older one: harmless
        cache.set(kept.newest, (kept.version, kept.key, time.time()), MODEL_SECONDS)
    found = find(kept.key, request)
    return found if found is not None else response


def newest(question: Question, stamp: Stamp) -> tuple[int, str, float] | None:
    """The newest older version of the answer to ``question`` kept so far, its key and when it was kept."""
    found = cache.get(question.newest_key(stamp.identity, stamp.hidden))
    return found if found is not None and found[0] < stamp.version else None


