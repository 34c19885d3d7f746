"""The production profile: ``DJANGO_SETTINGS_MODULE=mafia_tournament.settings_production``.

Everything of ``settings`` with DEBUG off (so ``SECRET_KEY`` is required and static files are
served by WhiteNoise from ``collectstatic``'s compressed, hashed copies), the Redis cache shared by
every app server (``REDIS_URL`` is required), persistent database connections, and HTTPS behind a
reverse proxy that terminates TLS and sets ``X-Forwarded-Proto``.

Environment (besides those of ``settings``):
- ``REDIS_URL`` (required), ``CACHE_KEY_PREFIX``;
- ``CSRF_TRUSTED_ORIGINS``: comma-separated origins, e.g. ``https://mafia.example.org``;
- ``SECURE_SSL_REDIRECT`` (default on), ``SECURE_HSTS_SECONDS`` (default one year),
  ``SECURE_HSTS_PRELOAD`` (default off);
- ``CONN_MAX_AGE`` (default 60 seconds here);
- ``PROXY_CACHE_SECONDS`` (default 2): how long the reverse proxy (``deploy/nginx/``) answers anonymous
  readers' public pages from its cache before asking the app again;
- ``PROXY_STALE_SECONDS`` (default 2): how long after that it may still answer the old copy while it asks the app
  again behind; an older copy is never answered;
- ``MODEL_REBUILD_SECONDS`` (default 1 here): after changes, the tournament's public model is built again at most
  this often, so a burst of submitted protocols does not keep a worker building (``public/model_cache.py``);
- ``PDF_NICENESS`` (default 19 here): PDFs are made by a child process at this lower CPU priority, so an
  18-second results PDF of a large event does not slow every other page (``paper/pdf.py``); 0 makes them in
  the worker;
- ``CSP_REPORT_ONLY`` (default off): the strict Content-Security-Policy (``base/csp.py``: scripts,
  styles and everything else from this site only, no inline script, no framing) is always on here; this only
  sends it as ``Content-Security-Policy-Report-Only`` (the browser reports violations, blocks nothing).
"""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

os.environ["DEBUG"] = "0"
os.environ.setdefault("CONN_MAX_AGE", "60")
os.environ.setdefault("MODEL_REBUILD_SECONDS", "1")
os.environ.setdefault("PDF_NICENESS", "19")

from base.csp import csp_settings

from .settings import *  # noqa: F403
from .settings import CSP_POLICY, CSP_REPORT_ONLY, REDIS_URL, env, env_bool, env_list

if not REDIS_URL:
    raise ImproperlyConfigured("REDIS_URL must be set in production: every app server shares the cache")

DEBUG = False
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
X_FRAME_OPTIONS = "DENY"
# csp.POLICY (and STREAM_SOCKET_URL), always; sent by csp.ContentSecurityPolicyMiddleware (django-csp)
CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_REPORT_ONLY = csp_settings(CSP_POLICY, True, CSP_REPORT_ONLY)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]  # preload is the owner's choice

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", "WARNING")},
}
