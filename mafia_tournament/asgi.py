"""ASGI entry point: the site's pages (as under WSGI) and the stream overlay's websockets (``/ws/stream/…``,
stream.consumers; docs/stream-overlay.md). Run it with uvicorn beside gunicorn, the proxy sending ``/ws/`` here."""

from __future__ import annotations

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafia_tournament.settings")
django_application = get_asgi_application()  # first: it sets Django up before the consumers' imports

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.urls import path  # noqa: E402

from base.collector import freeze_loaded  # noqa: E402
from stream.consumers import StreamConsumer  # noqa: E402

application = ProtocolTypeRouter({
    "http": django_application,
    "websocket": AllowedHostsOriginValidator(URLRouter([
        path("ws/stream/<str:ticket>/", StreamConsumer.as_asgi()),
    ])),
})
freeze_loaded()  # what the server loaded to start is never garbage: full collections stop walking it
