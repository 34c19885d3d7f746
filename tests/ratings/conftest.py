"""The rated season (tests/conftest.py's ``import_season``: the four examples, one a month) imported once per
module and kept (tests/worlds.py): importing and rating it took a second or more before every test here. The
``organizer`` of these tests is the season's, as when both fixtures were built for each test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import import_season, new_user
from tests.worlds import fresh, kept_world


def build_season() -> dict[str, Any]:
    organizer = new_user("director", can_create=True)
    return {"organizer": organizer, "season": import_season(organizer)}


@pytest.fixture(scope="module")
def kept_season(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    with kept_world(django_db_blocker) as build:
        yield build(build_season, run_commit_callbacks=True)  # rated on import, as the commit would


@pytest.fixture
def organizer(kept_season: dict[str, Any], db: Any) -> Any:
    return fresh(kept_season["organizer"])


@pytest.fixture
def season(kept_season: dict[str, Any], db: Any) -> list[Any]:
    return list(fresh(kept_season["season"]))
