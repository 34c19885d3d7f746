"""The backups' tournament day, shared by the backup tests (built through the app's services)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from exchange.files import import_text
from tests.deploy.backup_day import EXAMPLES, SLUG, build_day

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

    from tournaments.models import Tournament


@pytest.fixture
def day(organizer: Any, make_user: Callable[..., User]) -> dict[str, Tournament]:
    tournaments = {SLUG: build_day(organizer, make_user)}
    for path in sorted(EXAMPLES.glob("*.json")):
        tournaments[path.stem] = import_text(path.read_text(encoding="utf-8"), slug=path.stem, organizers=[organizer])
    return tournaments
