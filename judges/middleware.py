"""A session opened by a judge's private link (``judges.services.links``) stays that judge's, in that tournament.

At every request of such a session: a link revoked meanwhile (or a session whose user is no longer the link's
judge) signs it out, so the next page asks for a login; a page outside the link's tournament (another
tournament, the site's organizer pages, the API, the admin) is refused with 403. The public pages, the
tournament list, the language switch, the icon, logging in (as someone else) and out stay open.
"""

from __future__ import annotations

from collections.abc import Callable

from django.contrib.auth import logout
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase

from base.database_outage import DATABASE_ERRORS, outage_response

from .models import PrivateLink

SESSION_KEY = "games_private_link"
OPEN_PREFIXES = ("/p/", "/static/", "/i18n/", "/accounts/logout/", "/accounts/login/", "/favicon.ico")


def allowed(path: str, slug: str) -> bool:
    return path == "/" or path.startswith(f"/t/{slug}/") or path.startswith(OPEN_PREFIXES)


class PrivateLinkMiddleware:
    """After the authentication middleware; a query only for sessions a private link opened. It reads the session
    before the view, so a database down at that moment gets ``database_outage``'s answer from here."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        try:
            self.check(request)
        except DATABASE_ERRORS as error:  # before any view: the outage answer a view's failure gets
            return outage_response(request, error)
        return self.get_response(request)

    def check(self, request: HttpRequest) -> None:
        link_id = request.session.get(SESSION_KEY)
        if link_id is None:
            return
        link = (PrivateLink.objects.filter(pk=link_id, revoked_at__isnull=True)
                .select_related("judge__tournament").first())
        if link is None or link.judge.user_id != request.user.pk:
            logout(request)  # flushes the session: the link's key goes with it
        elif not allowed(request.path, link.judge.tournament.slug):
            raise PermissionDenied
