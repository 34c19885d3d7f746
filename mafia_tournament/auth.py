"""Login throttling against password guessing (django-axes), configured in ``settings.py``.

After ``LOGIN_FAILURE_LIMIT`` wrong passwords for one username from one address (default 5), that
username is locked for that address for ``LOGIN_COOLOFF_MINUTES`` (default 15): the login page, the
admin's and the API's token endpoint all answer 429 with a translated page; a right password resets
the count. Behind a reverse proxy, ``TRUSTED_PROXIES`` (the number of proxies in front of the app)
makes the client's address the one the outermost trusted proxy saw, from ``X-Forwarded-For``.
"""

from __future__ import annotations

import os
from typing import Any

from axes.backends import AxesStandaloneBackend
from django.http import HttpRequest


class LoginThrottleBackend(AxesStandaloneBackend):
    """Axes' lockout check on every login that comes with a request (the login pages, the API token).

    A login without a request (the test client's ``login()``, a shell) has no client to throttle: it goes
    on to the next backend instead of failing, as Axes' own backend would.
    """

    def authenticate(self, request: HttpRequest | None, username: str | None = None,  # type: ignore[override]
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
