"""The one public cache in Django: each tournament's ``scoring`` model per results version, built once.

Every public page, htmx fragment, API answer and results document reads the tournament through its model
(``exchange.reading.to_model``: at most 12 queries, the largest single cost after a change; bench/README.md). Kept in
the shared cache under the tournament's results version (``public.versioning`` bumps it after every committed
change the public can see), so a model kept is never stale: a new version names a new key. After a change, the
first request that needs the new model builds it under a lock, and ranks its stages before sharing it
(``Snapshot.prepare``); requests meanwhile read the newest model built
(seconds old at most, with that version's ETag), so a burst of saved protocols never has every worker building the
same model; a reader that must not be shown the version before (a player's private page, a results document) waits
for the build instead (``newest``). Each worker also keeps the last models it read, with what it computed from each
(the standings of a stage, the "what do I need" answers), so a page costs no unpickling and no second computation of
the same version, and the games it scored (``SCORED_GAMES``), so the next version it builds is ranked scoring only
the games that changed.
Each of these builds runs with Python's cyclic collector paused (``base.collector``): it walked the new objects again
and again while they were made, more than half of a new version's CPU.

Whole pages are not kept here: anonymous readers' answers are kept by the reverse proxy in front
(``deploy/nginx/``: ``public.conditional`` marks them), and without it every page renders from this model.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, TypeVar

import cachetools
from django.conf import settings
from django.core.cache import cache
from django.core.cache.backends.base import BaseCache
from django.core.cache.backends.redis import RedisCache
from django.core.exceptions import ObjectDoesNotExist

from base.collector import paused
from base.release import release
from scoring import model as m
from scoring.tally import ScoredGames
from tournaments.models import Tournament

from .kept_model import MODEL_SHAPE, KeptModel

logger = logging.getLogger(__name__)

MODEL_SECONDS = 3600  # a key names one version, so a model may live long; an hour bounds the memory of old ones
SHARED_WAIT_SECONDS = 5.0  # how long a worker waits for another's shared figures before computing them itself
BUILD_SECONDS = 30  # a crashed build's lock expires after this; others serve the last model built meanwhile
OLDER_SERVED = "_public_older_version_served"  # set on a loaded tournament by ``serve_older``
SETTLED = "_public_version_settled"  # set on a loaded tournament by ``settle``

T = TypeVar("T")
# What ``built_key`` keeps: a version, the moment it was reached, and when its model was built (older entries: the
# first two alone).
Built = tuple[int, datetime] | tuple[int, datetime, float]


# --- the version a tournament is at -------------------------------------------------------------------------


def current(tournament: Tournament) -> int:
    """The version of a tournament loaded with ``select_related("results_version")``."""
    try:
        return int(tournament.results_version.version)
    except ObjectDoesNotExist:
        return 0


def reached(tournament: Tournament) -> int:
    """When the tournament reached its current version, in microseconds since the epoch (0: never bumped)."""
    try:
        updated = getattr(tournament.results_version, "updated", None)
    except ObjectDoesNotExist:
        return 0
    return microseconds(updated)


def version_tag(tournament: Tournament) -> str:
    """The results version and the moment it was reached, for ETags. A database restored from an older
    backup repeats the version numbers reached after that backup, but at other moments, so a browser
    holding a page from before the restore is not told it is current."""
    return f"{current(tournament)}.{reached(tournament)}"


def cache_scope(tournament: Tournament) -> str:
    """What the keys of a tournament's version start with: its id, its creation time (a database recreated next
    to the same Redis never meets the old entries, whose ids and versions it may repeat), the moment its version
    was reached (a database restored from an older backup never meets the entries of versions it reaches again)
    and its results version."""
    return f"{tournament_scope(tournament)}.{reached(tournament)}:{current(tournament)}"


def tournament_scope(tournament: Tournament) -> str:
    """The part of ``cache_scope`` that no version changes: the tournament's id and creation time."""
    return f"{tournament.pk}.{microseconds(getattr(tournament, 'created', None))}"


