"""The one base view of the public pages: tournament loading, ETags, the fragment.

A page is the shared layout around a *fragment* (the part that changes with results), rendered from the
tournament's model of the version served (``public.model_cache``) and served alone to htmx polls. Every answer
carries an ETag of that version, so an unchanged page answers 304 after one query; an anonymous reader's answer is
marked for the reverse proxy's cache (``public.conditional``), which keeps whole pages, so nothing is kept here.
"""

from __future__ import annotations

from typing import Any, ClassVar
from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response
from django.views import View

from tournaments.mixins import TournamentMixin

from ..conditional import conditional, etag_for, shared
from ..model_cache import current, serves_older, version_tag
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

    snapshot: Snapshot

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.load_tournament(kwargs["slug"])
        self.snapshot = Snapshot(self.tournament)
        if get_conditional_response(request, etag=self.etag(request)) is None:
            self.snapshot.settle()  # the version served: a newer one may be being built meanwhile
        self.version = current(self.tournament)
        return conditional(request, self.etag(request),
                           lambda: super(PublicTournamentView, self).dispatch(request, *args, **kwargs),
                           serves_older(self.tournament))

    def etag(self, request: HttpRequest) -> str:
        return etag_for(request, f"t{self.tournament.pk}", version_tag(self.tournament),
                        self.tournament.standings_hidden)

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        raise NotImplementedError

    def here(self) -> str:
        """This page's address with only the query parameters it reads: what the page links to itself
        with (its poll, the language switch), so that a page shared by every reader carries nobody's
        own query string."""
        query = urlencode([(key, self.request.GET[key]) for key in self.query_keys if self.request.GET.get(key)])
        return f"{self.request.path}?{query}" if query else self.request.path

    def fragment(self, **kwargs: Any) -> str:
        context = {"tournament": self.tournament, "hidden": self.tournament.standings_hidden,
                   "live_url": self.request.path, **self.fragment_context(**kwargs)}
        return render_to_string(self.fragment_template, context)

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        fragment = self.fragment(**kwargs)
        if request.headers.get("HX-Request"):
            return HttpResponse(fragment)
        return render(request, self.page_template, {
            "tournament": self.tournament, "fragment": fragment, "live": self.live, "tab": self.tab,
            "is_organizer": request.user.is_authenticated and self.tournament.is_organizer(request.user),
            "here": self.here(), "shared": shared(request),
        })
