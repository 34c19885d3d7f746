"""The players' channel (entries/): pages in English unless a test asks for Russian, on a cache of their own."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def english(client: Any) -> None:
    client.cookies["django_language"] = "en"


@pytest.fixture(autouse=True)
def fresh_cache(settings: Any) -> Any:
    """A local-memory cache: the registration's rate limit counts per test, and clearing a shared Redis would wipe
    other processes' keys."""
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "entries-tests"}}
    cache.clear()
    yield
    cache.clear()
