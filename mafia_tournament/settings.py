"""Settings of the whole project, in one file, configured by the environment (read by environs: a number that is
not one refuses to start, naming the variable).

Environment variables:
- ``DATABASE_URL``: any URL dj-database-url understands; default an SQLite file ``db.sqlite3``
  at the repository root.
- ``SECRET_KEY``: required when ``DEBUG`` is off; a fixed development key otherwise.
- ``DEBUG``: ``1``/``true``/``yes``/``on`` to turn on, ``0``/``false``/``no``/``off`` to turn off (default on, for
  ``make run`` on a laptop). Every boolean variable takes these words only (any case): another value refuses to start.
- ``ALLOWED_HOSTS``: comma-separated host names (default ``127.0.0.1,localhost``).
- ``REDIS_URL``: the cache shared by every app server (public pages' fragments), e.g.
  ``redis://127.0.0.1:6379/0``; without it each process keeps its own local-memory cache.
  ``CACHE_KEY_PREFIX`` (default ``mafia``) separates several sites on one Redis.
- ``LOGIN_FAILURE_LIMIT``, ``LOGIN_ADDRESS_FAILURE_LIMIT``, ``LOGIN_COOLOFF_MINUTES``, ``TRUSTED_PROXIES``: login
  throttling (``auth.py``); ``CSP``, ``CSP_REPORT_ONLY``: the Content-Security-Policy (``csp.py``).

The production profile is ``mafia_tournament.settings_production`` (README "Running a large event").
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import tempfile
import warnings
from pathlib import Path

import dj_database_url
import django_stubs_ext
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from environs import Env

from base.csp import POLICY, csp_settings
from base.release import RELEASE  # noqa: F401  # this release's digest, read as the process starts

BASE_DIR = Path(__file__).resolve().parent.parent

# Django's generic classes (ModelAdmin, QuerySet, BaseFormSet…) take type arguments at run time too, as in django-stubs.
django_stubs_ext.monkeypatch()


# environs reads and checks every variable: a value that is not a number where one is expected refuses to start,
# naming the variable. No .env file is read: the environment alone configures the site.
env = Env()

# The booleans take fewer words than environs' (which also reads y/n, t/f): a typo never reads as a value.
TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    """The environment variable ``name`` as a boolean (``default`` when it is not set): 1/0, true/false, yes/no
    or on/off, in any case; any other value refuses to start, so a typo never reads as false."""
    value = env.str(name, None)
    if value is None:
        return default
    word = value.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean: use 1/0, true/false, yes/no or on/off")


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated variable, each item stripped, empty ones left out."""
    return [item.strip() for item in env.list(name, default, subcast=str) if item.strip()]


DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env.str("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "bootstrap",
    "django_htmx",
    "template_partials",  # a page and its htmx fragment in one template ({% partialdef %})
    "crispy_forms",
    "crispy_bootstrap5",
    "django_tables2",
    "simple_history",
    "axes",
    "django_tasks",
    "django_tasks_db",
    "tournaments",
    "checkin",
    "judges",
    "games",
    "stream",
    "exchange",
    "running",
    "ratings",
    "series",
    "venue_screen",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "public",
    "entries",
    "notices",
    "api",
    "paper",
    "mafia_tournament.apps.SiteConfig",  # last: connects what a save sets off, once every app is ready
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # a reader's shareable answer compressed once, as nginx's cache keeps it (public/compression.py); before every
    # middleware that reads or changes the answer, so it compresses what they leave
    "public.compression.CompressSharedAnswers",
    "base.csp.ContentSecurityPolicyMiddleware",  # django-csp's: off unless CONTENT_SECURITY_POLICY (csp.py)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # a database failure is a clear 503; before the session middleware, so its writes are watched too
    "base.database_outage.DatabaseOutageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "base.middleware.RejectNulMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "judges.middleware.PrivateLinkMiddleware",  # a judge's private link: its tournament only, until revoked
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "mafia_tournament.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "mafia_tournament.wsgi.application"

DATABASES = {
    # An empty DATABASE_URL counts as unset: the SQLite file of `make run`.
    "default": dj_database_url.parse(
        env.str("DATABASE_URL", "") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env.int("CONN_MAX_AGE", 0),
        # A kept connection is checked before a request reuses it: after the database restarted, the first
        # request reconnects instead of failing on the dead connection.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # `make run`'s club evening: of four judges tapping at once, two that had both read could not both take the
    # write lock, and one got "database is locked" (a 503, the tap lost unless repeated). A write transaction takes
    # the write lock when it begins (IMMEDIATE: never a read lock it cannot upgrade), a writer waits up to 20 s for
    # another, and readers never wait for a writer (WAL). docs/architecture.md "SQLite".
    # synchronous=NORMAL: in WAL mode a power cut can lose the last taps confirmed, never the database's
    # consistency. A URL's own ?timeout= and the rest win.
    _sqlite_options = DATABASES["default"].setdefault("OPTIONS", {})
    for _option, _value in (("transaction_mode", "IMMEDIATE"), ("timeout", 20),
                            ("init_command", "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;")):
        _sqlite_options.setdefault(_option, _value)
    # The tests' database a file, not Django's shared in-memory one: the browser journeys' live server answers
    # from other threads, and an in-memory database shared between threads locks whole tables ("database table
    # is locked") whatever the timeout. One per checkout and process (two runs at once never delete each other's);
    # pytest-xdist adds each worker's suffix.
    _checkout = hashlib.sha1(str(BASE_DIR).encode()).hexdigest()[:8]
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"mafia-tests-{_checkout}-{os.getpid()}.sqlite3")}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # An unreachable database server fails a request in seconds, not after the kernel's minutes of retries
    # (a URL's own ?connect_timeout= wins).
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("connect_timeout", 5)

REDIS_URL = env.str("REDIS_URL", "").strip()
CACHE_KEY_PREFIX = env.str("CACHE_KEY_PREFIX", "mafia")
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": CACHE_KEY_PREFIX,
        # A Redis that stops answering (packets dropped) fails a request in seconds, not after minutes: the pages
        # and the judges' taps that touch the cache never hang a worker until gunicorn kills it.
        "OPTIONS": {"socket_connect_timeout": 5, "socket_timeout": 5},
    }
    if REDIS_URL
    else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "mafia"}
}
# The stream overlay's live updates (stream/services/live.py) go through Channels' layer on the same Redis; without
# Redis there is none and the overlay polls. ``STREAM_SOCKET_URL``: where the ASGI server answers the overlay's
# websockets when not on this site's own address (e.g. ``wss://live.example.org``); empty: the same host, ``/ws/``.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [REDIS_URL], "prefix": CACHE_KEY_PREFIX + ":channels"},
    }
} if REDIS_URL else {}
STREAM_SOCKET_URL = env.str("STREAM_SOCKET_URL", "").strip().rstrip("/")
# Background work (tournaments/background.py, docs/background.md): tasks are rows of the database, taken by
# ``manage.py db_worker`` processes, one set per queue. ``TASKS_IN_PROCESS`` (``make run``): the development server
# runs the workers itself, in threads. The tests run each task at once unless a test says otherwise.
TASKS = {
    "default": {
        "BACKEND": "django_tasks_db.DatabaseBackend",
        "QUEUES": ["stream", "seating", "documents", "notices"],
    }
}
TASKS_IN_PROCESS = env_bool("TASKS_IN_PROCESS", False)

