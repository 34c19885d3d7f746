"""The one base view of the public pages: tournament loading, ETags, the cached fragment.

A page is the shared layout around a *fragment* (the part that changes with results). The
fragment is rendered without the request (no user, no CSRF token), cached under the
tournament's results version and the language, and served alone to htmx polls. Every answer
carries an ETag of that version, so an unchanged page answers 304 after one query.

After a change, one request builds the tournament's model and one renders each page; meanwhile
the others serve the newest version built or rendered (seconds old at most), with its ETag, so a
burst of saved protocols does not have every worker build the same page (bench/tournament_day.py).
"""

from __future__ import annotations

import hashlib
from typing import Any, ClassVar

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language
from django.views import View

from tournaments.mixins import TournamentMixin

from ..snapshot import BUILD_SECONDS, Snapshot, record_newest, serve_older, served
from ..versioning import cache_scope, current, tournament_scope, version_tag

CACHE_SECONDS = 24 * 3600


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


class PublicTournamentView(TournamentMixin, View):
    """Subclasses set the templates and ``fragment_context``; the rest is shared."""

    page_template: ClassVar[str]
    fragment_template: ClassVar[str]
    live: ClassVar[bool] = False  # the page polls its fragment
    tab: ClassVar[str] = ""
    query_keys: ClassVar[tuple[str, ...]] = ()  # the query parameters the fragment reads; others change nothing
    http_method_names = ["get", "head"]
    tournament_related = ("results_version",)

    snapshot: Snapshot

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.load_tournament(kwargs["slug"])
        self.snapshot = Snapshot(self.tournament)
        self.rendering: str | None = None
        self.cached: str | None = None
        if not self.answered_as_it_is(request):
            self.snapshot.settle()  # the version served: a newer one may be being built meanwhile
            self.stand_in()
        try:
            self.version = current(self.tournament)
            return conditional(request, self.etag(request),
                               lambda: super(PublicTournamentView, self).dispatch(request, *args, **kwargs))
        finally:
            if self.rendering is not None:
                cache.delete(self.rendering)

    def etag(self, request: HttpRequest) -> str:
        return etag_for(request, f"t{self.tournament.pk}", version_tag(self.tournament),
                        self.tournament.standings_hidden)

    def answered_as_it_is(self, request: HttpRequest) -> bool:
        """Whether the current version can be served without building anything: the browser has it
        (304) or its fragment is cached (kept for ``fragment``): what most requests find."""
        if served(self.tournament) is None or get_conditional_response(request, etag=self.etag(request)):
            return True
        self.cached = cache.get(self.fragment_key())
        return self.cached is not None

    def stand_in(self) -> None:
        """While another request renders this page for the version chosen, serves the newest one
        rendered (its ETag and all), so that a page is rendered once at a time, not by every worker
        at once; otherwise this request renders it (``self.rendering``: the lock it holds)."""
        if cache.has_key(self.fragment_key()):
            return
        page = self.page_key()
        if cache.add(f"public-rendering:{page}", True, BUILD_SECONDS):
            self.rendering = f"public-rendering:{page}"
            return
        serve_older(self.tournament, cache.get(f"public-rendered:{page}"))

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError

    def page_part(self) -> str:
        """What tells this page's fragment apart within a version: whether standings are hidden, the
        language, the path and the query parameters the page reads (``query_keys``): any other query
        string (``?utm=…``, ``?x=1``) is the same page from the same cache, not a new render."""
        query = "&".join(f"{key}={self.request.GET.get(key, '')}" for key in self.query_keys)
        where = hashlib.sha1(f"{self.request.path}?{query}".encode()).hexdigest()
        hidden = int(self.tournament.standings_hidden)
        return f"{hidden}:{get_language()}:{where}"

    def fragment_key(self) -> str:
        return f"public:{cache_scope(self.tournament)}:{self.page_part()}"

    def page_key(self) -> str:
        """This page of this tournament whatever the version."""
        return f"{tournament_scope(self.tournament)}:{self.page_part()}"

    def fragment(self, **kwargs: Any) -> str:
        key = self.fragment_key()
        html = self.cached if self.cached is not None else cache.get(key)
        if html is None:
            context = {"tournament": self.tournament, "hidden": self.tournament.standings_hidden,
                       "live_url": self.request.path, **self.fragment_context(**kwargs)}
            html = render_to_string(self.fragment_template, context)
            cache.set(key, html, CACHE_SECONDS)
            record_newest(cache, f"public-rendered:{self.page_key()}", served(self.tournament))
        return str(html)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        fragment = self.fragment(**kwargs)
        if request.headers.get("HX-Request"):
            return HttpResponse(fragment)
        return render(request, self.page_template, {
            "tournament": self.tournament, "fragment": fragment, "live": self.live, "tab": self.tab,
            "is_organizer": request.user.is_authenticated and self.tournament.is_organizer(request.user),
        })
