"""Anonymous readers of public pages and API answers served from the answers kept (``public.answers``).

Placed before the session middleware: a request with no session, no pending message and no
``Authorization`` header, for an address whose view declares its answers shareable (``shared_answers``),
is answered from the kept answer of the tournament's current version after one query, before the
session, authentication, CSRF and locale middleware and the view run. Anything else, and the first request
of each version, goes on as usual; the view then says whether and under which version its answer may be
kept (``answers.share``), and this middleware keeps it and sends the compressed copy the client accepts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.urls import Resolver404, resolve
from django.utils.translation import get_language_from_request

from tournaments.models import Tournament

from . import answers
from .cache import cache_scope


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
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    view = getattr(match.func, "view_class", None)
    slug = match.kwargs.get("slug")
    if view is None or not getattr(view, "shared_answers", False) or slug is None:
        return None
    request.resolver_match = match  # as the handler would set it (the CSP middleware reads the namespace)
    return view, slug


def load(slug: str) -> Tournament | None:
    """The tournament with its results version, as the public views load it (they reuse it: one query)."""
    return Tournament.objects.select_related("results_version").filter(slug=slug).first()


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
        tournament = load(slug)
        if tournament is None:
            return self.get_response(request)  # the view answers 404
        if (kept := answers.find(question.key(cache_scope(tournament), tournament.standings_hidden), request)):
            return kept
        answers.ask(request, question, tournament)
        response = self.get_response(request)
        shared = answers.shared_key(request)
        return answers.serve(shared, request, response) if shared is not None else response
