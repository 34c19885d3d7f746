"""The public cache in one module: the names of its keys, the scope a results version gives them, the lock that
lets one request build what the others share, and the conditional answers (ETags) built on that version.

Every public page, htmx fragment, API answer, results document and the tournament's model are kept in the
shared cache under the tournament's results version (``public.versioning`` bumps it after every committed change
the public can see), so nothing cached is ever purged: a new version simply names new keys. After a change, one
request builds each thing under a lock (``take_lock``); meanwhile the others serve the newest version built
(``serve_older``), seconds old at most, so a burst of saved protocols does not have every worker build the same
page (bench/tournament_day.py measures it).
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.exceptions import ObjectDoesNotExist
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language

CACHE_SECONDS = 24 * 3600  # pages, fragments and API answers: a key names one version, so it may live long
MODEL_SECONDS = 3600  # the tournament's model and the figures read from it
BUILD_SECONDS = 30  # how long another request may serve the last built version while one builds

Stamp = tuple[int, Any]  # a results version and the moment it was reached (``ResultsVersion.updated``)


# --- the version scope -----------------------------------------------------------------------------


def current(tournament: Any) -> int:
    """The version of a tournament loaded with ``select_related("results_version")``."""
    try:
        return int(tournament.results_version.version)
    except ObjectDoesNotExist:
        return 0


def reached(tournament: Any) -> int:
    """When the tournament reached its current version, in microseconds since the epoch (0: never bumped)."""
    try:
        updated = getattr(tournament.results_version, "updated", None)
    except ObjectDoesNotExist:
        return 0
    return microseconds(updated)


def version_tag(tournament: Any) -> str:
    """The results version and the moment it was reached, for ETags. A database restored from an older
    backup repeats the version numbers reached after that backup, but at other moments, so a browser
    holding a page from before the restore is not told it is current."""
    return f"{current(tournament)}.{reached(tournament)}"


def cache_scope(tournament: Any) -> str:
    """What cache keys of a tournament's public data start with: its id, its creation time (so a
    database recreated next to the same Redis never meets the old entries, whose ids and versions
    it may repeat), the moment its version was reached (so a database restored from an older backup
    never meets the entries of versions it reaches again) and its results version."""
    return scope_of(tournament.pk, getattr(tournament, "created", None), reached(tournament), current(tournament))


def scope_of(pk: int, created: Any, reached_at: int, version: int) -> str:
    """``cache_scope`` from the values themselves (``public.middleware`` reads them in one query)."""
    return f"{tournament_identity(pk, created)}.{reached_at}:{version}"


def tournament_scope(tournament: Any) -> str:
    """The part of ``cache_scope`` that no version changes: the tournament's id and creation time."""
    return tournament_identity(tournament.pk, getattr(tournament, "created", None))


def tournament_identity(pk: int, created: Any) -> str:
    """``tournament_scope`` from the values themselves."""
    return f"{pk}.{microseconds(created)}"


def microseconds(moment: Any) -> int:
    """A moment in microseconds since the epoch; 0 for none."""
    return int(moment.timestamp() * 1_000_000) if moment is not None else 0


# --- the key names ----------------------------------------------------------------------------------


def fragment_key(tournament: Any, part: str) -> str:
    """A public page's fragment (``part``: what tells pages apart within a version)."""
    return f"public:{cache_scope(tournament)}:{part}"


def page_name(identity: str, hidden: bool, language: str, where: str) -> str:
    """A page (or API answer) of a tournament whatever the version: ``identity`` is ``tournament_scope``, ``where``
    a digest of the address and the query parameters read. Its rendering lock and newest version are named by it."""
    return f"{identity}:{int(hidden)}:{language}:{where}"


def rendering_lock(page: str) -> str:
    """Held while one request renders ``page`` (a page of a tournament whatever the version)."""
    return f"public-rendering:{page}"


def rendered_key(page: str) -> str:
    """The newest version whose fragment of ``page`` is rendered."""
    return f"public-rendered:{page}"


def model_key(tournament: Any) -> str:
    """The tournament's ``scoring`` model of this version."""
    return f"public-model:{cache_scope(tournament)}"


def building_lock(tournament: Any) -> str:
    """Held while one request builds the tournament's model."""
    return building_lock_of(tournament_scope(tournament))


def building_lock_of(identity: str) -> str:
    return f"public-building:{identity}"


