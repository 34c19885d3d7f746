"""The Content-Security-Policy header: the production profile sends ``POLICY`` on every response.

No page runs a script of its own text: every script is a file under ``static/`` (Bootstrap, htmx, ``static/js/``),
every handler is attached there (``data-*`` attributes say where), htmx evaluates nothing (``allowEval`` off, no
``hx-on``, no ``js:`` values, no trigger filters) and injects no style (``includeIndicatorStyles`` off: its
indicator rules are in ``static/css/site.css``); ``tests/site/test_csp.py`` fails on a new inline script or
handler in a template, and ``tests/e2e/test_csp_journey.py`` walks the key pages in Chromium with this policy on,
failing on any violation.

Styles: ``style-src 'self'`` as well, so no page carries a ``style=`` attribute either (classes in
``site.css``; a width that changes, the seating job's progress, is set from ``data-percent`` by
``static/js/site.js``). The one exception is the printable documents (the ``paper`` pages): their CSS is inline
in the page because WeasyPrint renders the same HTML from a string into the PDF, with no static files to fetch,
so those pages, and only they, allow ``'unsafe-inline'`` styles. Scripts stay ``'self'`` there too (inline CSS
cannot run code; the only risk left would be CSS reading an attribute, which needs injected HTML, and every name
is escaped: ``tests/site/test_html_escaping.py``).

``CONTENT_SECURITY_POLICY`` (a dict, directive to sources) turns it on, ``None`` off: ``settings.py`` leaves it
off in development (Django's debug pages are inline scripts and styles) unless ``CSP=1``;
``CSP_REPORT_ONLY=1`` sends ``Content-Security-Policy-Report-Only`` instead (the browser reports, blocks nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from django.conf import settings

if TYPE_CHECKING:  # settings.py imports POLICY: nothing of django.http at import time
    from django.http import HttpRequest, HttpResponse

POLICY: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],  # Bootstrap draws its icons (the menu, selects) as data: SVG images
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}

# URL namespaces whose pages may carry inline styles (see above); never inline scripts.
INLINE_STYLE_NAMESPACES = frozenset({"paper"})


def header_value(policy: dict[str, list[str]]) -> str:
    return "; ".join(" ".join([directive, *sources]) for directive, sources in policy.items())


def policy_for(request: HttpRequest, policy: dict[str, list[str]]) -> dict[str, list[str]]:
    match = getattr(request, "resolver_match", None)
    if match is not None and INLINE_STYLE_NAMESPACES.intersection(match.namespaces):
        return {**policy, "style-src": [*policy.get("style-src", ["'self'"]), "'unsafe-inline'"]}
    return policy


class ContentSecurityPolicyMiddleware:
    """Adds the header of ``settings.CONTENT_SECURITY_POLICY`` (read on every request, so tests can switch
    it on) to every response that has none of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        policy = getattr(settings, "CONTENT_SECURITY_POLICY", None)
        if not policy:
            return response
        name = ("Content-Security-Policy-Report-Only" if getattr(settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY",
                                                                 False) else "Content-Security-Policy")
        if name not in response:
            response[name] = header_value(policy_for(request, policy))
        return response
