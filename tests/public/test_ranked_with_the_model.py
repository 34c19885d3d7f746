"""A new version's ranking is computed by the request that builds its model, before the model is shared
(``Snapshot.prepare``): the other workers serve the version before until both are ready, and none waits for another's
ranking. On a tournament day the version moves every second, and the first pages of each version in every worker
waited a few hundred milliseconds for one worker to rank a 1,000-player stage (bench/README.md "Ranked with the
model")."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from public import snapshot as snapshots
from public.model_cache import LOCAL_MODELS
from public.versioning import bump

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_model_is_shared_with_its_ranking_ready(client: Any, generated: Any, monkeypatch: Any,
                                                    rankings: list[str], ruleset: str) -> None:
    slug = f"ranked-with-{ruleset}"
    tournament = generated(slug, players=30, rounds=3, stages=2, ruleset=ruleset, standings_hidden=False)
    bump(tournament.pk)
    stored: list[str] = []
    real_set = cache.set
    monkeypatch.setattr(cache, "set", lambda key, *a, **k: (stored.append(key), real_set(key, *a, **k))[1])

    # a page that reads no ranking builds the version's model: every stage is ranked before the model is shared
    assert client.get(f"/p/{slug}/seating/s1/1/").status_code == 200
    model_at = next(i for i, key in enumerate(stored) if key.startswith("public-model:"))
    figures = [key for key in stored[:model_at] if key.startswith("public-derived:")]
    assert len(figures) == 3 * 2  # table standings, by lot and totals of both stages, all before the model
    assert not [key for key in stored[model_at:] if key.startswith("public-derived:")]
    assert sorted(rankings) == ["s1", "s2"]  # each stage once

    # another worker reads the model and the figures: it ranks no stage for the tables, the totals or the screen
    rankings.clear()
    LOCAL_MODELS.clear()
    player = tournament.participants.order_by("ext_id").first().ext_id
    for url in (f"/p/{slug}/standings/s1/", f"/p/{slug}/standings/s2/", f"/p/{slug}/players/{player}/",
                f"/api/tournaments/{slug}/standings/?stage=s2", f"/p/{slug}/screen/"):
        assert client.get(url).status_code == 200, url
    assert rankings == []


def test_hidden_standings_are_not_ranked_ahead(client: Any, generated: Any, rankings: list[str]) -> None:
    tournament = generated("ranked-hidden", players=30, rounds=2, standings_hidden=True)
    bump(tournament.pk)
    assert client.get("/p/ranked-hidden/seating/s1/1/").status_code == 200
    assert rankings == []


def test_a_ranking_that_fails_leaves_the_version_served(client: Any, generated: Any, monkeypatch: Any,
                                                        caplog: Any) -> None:
    """Ranked ahead, an error would fail every page of the version, not only those that show the ranking (as
    before): it is logged, the model is shared, and the pages that read no ranking are served."""
    tournament = generated("ranked-failing", players=30, rounds=2, standings_hidden=False)
    bump(tournament.pk)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a ranking that fails")

    monkeypatch.setattr(snapshots, "compute_standings", broken)
    assert client.get("/p/ranked-failing/seating/s1/1/").status_code == 200
    assert "not computed ahead" in caplog.text
    LOCAL_MODELS.clear()  # another worker: reads the shared model
    assert client.get("/p/ranked-failing/seating/s1/2/").status_code == 200
