"""What a request answers when the database fails under it (restarted, unreachable, connections dropped).

Instead of a bare "Server Error (500)" every request gets a 503 saying so in the user's language: JSON
``{"detail", "saved"}`` under ``/api/``, plain text to htmx (``static/js/request-errors.js`` shows it
without replacing the page, so a judge's table screen keeps its state and the tap can be repeated), a
page of its own otherwise. It says whether the request's change was saved: each service saves in one
transaction, so a failure before its commit saved nothing, and the request's writes are watched to tell
the rare failure after a commit (then the page could not be shown, but the change is in). Django closes a
connection that failed, and checks a kept one before reusing it (settings ``conn_health_checks``), so the
app recovers by itself when the database is back.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable
from typing import Any

from django.db import InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views import defaults

logger = logging.getLogger("mafia_tournament.database")

DATABASE_ERRORS = (OperationalError, InterfaceError)
# SQLSTATE classes of a lost or refused connection: connection exceptions (08), the server shutting down or
# starting up (57P..), no connection slots left (53); a statement's own failure (a deadlock) is another.
CONNECTION_STATES = ("08", "57P", "53")
RETRY_AFTER_SECONDS = 5
WRITE = re.compile(r'\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"?(\w+)"?(\s+SET\s+"last_login"\s*=\s*%s\s+WHERE)?',
                   re.IGNORECASE)
# Writes that change nothing the user asked for: the session, login attempts, the time of the last login.
BOOKKEEPING = ("django_session", "axes_")


def connection_lost(error: Exception) -> bool:
    if isinstance(error, InterfaceError):  # used after it was closed
        return True
    cause = error.__cause__
    state = getattr(cause, "pgcode", None) or getattr(cause, "sqlstate", None)  # psycopg2, psycopg 3
    return not state or str(state).startswith(CONNECTION_STATES)


def is_change(sql: str) -> bool:
    write = WRITE.match(sql)
    return write is not None and not write.group(1).startswith(BOOKKEEPING) and not write.group(2)


class WriteWatch:
    """Notes whether the request committed a change (``connection.execute_wrapper``)."""

    def __init__(self) -> None:
        self.committed = False

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: dict[str, Any]) -> Any:
        result = execute(sql, params, many, context)
        if not self.committed and is_change(sql):
            db = context["connection"]
            if not db.in_atomic_block:
                self.mark()
            elif not self.pending(db):
                db.on_commit(self.mark)  # dropped if the transaction rolls back
        return result

    def pending(self, db: Any) -> bool:
        """Whether a mark waits for a commit that would also commit this write: one registered here or
        in an enclosing savepoint. Once per level, so a long import adds no callback per row."""
        level = set(db.savepoint_ids)
        return any(func == self.mark and sids <= level for sids, func, _robust in db.run_on_commit)

    def mark(self) -> None:
        self.committed = True


def message(request: HttpRequest, error: Exception, saved: bool) -> str:
    reason = (_("The database is unavailable.") if connection_lost(error)
              else _("The database could not complete the request."))
    if request.method in ("GET", "HEAD", "OPTIONS"):
        outcome = _("Try again in a moment.")
    elif saved:
        outcome = _("Your change was saved, but the page could not be shown: reload it in a moment.")
    else:
        outcome = _("Nothing was saved: try again in a moment.")
    return f"{reason} {outcome}"


def outage_response(request: HttpRequest, error: Exception) -> HttpResponse:
    watch = getattr(request, "database_writes", None)
    saved = bool(watch and watch.committed)
    text = message(request, error, saved)
    first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    if connection_lost(error):
        logger.warning("database unavailable: %s %s: %s", request.method, request.path, first_line)
    else:  # not an outage: worth its traceback
        logger.error("database error: %s %s: %s", request.method, request.path, first_line, exc_info=error)
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"detail": text, "saved": saved}, status=503)
    elif request.headers.get("HX-Request") == "true":
        response = HttpResponse(text, status=503, content_type="text/plain; charset=utf-8")
    else:
        page = render_to_string("database_unavailable.html", {"message": text, "again": request.get_full_path()})
        response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def database_error_in(error: BaseException | None) -> Exception | None:
    """The database failure behind ``error``: itself, or one it was raised while handling."""
    for _depth in range(10):
        if error is None:
            return None
        if isinstance(error, DATABASE_ERRORS):
            return error
        error = error.__cause__ or error.__context__
    return None


class DatabaseOutageMiddleware:
    """Answers a view's database failure with ``outage_response``; watches the request's writes."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        watch = WriteWatch()
        request.database_writes = watch  # type: ignore[attr-defined]
        with connection.execute_wrapper(watch):
            return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        error = database_error_in(exception)
        return outage_response(request, error) if error else None


# A failure after the view, in a middleware, reaches Django's error handlers instead (with DEBUG off).

def server_error(request: HttpRequest, template_name: str = defaults.ERROR_500_TEMPLATE_NAME) -> HttpResponse:
    """``handler500``, called while Django handles the exception."""
    error = database_error_in(sys.exc_info()[1])
    return outage_response(request, error) if error else defaults.server_error(request, template_name)


def bad_request(request: HttpRequest, exception: Exception,
                template_name: str = defaults.ERROR_400_TEMPLATE_NAME) -> HttpResponse:
    """``handler400``: the session middleware calls a session it could not save "interrupted" (a 400 saying
    the user may have logged out meanwhile), also when the database failed under the save."""
    error = database_error_in(exception)
    return outage_response(request, error) if error else defaults.bad_request(request, exception, template_name)
