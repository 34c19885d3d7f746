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

django-csp sends it: ``CONTENT_SECURITY_POLICY = {"DIRECTIVES": POLICY}`` turns it on, ``None`` off (read on
every response, so tests can switch it on); ``settings.py`` leaves it off in development (Django's debug pages
are inline scripts and styles) unless ``CSP=1``; ``CSP_REPORT_ONLY=1`` sets
``CONTENT_SECURITY_POLICY_REPORT_ONLY`` instead, so the header is ``Content-Security-Policy-Report-Only`` (the
browser reports, blocks nothing). ``ContentSecurityPolicyMiddleware`` is django-csp's, plus the printable
documents' styles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings

if TYPE_CHECKING:  # settings.py imports POLICY: nothing of django.http at import time
    from django.http import HttpRequest, HttpResponseBase

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


def policy_for(request: HttpRequest, policy: dict[str, list[str]]) -> dict[str, list[str]]:
    match = getattr(request, "resolver_match", None)
    if match is not None and INLINE_STYLE_NAMESPACES.intersection(match.namespaces):
        return {**policy, "style-src": [*policy.get("style-src", ["'self'"]), "'unsafe-inline'"]}
    return policy


CspSetting = dict[str, dict[str, list[str]]] | None


def csp_settings(policy: dict[str, list[str]], on: bool, report_only: bool) -> tuple[CspSetting, CspSetting]:
    """django-csp's ``CONTENT_SECURITY_POLICY`` and ``CONTENT_SECURITY_POLICY_REPORT_ONLY``: ``policy`` in one of
    them when ``on``."""
    setting = {"DIRECTIVES": policy} if on else None
    return (None, setting) if report_only else (setting, None)


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware; on the printable documents' pages, the style sources of ``policy_for``."""

    def get_policy_parts(self, request: HttpRequest, response: HttpResponseBase,
                         report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        name = "CONTENT_SECURITY_POLICY_REPORT_ONLY" if report_only else "CONTENT_SECURITY_POLICY"
        directives = (getattr(settings, name, None) or {}).get("DIRECTIVES")
        if directives and parts.config is None:
            relaxed = policy_for(request, directives)
            if relaxed is not directives:
                parts.replace = {**(parts.replace or {}), "style-src": relaxed["style-src"]}
        return parts
