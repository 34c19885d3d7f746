"""The floor: what the same gunicorn can do at all on this machine (``public_load.py`` measures it beside
the app in the same run, so ours/floor is read side by side, never across runs).

A minimal WSGI application: ``/bytes/N`` answers N bytes held in memory (the size of one of our answers as
sent), ``/not-modified`` a bodiless 304. No framework, no database, no cache: the server, the loopback and
the clients only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

BODY = bytes(range(256)) * 8192  # 2 MiB, sliced per request: larger than any answer measured


def app(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
    path = environ.get("PATH_INFO", "")
    if path == "/not-modified":
        start_response("304 Not Modified", [("ETag", '"floor"')])
        return [b""]
    size = int(path.removeprefix("/bytes/")) if path.startswith("/bytes/") else 0
    start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(size)),
                              ("ETag", '"floor"')])
    return [BODY[:size]]