def microseconds(moment: datetime | None) -> int:
    """A moment in microseconds since the epoch; 0 for none."""
    return int(moment.timestamp() * 1_000_000) if moment is not None else 0


def model_key(tournament: Tournament) -> str:
    """The tournament's model of this version, as this code keeps it (``MODEL_SHAPE``: a release whose model has
    other fields, running beside this one during a deploy, keeps and reads its own) and builds it (``release``: a
    release that converts or ranks otherwise never serves the model or figures of the one before)."""
    return f"public-model:{MODEL_SHAPE}.{release()}:{cache_scope(tournament)}"


def building_lock(tournament: Tournament) -> str:
    """Held while one request builds the tournament's model."""
    return f"public-building:{release()}:{tournament_scope(tournament)}"


def built_key(tournament: Tournament) -> str:
    """The newest version whose model is built: (version, the moment it was reached, when it was built)."""
    return f"public-built:{release()}:{tournament_scope(tournament)}"


def take_lock(name: str, seconds: int, store: BaseCache | None = None) -> str | None:
    """The lock ``name`` taken by this request, for at most ``seconds`` (a crashed holder's lock expires): its
    token, to give back with ``release_lock``; None while another holds it. The results documents use it too."""
    token = secrets.token_hex(8)
    return token if (store or cache).add(name, token, seconds) else None


# Deletes KEYS[1] only if it still holds ARGV[1], in one step of Redis (nothing runs between the two).
RELEASE_IF_HELD = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def release_lock(name: str, token: str, store: BaseCache | None = None) -> None:
    """Lets go of the lock ``name`` if ``token`` still holds it: a holder slower than its lock's seconds finds the
    lock expired and perhaps taken by another, and leaves that one's alone. On Redis the check and the delete are
    one script: read, then deleted, a lock that expired between the two and was taken by another would be deleted
    (two builders again). Other stores (the development server's memory) read, then delete."""
    store = store or cache
    if isinstance(store, RedisCache):
        # Django's client keeps the token pickled (its serializer); the script compares those bytes.
        client = store._cache
        key = store.make_and_validate_key(name)
        pickled = client._serializer.dumps(token)  # type: ignore[attr-defined]  # not in the stubs
        client.get_client(key, write=True).eval(RELEASE_IF_HELD, 1, key, pickled)
        return
    if store.get(name) == token:
        store.delete(name)


# --- the models kept ---------------------------------------------------------------------------------------


@dataclass
class LocalModel:
    """A model this process read, with what was computed from it (by name: a stage's standings, its players'
    "what do I need"), so each is computed once per version and process, not once per
    request (a large stage's standings take a good part of a second: bench/README.md)."""

    model: m.Tournament
    derived: dict[str, Any] = field(default_factory=dict)
    built_here: bool = False  # built by this process (its games are ``ConvertedGames``', kept across versions)


class LocalModels:
    """The last few models this process read, by key. A key names one version, so a model kept here is never stale;
    it is used only while the shared cache still holds it (one cheap existence check), so clearing the cache clears
    this too."""

    def __init__(self, size: int = 2) -> None:
        self.lock = threading.Lock()  # cachetools' caches are not thread-safe
        self.models: cachetools.LRUCache[str, LocalModel] = cachetools.LRUCache(size)

    def get(self, key: str) -> LocalModel | None:
        with self.lock:
            return self.models.get(key)

    def keep(self, key: str, model: m.Tournament, built_here: bool = False) -> LocalModel:
        with self.lock:
            found = self.models.get(key)
            if found is None or found.model is not model:
                found = self.models[key] = LocalModel(model, built_here=built_here)
            return found

    def clear(self) -> None:
        with self.lock:
            self.models.clear()


LOCAL_MODELS = LocalModels()

# The games this process scored, across results versions, for the rankings of the models it built: a new version's
# ranking scores only the games that changed (a 1,000-player stage: 12,000 seats scored again for every confirmed
# protocol; bench/README.md, "A version ranked from the games that changed"). Keyed by the game objects themselves,
# so nothing here is ever stale. Only for models built here (``scored_games_for``): a model read back from the shared
# cache is all new objects, which would only fill it.
SCORED_GAMES = ScoredGames()


