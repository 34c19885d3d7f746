"""The readers that ``settle`` does not serve (a player's private page, a results document's build) read the model of
the version they loaded through the same build lock (``model_cache.newest``): while another request builds it they
wait for that model instead of building the same one beside it (after a seating is published every player opens
their page at once), never for longer than ``SHARED_WAIT_SECONDS``, and never are they shown the version before."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from entries.models import Entry
from entries.services import registering
from paper import builds as documents
from public import model_cache
from public import snapshot as snapshots
from public.versioning import bump
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def built(monkeypatch: Any) -> list[bool]:
    """The models built while the test runs (``Snapshot.build``), each with whether the build lock was held."""
    made: list[bool] = []
    real = snapshots.Snapshot.build

    def counted(self: snapshots.Snapshot) -> Any:
        made.append(bool(cache.get(model_cache.building_lock(self.tournament))))
        return real(self)

    monkeypatch.setattr(snapshots.Snapshot, "build", counted)
    return made


def another_worker_builds(tournament: Tournament, monkeypatch: Any, lets_go: bool = True) -> list[float]:
    """Holds the build lock as another worker would, and shares its model when this request first waits (then lets
    the lock go, or not yet): the waits (``time.sleep`` in ``public.model_cache``) are returned."""
    token = model_cache.take_lock(model_cache.building_lock(tournament), 30)
    assert token is not None
    waits: list[float] = []

    def wait(seconds: float) -> None:
        if not waits:
            other = Tournament.objects.select_related("results_version").get(pk=tournament.pk)
            model_cache.model_of(other, snapshots.Snapshot(other).build)  # its model, shared
            model_cache.LOCAL_MODELS.clear()  # that was another process
            if lets_go:
                model_cache.release_lock(model_cache.building_lock(tournament), token)
        waits.append(seconds)

    monkeypatch.setattr(model_cache.time, "sleep", wait)
    return waits


def private_page(generated: Any, slug: str, ruleset: str) -> tuple[Tournament, str]:
    tournament = generated(slug, players=20, rounds=2, ruleset=ruleset, standings_hidden=False)
    bump(tournament.pk)  # as the import's commit does outside the test's transaction
    registering.ensure_entries(tournament)
    entry = Entry.objects.filter(tournament=tournament, participant__isnull=False).order_by("pk").first()
    assert entry is not None
    return tournament, f"/p/{slug}/me/{entry.token}/"


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_private_page_waits_for_the_model_another_worker_builds(
    client: Any, generated: Any, monkeypatch: Any, built: list[bool], ruleset: str,
) -> None:
    tournament, url = private_page(generated, f"newest-{ruleset}", ruleset)
    waits = another_worker_builds(tournament, monkeypatch)
    answer = client.get(url)
    assert answer.status_code == 200
    assert b"Points" in answer.content or "Очки".encode() in answer.content  # the games, read from the model
    assert len(waits) == 1 and built == [True]  # the other worker's build only; this page waited for it


def test_a_results_document_waits_for_the_model_another_worker_builds(
    generated: Any, monkeypatch: Any, built: list[bool],
) -> None:
    tournament = generated("newest-document", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    waits = another_worker_builds(tournament, monkeypatch)
    loaded = Tournament.objects.select_related("results_version").get(pk=tournament.pk)
    rows = documents.results_csv(loaded, "").decode().splitlines()
    assert len(rows) > 20  # a row per player, under the heading
    assert len(waits) == 1 and built == [True]


def test_a_build_that_never_ends_is_waited_for_at_most_the_shared_wait(
    client: Any, generated: Any, monkeypatch: Any, built: list[bool],
) -> None:
    tournament, url = private_page(generated, "newest-stuck", "fiim")
    lock = model_cache.building_lock(tournament)
    assert cache.add(lock, True, 30)  # a worker that took the lock and hangs (or died: the lock expires later)
    clock, waits = [1000.0], []

    def wait(seconds: float) -> None:  # the time passes, and the other worker's build never ends
        waits.append(seconds)
        clock[0] += seconds

    monkeypatch.setattr(model_cache.time, "sleep", wait)
    monkeypatch.setattr(model_cache.time, "monotonic", lambda: clock[0])
    assert client.get(url).status_code == 200
    waited = sum(waits)
    assert model_cache.SHARED_WAIT_SECONDS <= waited <= model_cache.SHARED_WAIT_SECONDS + 0.02  # then no longer
    assert built == [True]  # built here once the wait was over (the other's lock still held)
    assert cache.get(lock)


def test_a_model_shared_while_waiting_is_read_without_the_lock(
    client: Any, generated: Any, monkeypatch: Any, built: list[bool],
) -> None:
    """The other worker shares its model before it lets the lock go: the waiting page reads it at once."""
    tournament, url = private_page(generated, "newest-shared", "tomsk")
    waits = another_worker_builds(tournament, monkeypatch, lets_go=False)
    assert client.get(url).status_code == 200
    assert len(waits) == 1 and built == [True]  # the other's build; the lock still its own
    assert cache.get(model_cache.building_lock(tournament))


def test_a_settled_request_never_waits(client: Any, generated: Any, monkeypatch: Any, built: list[bool]) -> None:
    """The public pages and the API choose their version with ``settle``: with another worker building and nothing
    built before, they build their own at once (the API's views read the model through snapshots of their own)."""
    tournament = generated("newest-settled", players=20, rounds=2, standings_hidden=False)
    bump(tournament.pk)
    token = model_cache.take_lock(model_cache.building_lock(tournament), 30)
    assert token is not None
    waits: list[float] = []
    monkeypatch.setattr(model_cache.time, "sleep", waits.append)
    for url in ("/api/tournaments/newest-settled/standings/?stage=s1", "/p/newest-settled/standings/s1/"):
        assert client.get(url).status_code == 200, url
    assert waits == [] and len(built) == 1  # one build, beside the other's (whose lock it is)


def test_with_nobody_building_the_page_builds_under_the_lock_and_ranks_ahead(
    client: Any, generated: Any, built: list[bool], rankings: list[str],
) -> None:
    tournament, url = private_page(generated, "newest-alone", "kostroma")
    assert client.get(url).status_code == 200
    assert built == [True]  # under the lock: a settling public page meanwhile serves the version before
    assert rankings == ["s1"]  # ranked before the model was shared, once
    assert not cache.get(model_cache.building_lock(tournament))  # let go
    model_cache.LOCAL_MODELS.clear()  # another worker's public standings: the model and its ranking are there
    assert client.get(f"/p/{tournament.slug}/standings/s1/").status_code == 200
    assert built == [True] and rankings == ["s1"]
