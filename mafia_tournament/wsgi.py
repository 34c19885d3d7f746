"""WSGI entry point (``gunicorn mafia_tournament.wsgi``)."""

from __future__ import annotations

import os

from django.core.wsgi import get_wsgi_application

from base.collector import freeze_loaded

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafia_tournament.settings")
application = get_wsgi_application()
freeze_loaded()  # what the worker loaded to start is never garbage: full collections stop walking it
