"""Anonymous readers of public pages and API answers served from the answers kept (``public.answers``).

Placed before the session middleware: a request with no session, no pending message and no
``Authorization`` header, for an address whose view declares its answers shareable (``shared_answers``),
is answered from the kept answer of the tournament's current version after one query (or, for a view with an
``early_answer``, from what that view keeps in the process's memory), before the
session, authentication, CSRF and locale middleware and the view run. Anything else, and the first request
of each version, goes on as usual; the view then says whether and under which version its answer may be
kept (``answers.share``), and this middleware keeps it and sends the compressed copy the client accepts.

While results pour in (a protocol every few hundred milliseconds on a tournament day), one request at a
time has the view answer the new version, at most every ``PUBLIC_REFRESH_SECONDS`` after the last answer
kept, and the others get that last answer meanwhile (seconds old at most), as the views themselves do with
their fragments (``public.views.base``).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils import translation
from django.utils.translation import get_language_from_request

from mafia_tournament.database_outage import DATABASE_ERRORS, outage_response
from tournaments.models import Tournament

from . import answers
from .cache import (
    BUILD_SECONDS,
    building_lock_of,
    built_key_of,
    microseconds,
    release_lock,
    rendering_lock,
    scope_of,
    take_lock,
    tournament_identity,
)
from .models import ResultsVersion


def personal(request: HttpRequest) -> bool:
    """Whether the answer may depend on who asks: a session (a signed-in user, a judge's link, a language or
    message kept there), messages waiting in a cookie, or credentials."""
    cookies = request.COOKIES
    return (settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies
            or "HTTP_AUTHORIZATION" in request.META)


def shareable_view(request: HttpRequest) -> tuple[Any, str] | None:
    """The view class and tournament slug of a request whose answer may be shared, or None."""
    if request.method not in ("GET", "HEAD") or personal(request):
        return None
    request.get_host()  # an address not in ALLOWED_HOSTS is refused (400) here as the rest of the site refuses it
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    view = getattr(match.func, "view_class", None)
    slug = match.kwargs.get("slug")
    early = getattr(view, "early_answer", None) is not None
    if view is None or not (getattr(view, "shared_answers", False) or early) or slug is None:
        return None
    request.resolver_match = match  # as the handler would set it (the CSP middleware reads the namespace)
    return view, slug


def stamp_sql() -> str:
    """The one query of a kept answer: the tournament's identity, version and hidden switch by its slug. Written
    out once rather than built by the ORM for every request: compiling the query cost more than running it."""
    tournaments, versions = Tournament._meta, ResultsVersion._meta
    return (f'SELECT t."id", t."created", t."standings_hidden", v."version", v."updated" '
            f'FROM "{tournaments.db_table}" t LEFT OUTER JOIN "{versions.db_table}" v ON v."tournament_id" = t."id" '
            f'WHERE t."slug" = %s')


STAMP_SQL = ""


def stamp_row(slug: str) -> Any:
    global STAMP_SQL
    STAMP_SQL = STAMP_SQL or stamp_sql()
    # The query is its own health check (a failure is retried once on a new connection): Django's own check of a
    # kept connection would cost a second round trip to the database for every answer.
    connection.health_check_done = True  # type: ignore[attr-defined]
    with connection.cursor() as cursor:
        cursor.execute(STAMP_SQL, [slug])
        return cursor.fetchone()


def aware(moment: Any) -> Any:
    """A time read without the ORM: SQLite gives it naive, in UTC (as Django stores it)."""
    return moment.replace(tzinfo=dt.UTC) if moment is not None and moment.tzinfo is None else moment


class RecentStamps:
    """The versions this process read last, by slug, each used for a quarter of ``PUBLIC_REFRESH_SECONDS`` (half
    a second in the production profile; never when it is 0, as in development and tests): a thousand readers a
    second cost the database a few queries a second, and a change reaches them within that time, well inside
    the refresh interval the pages follow anyway."""

    def __init__(self) -> None:
        self.read: dict[str, tuple[answers.Stamp, float]] = {}

    def get(self, slug: str) -> answers.Stamp | None:
        found = self.read.get(slug)
        if found is None or time.monotonic() - found[1] >= settings.PUBLIC_REFRESH_SECONDS / 4:
            return None
        return found[0]

    def keep(self, slug: str, stamp: answers.Stamp) -> None:
        if len(self.read) > 1000:  # slugs asked for at random stay few
            self.read.clear()
        self.read[slug] = (stamp, time.monotonic())


RECENT_STAMPS = RecentStamps()


def current_stamp(slug: str) -> answers.Stamp | None:
    """The tournament's current version (one query, or none while a recent one may stand:
    ``RecentStamps``); None when there is no such tournament."""
    if (recent := RECENT_STAMPS.get(slug)) is not None:
        return recent
    try:
        row = stamp_row(slug)
    except DATABASE_ERRORS:
        if connection.in_atomic_block:
            raise
        connection.close()  # a kept connection the database dropped (restarted): the next query reconnects
        row = stamp_row(slug)  # failing again, it is an outage: DatabaseOutageMiddleware answers
    if row is None:
        return None
    pk, created, hidden, version, updated = row
    identity = tournament_identity(pk, aware(created))
    stamp = answers.Stamp(identity, scope_of(pk, aware(created), microseconds(aware(updated)), version or 0),
                          version or 0, bool(hidden))
    RECENT_STAMPS.keep(slug, stamp)
    return stamp


def nothing_newer_to_show(stamp: answers.Stamp, kept_version: int) -> bool:
    """Whether a view would render the version already kept: another request is building the tournament's model
    now (``Snapshot.settle``) and no model newer than the kept answer is built yet. While a build runs, a view
    renders from the last model built, so a page kept from before it is still worth rendering: waiting for the
    build instead left a page read every 20 seconds tens of seconds behind on a busy day (bench/README.md)."""
    if not cache.has_key(building_lock_of(stamp.identity)):
        return False
    built = cache.get(built_key_of(stamp.identity))
    return built is None or built[0] <= kept_version


def public_slot(identity: str, number: int = 0) -> str:
    """One of the tournament's ``PUBLIC_RENDER_SLOTS`` slots, each held by one request at a time that has a view
    answer a newer version of a page already kept: on a tournament day every protocol makes a version, and without
    them every worker would be rendering some page (each of 200 players' pages, the standings, the seating) while
    others wait for a worker; with them the other workers stay free, and readers get the last answer kept
    meanwhile (seconds old). After each render a slot rests ``PUBLIC_WORK_SHARE - 1`` times as long as the render
    took (``rest_slot``)."""
    return f"public-slot:{identity}" if number == 0 else f"public-slot:{identity}:{number}"


def take_slot(identity: str) -> str | None:
    """A free slot of the tournament's (not held, or resting past its time: ``rest_slot``), or None."""
    for number in range(max(1, settings.PUBLIC_RENDER_SLOTS)):
        name = public_slot(identity, number)
        if take_lock(name, BUILD_SECONDS):
            return name
        held = cache.get(name)
        if isinstance(held, float) and held <= time.time():  # its rest is over
            cache.delete(name)
            if take_lock(name, BUILD_SECONDS):
                return name
    return None


def rest_slot(name: str, took: float) -> None:
    """Frees the slot after a render of ``took`` seconds, in ``PUBLIC_WORK_SHARE - 1`` times as long: renders then
    take at most that share of one core, as builds do (``snapshot.refresh_interval``). At once in development and
    tests (``PUBLIC_REFRESH_SECONDS`` 0), and where the share is 1."""
    rest = (settings.PUBLIC_WORK_SHARE - 1) * took
    if settings.PUBLIC_REFRESH_SECONDS <= 0 or rest <= 0:
        release_lock(name)
    else:
        cache.set(name, time.time() + rest, BUILD_SECONDS)


def for_the_proxy(response: HttpResponseBase) -> HttpResponseBase:
    """A shared answer (the same for every anonymous reader) marked so for the reverse proxy's cache: it may answer
    it for ``PROXY_CACHE_SECONDS`` without asking (deploy/nginx/locations.conf), while browsers revalidate it by its
    ETag each time. Only a 200 or a 304 of a kept answer gets here, never a personal one."""
    if response.status_code in (200, 304):
        response["Cache-Control"] = f"public, max-age=0, s-maxage={settings.PROXY_CACHE_SECONDS}"
    return response


class SharedAnswerMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        shareable = shareable_view(request)
        if shareable is None:
            return self.get_response(request)
        view, slug = shareable
        question = answers.question_of(request, getattr(view, "query_keys", ()),
                                       get_language_from_request(request))
        try:
            stamp = current_stamp(slug)
        except DATABASE_ERRORS as error:  # before the locale middleware: the outage said in the reader's language
            with translation.override(question.language):
                return outage_response(request, error)
        if stamp is None:
            return self.get_response(request)  # the view answers 404
        if (early := getattr(view, "early_answer", None)) is not None:
            # a view's own answer from this process's memory before the session and the view (the results
            # documents while they are being prepared: paper.views_results.ResultsBase.early_answer)
            answered: HttpResponseBase | None = early(request, stamp.scope, stamp.hidden, question.language)
            if answered is not None:
                return answered
            if not getattr(view, "shared_answers", False):
                return self.get_response(request)
        if (kept := answers.find(question.key(stamp.scope, stamp.hidden), request)) is not None:
            return for_the_proxy(kept)
        building = slot = None
        if (older := answers.newest(question, stamp)) is not None:
            kept_version, older_key, kept_at = older
            lock = rendering_lock(question.page(stamp.identity, stamp.hidden))
            waited = time.time() - kept_at
            due = waited >= settings.PUBLIC_REFRESH_SECONDS and not nothing_newer_to_show(stamp, kept_version)
            if due:
                slot = take_slot(stamp.identity)
            # With PUBLIC_MOST_BEHIND_SECONDS, a page kept longer ago than that is rendered again even when every slot
            # is taken: a page read once in 20 seconds (a player's own) may otherwise find the slots busy read after
            # read and stay tens of seconds behind while results pour in (bench/README.md: what it costs).
            most_behind = settings.PUBLIC_MOST_BEHIND_SECONDS
            overdue = due and 0 < most_behind <= waited
            if (slot is not None or overdue) and take_lock(lock, BUILD_SECONDS):
                building = lock  # this request has the view answer the new version; the others wait for it
            else:
                if slot is not None:
                    release_lock(slot)
                    slot = None
                if (kept := answers.find(older_key, request)) is not None:
                    return for_the_proxy(kept)
        started = time.monotonic()
        try:
            answers.ask(request, question, building)
            response = self.get_response(request)
        finally:
            if building is not None:
                release_lock(building)
            if slot is not None:
                rest_slot(slot, time.monotonic() - started)
        shared = answers.shared_key(request)
        if shared is None:
            return response
        served = answers.serve(shared, request, response)
        return for_the_proxy(served) if served is not response else response
