"""What ``collectstatic`` collects: every app's static files but the parts of Bootstrap's package no page loads.

``django-bootstrap-static`` ships all of Bootstrap's builds (6 MB of CSS in 32 files: the grid, reboot and utilities
parts, right-to-left and unminified copies, each with its source map; 3 MB of scripts). The pages load
``bootstrap/css/bootstrap.min.css`` alone (its source map beside it: the minified file names it, and the manifest
storage follows the name), and no Bootstrap script since the menu's toggle moved to ``static/js/site.js``.
WhiteNoise's storage hashes every collected file and compresses both copies with gzip and Brotli at its highest
level: the rest of the package was two thirds of that work (``collectstatic`` 18–19 s against 7–8 s on two idle
cores), on every deploy and in the test suite's run of the production profile (``tests/deploy/test_bench_smoke.py``).

Left out by the app finder's listing, which ``collectstatic`` reads (and WhiteNoise, only with
``WHITENOISE_USE_FINDERS`` on and DEBUG off, not set here): a request served through the finders' ``find`` (``make
run``, the tests' live server) still finds any file. (Django's documented way, an
app config of ``django.contrib.staticfiles`` with more ``ignore_patterns``, would take that name out of
``INSTALLED_APPS``, where pytest-django looks for it to serve the static files of its live server.)"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.staticfiles.finders import AppDirectoriesFinder

# Patterns with a slash match the whole path below an app's ``static/`` (django.contrib.staticfiles.utils.get_files).
UNUSED = [
    "bootstrap/js/*",
    "bootstrap/css/bootstrap-*",  # the grid, reboot and utilities parts
    "bootstrap/css/*.rtl.*",
    "bootstrap/css/bootstrap.css",
    "bootstrap/css/bootstrap.css.map",
]


class CollectedAppDirectoriesFinder(AppDirectoriesFinder):
    """The apps' ``static/`` folders, listed without Bootstrap's unused builds (``tests/site/test_static_files.py``
    checks that every file a template names is still listed)."""

    def list(self, ignore_patterns: Iterable[str] | None) -> Iterable[Any]:
        return super().list([*(ignore_patterns or []), *UNUSED])
