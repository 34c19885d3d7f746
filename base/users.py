"""The types of the site's users, for annotations (mypy with django-stubs; nothing here runs in a request).

- ``AnyUser``: whoever sent a request, signed in or not (``request.user``); permission checks take it.
- ``User``: a signed-in user (``settings.AUTH_USER_MODEL``): the services that record who did something take it.
- ``AuthenticatedHttpRequest`` / ``AuthenticatedRequest``: a request of a view that only signed-in users reach
  (``LoginRequiredMixin``, DRF's ``IsAuthenticated``), so its ``user`` is a ``User``: views annotate their
  ``request`` with it instead of casting.

Import them under ``if TYPE_CHECKING:`` (modules with ``from __future__ import annotations``).
"""

from __future__ import annotations

from typing import TypeAlias

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest
from rest_framework.request import Request

__all__ = ["AnyUser", "AuthenticatedHttpRequest", "AuthenticatedRequest", "User"]

AnyUser: TypeAlias = User | AnonymousUser


class AuthenticatedHttpRequest(HttpRequest):
    user: User


class AuthenticatedRequest(Request):
    user: User
