"""Conditional answers of the public pages and the API: the version's ETag, and what the reverse proxy may keep.

An anonymous reader's answer (no session, no pending message, no credentials) is the same for every reader of
that address, language and kind (a page or its htmx fragment): the views leave everything personal out of it (the
CSRF token above all: ``shared``), and it is marked ``public, s-maxage=PROXY_CACHE_SECONDS`` so that the proxy in
front (``deploy/nginx/``) answers it for a couple of seconds without asking, then asks again with the ETag (an
unchanged version: a 304 after one query), answering the old copy meanwhile for at most ``PROXY_STALE_SECONDS``.
Browsers revalidate it every time (``max-age=0``). Everything else is
``private, no-cache``.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from django.utils.translation import get_language


def personal(request: HttpRequest) -> bool:
    """Whether the answer may depend on who asks: a session (a signed-in user, a judge's link), messages waiting in
    a cookie, or credentials. ``deploy/nginx/pools.conf`` decides it the same way (``$mafia_personal``)."""
    cookies = request.COOKIES
    return (settings.SESSION_COOKIE_NAME in cookies or "messages" in cookies
            or "HTTP_AUTHORIZATION" in request.META)


def shared(request: HttpRequest) -> bool:
    """Whether this request's answer is everyone's: then the page carries nothing personal (no CSRF token)."""
    return request.method in ("GET", "HEAD") and not personal(request)


def etag_for(request: HttpRequest, scope: str, version: int | str, hidden: bool) -> str:
    user = request.user.pk if request.user.is_authenticated else 0
    part = "f" if request.headers.get("HX-Request") else "p"
    return f'"{scope}-{version}-{int(hidden)}-{get_language()}-{user}-{part}"'


def conditional(request: HttpRequest, etag: str, build: Callable[[], HttpResponseBase],
                behind: bool = False) -> HttpResponseBase:
    """304 when the client (or the proxy revalidating) has this ETag already; otherwise ``build()``; either with
    its validators and caching headers. ``behind``: the answer is of an older version than the tournament's (its
    model is being built, ``model_cache.settle``), so the proxy keeps it for a second only."""
    not_modified = get_conditional_response(request, etag=etag)
    response: HttpResponseBase
    if not_modified is not None:
        response = not_modified
    else:
        response = build()
        if 200 <= response.status_code < 300:  # a refusal or an error is not a version of the page
            response["ETag"] = etag
    patch_vary_headers(response, ("Cookie", "Accept-Language", "HX-Request"))
    return for_the_proxy(request, response, behind)


def shared_cache_control(seconds: int) -> str:
    """What a shared answer tells the proxy: keep it ``seconds``, then answer the old copy at most
    ``PROXY_STALE_SECONDS`` longer while asking the app again (after that, wait for the app's answer)."""
    return f"public, max-age=0, s-maxage={seconds}, stale-while-revalidate={settings.PROXY_STALE_SECONDS}"


def for_the_proxy(request: HttpRequest, response: HttpResponseBase, behind: bool = False) -> HttpResponseBase:
    """``public, s-maxage`` on an anonymous reader's 200 or 304 that sets no cookie; ``private, no-cache`` on
    anything else (nobody's answer is kept for another). An answer ``behind`` the tournament's version is kept one
    second, not ``PROXY_CACHE_SECONDS``: the newer version is being built, and the proxy asks again sooner for it
    (a copy revalidated while a build runs was otherwise kept its whole validity again, already behind). nginx
    counts whole seconds, so ``s-maxage=1`` kept it 1 to 2 s: ``X-Accel-Expires`` (an absolute moment, read by
    nginx alone, which never passes it on) keeps it only to the end of the second it was made in, then answers it
    stale while it asks again (spectators' answers about 0.5 s less behind at the p95, bench/README.md). It comes after
    ``Cache-Control``: nginx reads the ``stale-while-revalidate`` of a ``Cache-Control`` only when no
    ``X-Accel-Expires`` came before it. The moment is the app's clock: nginx on the same machine (``pools.conf``),
    or on one whose clock agrees."""
    if shared(request) and response.status_code in (200, 304) and not response.cookies:
        seconds = min(1, settings.PROXY_CACHE_SECONDS) if behind else settings.PROXY_CACHE_SECONDS
        response["Cache-Control"] = shared_cache_control(seconds)
        if behind:
            response["X-Accel-Expires"] = f"@{int(time.time())}"
    else:
        patch_cache_control(response, no_cache=True, private=True)
    return response