def scored_games_for(local: LocalModel) -> ScoredGames | None:
    """The memo of scored games to rank ``local`` with: ``SCORED_GAMES`` for a model this process built."""
    return SCORED_GAMES if local.built_here else None


@paused()
def model_of(tournament: Tournament, build: Callable[[], m.Tournament],
             prepare: Callable[[LocalModel], None] | None = None) -> LocalModel:
    """The tournament's model of the version loaded (``settle`` chooses it): from this process, else the shared
    cache, else ``build()``, then ``prepare``, then shared. ``prepare`` computes what every page of a version reads
    (the stages' ranking) before the model is shared: until then the requests that ``settle`` serve the version
    before (once one was built) instead of waiting for this one's figures. Only ``settle`` and ``newest`` pass it:
    they build under the build lock."""
    key = model_key(tournament)
    local = LOCAL_MODELS.get(key) if cache.has_key(key) else None
    if local is not None:
        return local
    kept = cache.get(key)
    model = kept.read() if isinstance(kept, KeptModel) else None
    if model is not None:
        return LOCAL_MODELS.keep(key, model)
    local = LOCAL_MODELS.keep(key, build(), built_here=True)
    if prepare is not None:
        try:
            prepare(local)
        except Exception:  # the pages that read the figures meet the error themselves; the rest serve the version
            logger.exception("the figures of %s's results version %s not computed ahead", tournament.slug,
                             current(tournament))
    cache.set(key, KeptModel.of(local.model), MODEL_SECONDS)
    record_built(tournament)
    return local


def newest(tournament: Tournament, build: Callable[[], m.Tournament],
           prepare: Callable[[LocalModel], None] | None = None) -> LocalModel:
    """The model of the tournament's version as loaded, for a reader that ``settle`` does not serve: one that must
    not be shown the version before (a player's private page: "where do I sit" right after a publication), or runs
    outside the public pool (a results document's build). Built under the same build lock as ``settle``'s, with
    ``prepare``; while another request builds, this one waits for that model (at most ``SHARED_WAIT_SECONDS``, then
    builds its own) instead of building the same one beside it: after a seating is published, every player opens
    their page at once. (The figures the page then reads may wait once more each, as ``computed_once`` says.)"""
    key = model_key(tournament)
    if not current(tournament) or cache.has_key(key):
        return model_of(tournament, build)
    deadline = time.monotonic() + SHARED_WAIT_SECONDS
    while (local := built_under_lock(tournament, build, prepare)) is None:
        if cache.has_key(key) or time.monotonic() > deadline:
            return model_of(tournament, build)  # the other's model, or (waited long enough) one built here
        time.sleep(0.02)
    return local


def built_under_lock(tournament: Tournament, build: Callable[[], m.Tournament],
                     prepare: Callable[[LocalModel], None] | None) -> LocalModel | None:
    """``model_of`` with the tournament's build lock held; None when another request holds it."""
    lock = building_lock(tournament)
    token = take_lock(lock, BUILD_SECONDS)
    if token is None:
        return None
    try:
        return model_of(tournament, build, prepare)
    finally:
        release_lock(lock, token)


def has_model(tournament: Tournament) -> bool:
    """Whether ``model_of`` would answer from this process's models now (nothing to read or build)."""
    key = model_key(tournament)
    return LOCAL_MODELS.get(key) is not None and bool(cache.has_key(key))


@paused()
def derived(local: LocalModel, name: str, compute: Callable[[], T]) -> T:
    """What ``compute()`` gives for this model, computed once per process and version (a stage's standings: larger
    pickled than computed again)."""
    if name not in local.derived:
        local.derived[name] = compute()
    return local.derived[name]  # type: ignore[no-any-return]


