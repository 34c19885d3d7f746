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

from typing import Any, ClassVar
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language
from django.views import View

from tournaments.mixins import TournamentMixin

from .. import answers
from ..cache import (
    CACHE_SECONDS,
    conditional,
    current,
    etag_for,
    fragment_key,
    record_newest,
    release_lock,
    render_once,
    rendered_key,
    rendering_lock,
    served,
    tournament_scope,
    version_tag,
)
from ..snapshot import Snapshot


class PublicTournamentView(TournamentMixin, View):
    """Subclasses set the templates and ``fragment_context``; the rest is shared."""

    page_template: ClassVar[str]
    fragment_template: ClassVar[str]
    live: ClassVar[bool] = False  # the page polls its fragment
    tab: ClassVar[str] = ""
    query_keys: ClassVar[tuple[str, ...]] = ()  # the query parameters the fragment reads; others change nothing
    http_method_names = ["get", "head"]
    tournament_related = ("results_version",)
    shared_answers = True  # an anonymous reader's answer is everyone's (public.answers)

    snapshot: Snapshot
    rendering: str | None  # the rendering lock this request holds, if any

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.load_tournament(kwargs["slug"])
        self.snapshot = Snapshot(self.tournament)
        self.cached: str | None = None
        self.rendering = None
        if not self.answered_as_it_is(request):
            self.snapshot.settle()  # the version served: a newer one may be being built meanwhile
            self.rendering = self.stand_in()
        try:
            self.version = current(self.tournament)
            response = conditional(request, self.etag(request),
                                   lambda: super(PublicTournamentView, self).dispatch(request, *args, **kwargs))
            answers.share(request, self.tournament)
            return response
        finally:
            if self.rendering is not None:
                release_lock(self.rendering, cache)

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

    def stand_in(self) -> str | None:
        """While another request renders this page for the version chosen, serves the newest one
        rendered (its ETag and all), so that a page is rendered once at a time, not by every worker
        at once; otherwise this request renders it and holds the lock returned."""
        page = self.page_key()
        ready = cache.has_key(self.fragment_key()) or answers.holds(self.request, rendering_lock(page))
        return render_once(self.tournament, page, ready, cache)

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError

    def here(self) -> str:
        """This page's address with only the query parameters it reads: what the page links to itself
        with (its poll, the language switch), so that a page shared by every reader carries nobody's
        own query string."""
        query = urlencode([(key, self.request.GET[key]) for key in self.query_keys if self.request.GET.get(key)])
        return f"{self.request.path}?{query}" if query else self.request.path

    def page_part(self) -> str:
        """What tells this page's fragment apart within a version: whether standings are hidden, the
        language, the path and the query parameters the page reads (``query_keys``): any other query
        string (``?utm=…``, ``?x=1``) is the same page from the same cache, not a new render."""
        where = answers.question_of(self.request, self.query_keys, get_language()).where
        hidden = int(self.tournament.standings_hidden)
        return f"{hidden}:{get_language()}:{where}"

    def fragment_key(self) -> str:
        return fragment_key(self.tournament, self.page_part())

    def page_key(self) -> str:
        """This page of this tournament whatever the version (``cache.page_name``)."""
        return f"{tournament_scope(self.tournament)}:{self.page_part()}"

    def fragment(self, **kwargs: Any) -> str:
        key = self.fragment_key()
        html = self.cached if self.cached is not None else cache.get(key)
        if html is None:
            context = {"tournament": self.tournament, "hidden": self.tournament.standings_hidden,
                       "live_url": self.request.path, **self.fragment_context(**kwargs)}
            html = render_to_string(self.fragment_template, context)
            cache.set(key, html, CACHE_SECONDS)
            record_newest(cache, rendered_key(self.page_key()), served(self.tournament))
        return str(html)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        fragment = self.fragment(**kwargs)
        if request.headers.get("HX-Request"):
            return HttpResponse(fragment)
        return render(request, self.page_template, {
            "tournament": self.tournament, "fragment": fragment, "live": self.live, "tab": self.tab,
            "is_organizer": request.user.is_authenticated and self.tournament.is_organizer(request.user),
            "here": self.here(), "shared": answers.is_shared(request),
        })