# Notifications (notices/, docs/notifications.md), sent by the ``notices`` queue's worker, never in a request.
# E-mail: Django's mail over SMTP (EMAIL_HOST, EMAIL_PORT, optional EMAIL_HOST_USER/PASSWORD, EMAIL_USE_TLS).
EMAIL_HOST = env.str("EMAIL_HOST", "localhost")
EMAIL_PORT = env.int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", "mafia@localhost")
# Telegram: the Bot API's base URL (a local server may stand in for it) and the bot's token; without a token
# nothing goes to Telegram (the messages wait, marked so). TELEGRAM_BOT_NAME: the bot's user name for the deep
# link (t.me/NAME?start=...), else asked of the Bot API (getMe).
TELEGRAM_API_URL = env.str("TELEGRAM_API_URL", "https://api.telegram.org").rstrip("/")
TELEGRAM_BOT_TOKEN = env.str("TELEGRAM_BOT_TOKEN", "")
TELEGRAM_BOT_NAME = env.str("TELEGRAM_BOT_NAME", "")
# The site's address as players reach it, for the links in messages (the private page, unsubscribe).
SITE_URL = env.str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# How long the reverse proxy (deploy/nginx/) may answer anonymous readers from its cache before it asks the app
# again: the ``s-maxage`` of every shared public answer (public.conditional.for_the_proxy). Browsers revalidate each
# time (max-age=0, the version's ETag); only a shared cache in front of the app keeps the answer.
PROXY_CACHE_SECONDS = env.int("PROXY_CACHE_SECONDS", 2)
# And for how many seconds after that it may still answer the old copy while it asks the app for a new one
# (``stale-while-revalidate``): a copy older than both is asked for and waited for, so a phone that polls every
# 20 s gets the page as it is, not the copy its last poll left behind.
PROXY_STALE_SECONDS = env.int("PROXY_STALE_SECONDS", 2)
# After a change, the tournament's public model is built again at most this often (seconds); pages show the last one
# built meanwhile (public.model_cache.settle). 0 (development and tests): every change shows at once.
MODEL_REBUILD_SECONDS = env.float("MODEL_REBUILD_SECONDS", 0.0)
# Above 0, PDFs are made by a child process at this lower CPU priority (paper/pdf.py): 19 in production.
PDF_NICENESS = env.int("PDF_NICENESS", 0)
# The documents' worker (paper/documents.py): a PDF's child process is stopped after this many seconds (below
# gunicorn's --timeout of 120 in the README), and at most this many documents are built at once on all servers.
DOCUMENT_BUILD_SECONDS = env.float("DOCUMENT_BUILD_SECONDS", 100.0)
DOCUMENT_BUILDS_AT_ONCE = max(1, env.int("DOCUMENT_BUILDS_AT_ONCE", 1))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", "Europe/Moscow")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATICFILES_FINDERS = [
    "django.contrib.staticfiles.finders.FileSystemFinder",
    "base.static_files.CollectedAppDirectoriesFinder",  # the apps' static files, without Bootstrap's unused builds
]
# With DEBUG on, WhiteNoise serves from the apps' static folders; no collectstatic run needed.
warnings.filterwarnings("ignore", message="No directory at", module="whitenoise.base")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Login throttling (django-axes; see base/auth.py): 5 wrong passwords for a username from one
# address lock it there, 20 from one address whatever the usernames lock the address, for 15 minutes.
# Attempts are rows in the database, so each test starts with none.
AUTHENTICATION_BACKENDS = [
    "base.auth.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", 5)
LOGIN_ADDRESS_FAILURE_LIMIT = env.int("LOGIN_ADDRESS_FAILURE_LIMIT", 20)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env.int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]  # the limit of each: auth.py
AXES_HANDLER = "base.auth.LoginThrottleHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "base.auth.lockout_response"
AXES_CLIENT_IP_CALLABLE = "base.auth.client_ip"
AXES_VERBOSE = False

# Content-Security-Policy (base/csp.py, sent by django-csp): on in the production profile; off here unless CSP=1,
# since Django's debug pages are inline scripts and styles. CSP_REPORT_ONLY=1: reported by the browser, not enforced.
# The overlay's websockets on another address (STREAM_SOCKET_URL): the pages may connect there too.
CSP_POLICY = {**POLICY, "connect-src": [*POLICY["connect-src"], *([STREAM_SOCKET_URL] if STREAM_SOCKET_URL else [])]}
CSP_REPORT_ONLY = env_bool("CSP_REPORT_ONLY", False)
CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_REPORT_ONLY = csp_settings(CSP_POLICY, env_bool("CSP", False),
                                                                          CSP_REPORT_ONLY)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "site:start"  # a judge lands on the table to record (games.views.start)
LOGOUT_REDIRECT_URL = "site:tournaments"

# Django's widget templates through Jinja2: a judge's protocol page draws a hundred widgets (base/form_renderer.py).
FORM_RENDERER = "base.form_renderer.JinjaFirstRenderer"

CRISPY_ALLOWED_TEMPLATE_PACKS = "bootstrap5"
CRISPY_TEMPLATE_PACK = "bootstrap5"
DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5-responsive.html"

MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # DRF's parsers, the JSON one refusing bodies nested too deeply with a 400 (api/parsers.py)
    "DEFAULT_PARSER_CLASSES": ["api.parsers.JSONParser", "rest_framework.parsers.FormParser",
                               "rest_framework.parsers.MultiPartParser"],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {"TITLE": "Mafia tournaments API", "VERSION": "1", "SERVE_INCLUDE_SCHEMA": False,
                        "ENUM_NAME_OVERRIDES": {"Side": "games.models.protocol.Side"},
                        "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums",
                                                 "api.schema_hooks.document_not_found"]}
