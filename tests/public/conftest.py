"""Tournaments for the public pages and the API, built through the import service."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

EXAMPLES = Path("/work/shared/examples")
LOCAL = Path(__file__).resolve().parents[1] / "scoring" / "data"


def example_text(name: str) -> str:
    for folder in (LOCAL, EXAMPLES):
        if (folder / name).exists():
            return (folder / name).read_text(encoding="utf-8")
    raise FileNotFoundError(name)


@pytest.fixture(autouse=True)
def english(client: Any) -> None:
    """Pages in English unless a test asks for Russian (the site's default)."""
    client.cookies["django_language"] = "en"


@pytest.fixture(autouse=True)
def fresh_cache(settings: Any) -> Any:
    """A local-memory cache of this process, even when ``REDIS_URL`` is set: clearing a shared
    Redis would wipe other processes' keys (test_shared_cache.py tests Redis on its own keys)."""
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "public-tests"}}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def import_file(organizer: Any) -> Any:
    """Imports a tournament file (a dict or an example's name) and returns the tournament."""
    from exchange.files import import_text

    def load(source: str | dict[str, Any], slug: str, **info: Any) -> Any:
        data = json.loads(example_text(source)) if isinstance(source, str) else source
        data.setdefault("tournament", {}).update(info)
        return import_text(json.dumps(data), slug=slug, organizers=[organizer])

    return load


@pytest.fixture
def generated(import_file: Any) -> Any:
    """A generated tournament of ``players`` players and ``rounds`` rounds in ``stages`` stages."""
    from scoring import fileio
    from scoring.generate import generate

    def make(slug: str, players: int = 20, rounds: int = 2, ruleset: str = "fiim", stages: int = 1,
             **info: Any) -> Any:
        data = fileio.dump(generate(ruleset, players=players, rounds=rounds, seed=7, stages=stages))
        data["tournament"] = {"name": f"Generated {slug}", **info}
        return import_file(data, slug)

    return make


@pytest.fixture
def fiim(import_file: Any) -> Any:
    return import_file("fiim-example.json", "fiim-open")
