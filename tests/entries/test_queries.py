"""The players' pages run a number of queries that does not grow with the tournament (a 70-player fiim field
against a 20-player one); their times are printed (``-s``), not asserted: the machine running the tests is shared
(docs/players-channel.md has the figures)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from entries.models import Entry
from entries.services import registering

pytestmark = pytest.mark.django_db


def measured(client: Client, url: str) -> tuple[int, float]:
    client.get(url)  # the tournament's model is built once a version, by whichever page comes first
    with CaptureQueriesContext(connection) as queries:
        started = time.perf_counter()
        answer = client.get(url)
        took = time.perf_counter() - started
    assert answer.status_code == 200, url
    return len(queries), took


def test_the_private_page_and_the_lists_do_not_grow_with_the_field(generated: Any, organizer: Any) -> None:
    counts: dict[str, list[int]] = {}
    for players in (20, 70):
        tournament = generated(f"q{players}", players=players, rounds=2)
        registering.ensure_entries(tournament)
        entry = Entry.objects.filter(tournament=tournament).order_by("participant__number").first()
        assert entry is not None
        staff = Client()
        staff.force_login(organizer)
        for name, client, url in (
                ("me", Client(), f"/p/{tournament.slug}/me/{entry.token}/"),
                ("calendar", Client(), f"/p/{tournament.slug}/me/{entry.token}/calendar.ics"),
                ("coming", Client(), f"/p/{tournament.slug}/coming/"),
                ("registration", staff, f"/t/{tournament.slug}/registration/")):
            queries, took = measured(client, url)
            counts.setdefault(name, []).append(queries)
            print(f"{name} {players} players: {queries} queries, {took * 1000:.0f} ms")
    for name, (small, large) in counts.items():
        assert large == small, (name, counts[name])