def built_key(tournament: Any) -> str:
    """The newest version whose model is built, and when it was built."""
    return built_key_of(tournament_scope(tournament))


def built_key_of(identity: str) -> str:
    return f"public-built:{identity}"


def totals_key(tournament: Any, stage: str) -> str:
    """The few figures of each player of a stage that player pages show."""
    return f"public-totals:{cache_scope(tournament)}:{stage}"


def figures_key(digest: str) -> str:
    """Seating figures of a stage, by a digest of its seatings (the same seatings, the same figures)."""
    return f"public-figures:{digest}"


def api_key(tournament: Any, digest: str) -> str:
    """An API answer's data (``digest``: of the endpoint and its filters)."""
    return f"api:{cache_scope(tournament)}:{int(tournament.standings_hidden)}:{digest}"


def document_key(tournament: Any, document_format: int, part: str) -> str:
    """A results document of this version (``part``: its name, hidden or public, the language)."""
    return document_key_of(cache_scope(tournament), document_format, part)


def document_key_of(scope: str, document_format: int, part: str) -> str:
    """``document_key`` from the tournament's scope itself (``public.middleware`` reads it in one query)."""
    return f"document:{document_format}:{scope}:{part}"


def document_state_keys(tournament: Any, part: str) -> tuple[str, str, str]:
    """A document's newest copy's key, its build lock and its last build's time, whatever the version."""
    scope = tournament_scope(tournament)
    newest, lock, took = (f"document-{kind}:{scope}:{part}" for kind in ("newest", "building", "took"))
    return newest, lock, took


# --- the build lock and the version served -------------------------------------------------------------


def take_lock(name: str, seconds: int, store: BaseCache = cache) -> bool:
    """Whether this request now holds the lock ``name`` (for at most ``seconds``: a crashed build's lock
    expires); release it with ``release_lock``."""
    return bool(store.add(name, True, seconds))


def release_lock(name: str, store: BaseCache = cache) -> None:
    store.delete(name)


def render_once(tournament: Any, page: str, ready: bool, store: BaseCache = cache) -> str | None:
    """``page`` (``page_name``) rendered once at a time, not by every worker at once. Nothing to do when
    ``ready`` (rendered for the version chosen, or its lock is this request's already); otherwise the rendering
    lock this request now holds, or, while another request renders it, None after choosing the newest version
    rendered (``serve_older``: its ETag and all)."""
    if ready:
        return None
    if take_lock(rendering_lock(page), BUILD_SECONDS, store):
        return rendering_lock(page)
    serve_older(tournament, store.get(rendered_key(page)))
    return None


def served(tournament: Any) -> Stamp | None:
    """The results version this request serves (loaded with the tournament); None before any."""
    if not current(tournament):
        return None
    return tournament.results_version.version, tournament.results_version.updated


def serve_older(tournament: Any, stamp: tuple[Any, ...] | None) -> None:
    """Serves ``stamp`` (a version and when it was reached, first) in this request, when it is
    older than the loaded version: every key and ETag read from the tournament then follows it.
    The loaded row is changed in memory only."""
    loaded = served(tournament)
    if stamp is not None and loaded is not None and stamp[0] < loaded[0]:
        tournament.results_version.version, tournament.results_version.updated = stamp[0], stamp[1]


def record_newest(store: Any, key: str, stamp: tuple[Any, ...] | None) -> None:
    """Keeps under ``key`` of the cache ``store`` the newest stamp given (a race may keep a
    slightly older one: harmless)."""
    kept = store.get(key)
    if stamp is not None and (kept is None or kept[0] < stamp[0]):
        store.set(key, stamp, MODEL_SECONDS)


# --- conditional answers ------------------------------------------------------------------------------


def etag_for(request: HttpRequest, scope: str, version: int | str, hidden: bool) -> str:
    user = request.user.pk if request.user.is_authenticated else 0
    part = "f" if request.headers.get("HX-Request") else "p"
    return f'"{scope}-{version}-{int(hidden)}-{get_language()}-{user}-{part}"'


def conditional(request: HttpRequest, etag: str, build: Any) -> HttpResponseBase:
    """304 when the client has this ETag already; otherwise ``build()`` with validators set."""
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        return not_modified
    response: HttpResponseBase = build()
    response["ETag"] = etag
    patch_cache_control(response, no_cache=True, private=True)
    patch_vary_headers(response, ("Cookie", "Accept-Language", "HX-Request"))
    return response
