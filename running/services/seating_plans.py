"""The seating engine's block plans shared through Django's cache (scoring/seating/cache.py).

Seating one round at a time asks the engine for the same multi-round block each round; with the
cache every worker (and a restarted one) reuses the block the first round searched.
"""

from __future__ import annotations

from django.core.cache import cache

from scoring.seating import cache as plans

TIMEOUT = 3 * 24 * 3600  # a tournament's rounds are seated over a few days


class SharedPlans:
    """`scoring.seating.cache.PlanStore` over the default cache."""

    def get(self, key: str) -> object:
        return cache.get(key)

    def set(self, key: str, value: object) -> None:
        cache.set(key, value, TIMEOUT)


def install() -> None:
    plans.use_store(SharedPlans())