def shared(tournament: Tournament, local: LocalModel, name: str, compute: Callable[[], T]) -> T:
    """What ``compute()`` gives for this model, computed once per version by one process and read by the others from
    the shared cache: small figures that take the stage's standings to compute (each player's rank and points, what
    each needs), which every worker would otherwise compute again for its first page of every version."""
    if name not in local.derived:
        key = (f"public-derived:{MODEL_SHAPE}.{release()}:{cache_scope(tournament)}:"
               f"{hashlib.sha1(name.encode()).hexdigest()}")
        with paused():  # unpickling the figures, or computing them; not the wait for another worker's
            found = cache.get(key)
        if found is None:
            found = computed_once(key, paused()(compute))
        local.derived[name] = found
    return local.derived[name]  # type: ignore[no-any-return]


def computed_once(key: str, compute: Callable[[], T]) -> T:
    """``compute()`` kept under ``key``, computed by one process at a time: right after a new version every worker
    asks for the same figures at once, and the others wait for the first one's (idle, reading the key every 20 ms)
    instead of each ranking the stage again. A holder that takes longer than ``SHARED_WAIT_SECONDS`` (or crashed)
    is not waited for longer: the waiting process computes the figures itself."""
    lock, deadline = f"{key}:computing", time.monotonic() + SHARED_WAIT_SECONDS
    while (token := take_lock(lock, BUILD_SECONDS)) is None:
        time.sleep(0.02)
        found = cache.get(key)
        if found is not None:
            return found  # type: ignore[no-any-return]
        if time.monotonic() > deadline:
            return compute()
    try:
        found = cache.get(key)  # computed while this process waited for the lock
        if found is None:
            found = compute()
            cache.set(key, found, MODEL_SECONDS)
        return found  # type: ignore[no-any-return]
    finally:
        release_lock(lock, token)


# --- which version a request serves ------------------------------------------------------------------------


def settle(tournament: Tournament, build: Callable[[], m.Tournament],
           prepare: Callable[[LocalModel], None] | None = None) -> None:
    """Chooses the version this request serves: the current one, unless another request is building its model or
    the last model was built less than ``MODEL_REBUILD_SECONDS`` ago; then the newest version whose model is built
    (a second or two old), so that while protocols pour in (one every few hundred milliseconds on a tournament
    day) the model is built once at a time and at most that often, not by every worker after every protocol, and
    the pages' ETags stay the same in between (the proxy's revalidations are then 304s, not renders). The request
    that finds the current model missing and nobody building it builds it here. Call it before reading the
    version (keys, ETags). ``build`` and ``prepare`` as for ``model_of``. Every model read for this loaded
    tournament afterwards is of the version chosen here (``settled``), never waited for."""
    setattr(tournament, SETTLED, True)
    if not current(tournament) or cache.has_key(model_key(tournament)):
        return
    built = cache.get(built_key(tournament))
    if built is not None and len(built) > 2 and time.time() - built[2] < settings.MODEL_REBUILD_SECONDS:
        serve_older(tournament, built)
        return
    if built_under_lock(tournament, build, prepare) is None:
        serve_older(tournament, built)


def record_built(tournament: Tournament) -> None:
    """Records the version whose model is now in the shared cache and when it was built (unless a newer one is: a
    race may keep a slightly older one, which is harmless)."""
    if not current(tournament):
        return
    stamp = (tournament.results_version.version, tournament.results_version.updated, time.time())
    kept = cache.get(built_key(tournament))
    if kept is None or kept[0] < stamp[0]:
        cache.set(built_key(tournament), stamp, MODEL_SECONDS)


def serve_older(tournament: Tournament, stamp: Built | None) -> None:
    """Serves ``stamp`` (a version and the moment it was reached) in this request when it is older than the loaded
    version: every key and ETag read from the tournament then follows it. The loaded row is changed in memory only."""
    if stamp is not None and current(tournament) and stamp[0] < current(tournament):
        tournament.results_version.version, tournament.results_version.updated = stamp[0], stamp[1]
        setattr(tournament, OLDER_SERVED, True)


def settled(tournament: Tournament) -> bool:
    """Whether a request chose this loaded tournament's version with ``settle``."""
    return bool(getattr(tournament, SETTLED, False))


def serves_older(tournament: Tournament) -> bool:
    """Whether ``settle`` chose an older version than the tournament's for this request (``serve_older``)."""
    return bool(getattr(tournament, OLDER_SERVED, False))

