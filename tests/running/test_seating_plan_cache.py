"""The app shares the seating engine's block plans through Django's cache."""

from __future__ import annotations

from running.services.seating_plans import SharedPlans
from scoring.seating import cache as plans


def test_block_plans_go_through_the_apps_cache() -> None:
    store = next(s for s in plans._shared if isinstance(s, SharedPlans))
    key = plans.digest("test", 1)
    store.set(key, [[["a", "b"], ["c", "d"]]])
    assert store.get(key) == [[["a", "b"], ["c", "d"]]]
