"""Refuses requests carrying a NUL character in the path, the query string or a form field.

PostgreSQL cannot store or compare text with NUL, so such a value reaching a query (a search, a stage id
from the address, a raw form value) raised ``ValueError`` deep inside the driver: a server error. Forms
already refuse NUL one field at a time; this answers every other way in with a 400 that says why (JSON
under ``/api/``).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.translation import gettext as _

NUL = "\x00"


def has_nul(request: HttpRequest) -> bool:
    if NUL in request.path:
        return True
    for query in (request.GET, request.POST if request.method == "POST" else None):
        if query is None:
            continue
        for key, values in query.lists():
            if NUL in key or any(NUL in v for v in values):
                return True
    return False


class RejectNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if has_nul(request):
            message = _("The request contains a NUL character, which no field accepts.")
            if request.path.startswith("/api/"):
                return JsonResponse({"detail": message}, status=400)
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
