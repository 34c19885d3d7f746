"""The public pages in English and on a cache of their own. Their tournaments are built through the import
service by tests/conftest.py's ``import_file``, ``generated`` and ``fiim``."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(autouse=True)
def english(client: Any) -> None:
    """Pages in English unless a test asks for Russian (the site's default)."""
    client.cookies["django_language"] = "en"


@pytest.fixture(autouse=True)
def fresh_cache(settings: Any) -> Any:
    """A local-memory cache of this process, even when ``REDIS_URL`` is set: clearing a shared
    Redis would wipe other processes' keys (test_shared_cache.py tests Redis on its own keys)."""
    from django.core.cache import cache

    from public.model_cache import LOCAL_MODELS

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "public-tests"}}
    cache.clear()
    LOCAL_MODELS.clear()  # this process's models go with the cache, as in a new process
    yield
    cache.clear()
    LOCAL_MODELS.clear()


@pytest.fixture
def rankings(monkeypatch: Any) -> list[str]:
    """The stages the public pages rank (``public.snapshot``'s ``compute_standings``), in order, while the test
    runs: what the tests of "ranked once per version" count."""
    from public import snapshot

    ranked: list[str] = []
    real = snapshot.compute_standings

    def counted(model: Any, stage: str, *args: Any, **kwargs: Any) -> Any:
        ranked.append(stage)
        return real(model, stage, *args, **kwargs)

    monkeypatch.setattr(snapshot, "compute_standings", counted)
    return ranked
