"""Login throttling against password guessing (django-axes), configured in ``settings.py``.

Two limits, both over the cool-off window of ``LOGIN_COOLOFF_MINUTES`` (default 15):

- guessing one password: after ``LOGIN_FAILURE_LIMIT`` wrong passwords for one username from one address
  (default 5), that username is locked for that address; a right password resets that count;
- password spraying (many usernames, a few passwords each): after ``LOGIN_ADDRESS_FAILURE_LIMIT`` wrong
  passwords from one address whatever the usernames (default 20), every login from that address is locked.
  A right password does not reset this count (a sprayer with an account of their own could wipe it); it
  empties as the window passes. The default leaves room for a venue whose judges all share one address
  (mistyping a few times each); raise it for a very large venue behind one NAT.

A locked login is refused even with the right password, and every further attempt during the lockout starts
the window again. The login page, the admin's and the API's token endpoint all answer 429 with
``Retry-After`` (seconds until the lock lifts): the pages with a translated page saying how many minutes to
wait, the token endpoint with JSON ``{"detail": "...", "retry_after": seconds}`` (translated detail). Behind a
reverse proxy, ``TRUSTED_PROXIES`` (the number of proxies in front of the app) makes the client's address the
one the outermost trusted proxy saw, from ``X-Forwarded-For``.
"""

from __future__ import annotations

import datetime as dt
import math
import os
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit, get_lockout_parameters
from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import ngettext


class LoginThrottleBackend(AxesStandaloneBackend):  # type: ignore[misc]  # django-axes ships no types
    """Axes' lockout check on every login that comes with a request (the login pages, the API token).

    A login without a request (the test client's ``login()``, a shell) has no client to throttle: it goes
    on to the next backend instead of failing, as Axes' own backend would.
    """

    def authenticate(self, request: HttpRequest | None, username: str | None = None,
                     password: str | None = None, **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)  # type: ignore[no-any-return]


def client_ip(request: Any) -> str:
    """The client's address: REMOTE_ADDR, or the entry ``TRUSTED_PROXIES`` from the right of X-Forwarded-For."""
    proxies = int(os.environ.get("TRUSTED_PROXIES", "0") or 0)
    meta = request.META
    if proxies > 0:
        hops = [h.strip() for h in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
        if len(hops) >= proxies:
            return str(hops[-proxies])
    return str(meta.get("REMOTE_ADDR", ""))


def _address_wide(parameter: str | list[str]) -> bool:
    """Whether a lockout parameter counts the address's failures whatever the username."""
    return "username" not in ([parameter] if isinstance(parameter, str) else parameter)


class LoginThrottleHandler(AxesDatabaseHandler):  # type: ignore[misc]  # django-axes ships no types
    """Axes' database handler with a limit per lockout parameter: ``AXES_FAILURE_LIMIT`` for the username at an
    address, ``LOGIN_ADDRESS_FAILURE_LIMIT`` for the address whatever the username (Axes itself has one limit
    for all). A right password resets only the username's count at the address."""

    def _counted(self, request: Any, credentials: dict[str, Any] | None) -> list[tuple[bool, QuerySet[Any], int]]:
        """(address-wide, the attempts in the window, their limit) for each lockout parameter."""
        parameters = get_lockout_parameters(request, credentials)
        attempts = self.get_user_attempts(request, credentials)
        user_limit = get_failure_limit(request, credentials)
        return [(_address_wide(p), a, int(settings.LOGIN_ADDRESS_FAILURE_LIMIT) if _address_wide(p) else user_limit)
                for p, a in zip(parameters, attempts, strict=True)]

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """The username's failures at the address, or at least Axes' limit once any limit is reached (Axes
        compares this one number with its one limit)."""
        per_user = 0
        locked = False
        for address_wide, attempts, limit in self._counted(request, credentials):
            failures = _sum(attempts)
            locked = locked or failures >= limit
            if not address_wide:
                per_user = max(per_user, failures)
        return max(per_user, get_failure_limit(request, credentials)) if locked else per_user

    def reset_user_attempts(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        count = 0
        for address_wide, attempts, _limit in self._counted(request, credentials):
            if not address_wide:
                count += attempts.delete()[0]
        return count

    def lockout(self, request: Any, credentials: dict[str, Any] | None) -> tuple[int, bool]:
        """(seconds until the lock lifts, whether it is the address-wide lock) — the longest of the locks in
        force; the whole cool-off if none is found (the attempts were cleaned up meanwhile)."""
        cool_off: dt.timedelta = settings.AXES_COOLOFF_TIME
        now = timezone.now()
        longest, by_address = 0.0, False
        for address_wide, attempts, limit in self._counted(request, credentials):
            failures = 0
            # the lock lifts once the attempts still in the window add up to less than the limit: when the
            # newest attempt that takes the sum (from the newest down) to the limit leaves the window
            for attempt_time, count in attempts.order_by("-attempt_time").values_list(
                    "attempt_time", "failures_since_start"):
                failures += count
                if failures >= limit:
                    seconds = (attempt_time + cool_off - now).total_seconds()
                    if seconds > longest:
                        longest, by_address = seconds, address_wide
                    break
        if longest <= 0:
            return int(cool_off.total_seconds()), False
        return math.ceil(longest), by_address


def _sum(attempts: QuerySet[Any]) -> int:
    return sum(attempts.values_list("failures_since_start", flat=True))


def lockout_state(request: Any, credentials: dict[str, Any] | None) -> tuple[int, bool]:
    """(seconds to wait, address-wide) of a locked-out request, through the configured Axes handler."""
    from axes.handlers.proxy import AxesProxyHandler

    handler = AxesProxyHandler.get_implementation()
    if isinstance(handler, LoginThrottleHandler):
        return handler.lockout(request, credentials)
    return int(settings.AXES_COOLOFF_TIME.total_seconds()), False


def wait_minutes(seconds: int) -> int:
    return max(1, math.ceil(seconds / 60))


def lockout_message(seconds: int) -> str:
    """The translated sentence of the token endpoint's 429."""
    minutes = wait_minutes(seconds)
    return ngettext("Too many failed logins: try again in %(minutes)d minute.",
                    "Too many failed logins: try again in %(minutes)d minutes.", minutes) % {"minutes": minutes}


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """``AXES_LOCKOUT_CALLABLE``: the login pages' 429, a translated page saying how long to wait."""
    seconds, by_address = lockout_state(request, credentials)
    response = render(request, "registration/locked_out.html", {
        "failure_limit": get_failure_limit(request, credentials),
        "address_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT,
        "by_address": by_address,
        "minutes": wait_minutes(seconds),
    }, status=429)
    response["Retry-After"] = str(seconds)
    return response
