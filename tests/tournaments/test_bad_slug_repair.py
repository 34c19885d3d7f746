"""A tournament stored with an address that is no slug (before the slug was checked) is given one by migration 0011;
meanwhile it broke the home page and ``/p/`` for everyone."""

from __future__ import annotations

import datetime as dt
from importlib import import_module
from typing import Any

import pytest
from django.apps import apps

from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_stored_bad_slugs_are_repaired(client: Any) -> None:
    for slug in ("cup.2025", "../escaped", "new\nline", "cup-2025", "!!!"):
        Tournament.objects.create(slug=slug, name=f"Cup {slug!r}", ruleset="fiim", starts=dt.date(2025, 3, 15))
    import_module("tournaments.migrations.0011_repair_bad_slugs").repair(apps, None)
    slugs = sorted(Tournament.objects.values_list("slug", flat=True))
    odd = Tournament.objects.get(name__contains="!!!").pk
    assert slugs == sorted(["cup2025", "escaped", "new-line", "cup-2025", f"tournament-{odd}"])
    assert client.get("/").status_code == 200 and client.get("/p/").status_code == 200
    assert client.get("/p/cup2025/").status_code == 200
