"""A new results version's builds run with Python's cyclic collector paused (``base.collector``): the model read from
the rows or from another worker's copy, the stage ranked, the figures shared between workers. It walked the objects
they made again and again while they were made: more than half of the CPU a new version cost a public worker
(bench/README.md "The collector")."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from exchange import reading
from public import kept_model, model_cache
from public import snapshot as snapshots
from public.model_cache import LOCAL_MODELS
from public.versioning import bump

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_new_version_is_built_and_ranked_with_the_collector_paused(
    client: Any, generated: Any, monkeypatch: Any, ruleset: str,
) -> None:
    slug = f"paused-{ruleset}"
    tournament = generated(slug, players=30, rounds=3, ruleset=ruleset, standings_hidden=False)
    bump(tournament.pk)
    seen: dict[str, list[bool]] = {"convert": [], "read back": [], "rank": []}

    def watched(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen[name].append(gc.isenabled())
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(reading, "convert_games", watched("convert", reading.convert_games))
    monkeypatch.setattr(kept_model.KeptModel, "read", watched("read back", kept_model.KeptModel.read))
    monkeypatch.setattr(snapshots, "compute_standings", watched("rank", snapshots.compute_standings))
    reading.CONVERTED.clear()
    LOCAL_MODELS.clear()
    player = tournament.participants.order_by("ext_id").first().ext_id
    for url in (f"/p/{slug}/standings/s1/", f"/p/{slug}/players/{player}/"):
        assert client.get(url).status_code == 200
        assert gc.isenabled()  # on again between requests
    LOCAL_MODELS.clear()  # another worker: reads the kept model back
    assert client.get(f"/p/{slug}/players/{player}/").status_code == 200
    assert seen["convert"] and seen["read back"] and seen["rank"]
    assert not any(seen["convert"] + seen["read back"] + seen["rank"]), seen
    assert gc.isenabled()


def test_the_staff_pages_model_is_read_with_the_collector_paused(generated: Any, monkeypatch: Any) -> None:
    """The organizer's and the chief judge's pages read the model through ``to_model`` outside the public cache."""
    tournament = generated("paused-staff", players=20, rounds=2)
    seen: list[bool] = []
    real = reading.convert_games
    monkeypatch.setattr(reading, "convert_games", lambda *args: (seen.append(gc.isenabled()), real(*args))[1])
    reading.CONVERTED.clear()
    assert reading.to_model(tournament).stages
    assert seen == [False]
    assert gc.isenabled()


def test_figures_are_computed_and_read_with_the_collector_paused(generated: Any) -> None:
    """``derived`` and ``shared`` pause it themselves: a page's own figures (the "why am I ranked here" standings,
    "what do I need") are computed outside the model's build."""
    tournament = generated("paused-figures", players=20, rounds=2)
    bump(tournament.pk)
    tournament.refresh_from_db()
    local = model_cache.model_of(tournament, lambda: reading.to_model(tournament))
    assert model_cache.derived(local, "collector-derived", gc.isenabled) is False
    assert model_cache.shared(tournament, local, "collector-shared", gc.isenabled) is False
    LOCAL_MODELS.clear()
    again = model_cache.model_of(tournament, lambda: reading.to_model(tournament))
    assert model_cache.shared(tournament, again, "collector-shared", lambda: True) is False  # read, not computed
    assert gc.isenabled()
