"""A new results version is ranked once, whichever worker reads it first: the standings tables, the hall screen, the
API and the players' totals read the stage's standings without the tallies' seats from the shared cache
(``Snapshot.table_standings``), and a worker that finds another ranking the stage waits for its result
(``model_cache.computed_once``). On a tournament day the version moves every second or so and the public pool has
three workers: each ranked a 1,000-player stage again for its first page of every version (0.35 s each)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from django.core.cache import cache

from public import model_cache
from public import snapshot as snapshots
from public.model_cache import LOCAL_MODELS, computed_once, take_lock
from public.versioning import bump
from tests.helpers import flip_a_result

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_three_workers_rank_a_version_once(client: Any, generated: Any, rankings: list[str], ruleset: str,
                                           django_capture_on_commit_callbacks: Any) -> None:
    slug = f"ranked-once-{ruleset}"
    tournament = generated(slug, players=30, rounds=3, ruleset=ruleset, standings_hidden=False)
    bump(tournament.pk)
    ranked = rankings
    player = tournament.participants.order_by("ext_id").first().ext_id
    pages = [(f"/p/{slug}/standings/s1/", {}), (f"/p/{slug}/standings/s1/", {"HTTP_HX_REQUEST": "true"}),
             (f"/p/{slug}/players/{player}/", {}), (f"/p/{slug}/screen/", {}),
             (f"/api/tournaments/{slug}/standings/?stage=s1", {}), (f"/api/tournaments/{slug}/standings/", {})]

    def read_as_three_workers() -> list[bytes]:
        seen = []
        for _worker in range(3):
            LOCAL_MODELS.clear()  # another process: nothing of its own computed yet, the shared cache as it is
            for url, headers in pages:
                response = client.get(url, **headers)
                assert response.status_code == 200, url
                seen.append(response.content)
        return seen

    first = read_as_three_workers()
    assert ranked == ["s1"]  # once for the three, for every page
    assert first[:len(pages)] == first[len(pages):2 * len(pages)]  # every worker answers the same
    flip_a_result(tournament, django_capture_on_commit_callbacks)
    ranked.clear()
    second = read_as_three_workers()
    assert ranked == ["s1"]  # the new version: once again
    assert second[0] != first[0]  # and it shows the new result


def test_a_worker_waits_for_the_figures_another_is_computing() -> None:
    key = "test-ranked-once:waits"
    cache.delete(key)
    assert take_lock(f"{key}:computing", 30)  # another worker is computing

    def other_worker_finishes() -> None:
        time.sleep(0.1)
        cache.set(key, {"p01": 1}, 60)

    threading.Thread(target=other_worker_finishes).start()
    assert computed_once(key, lambda: pytest.fail("computed twice")) == {"p01": 1}


def test_a_worker_computes_the_figures_itself_when_the_other_takes_too_long(monkeypatch: Any) -> None:
    key = "test-ranked-once:gone"
    cache.delete(key)
    assert take_lock(f"{key}:computing", 30)  # held by a worker that crashed
    monkeypatch.setattr(model_cache, "SHARED_WAIT_SECONDS", 0.1)
    started = time.monotonic()
    assert computed_once(key, lambda: {"p02": 2}) == {"p02": 2}
    assert time.monotonic() - started < 5


def test_the_players_pages_of_a_version_share_its_scoring(client: Any, import_file: Any, monkeypatch: Any) -> None:
    """fiim's Ci (where the tournament gives it) counts each player's first kills over every game of the stage:
    counted once per version and process for all the players' pages, not once per page."""
    from scoring import fileio
    from scoring.generate import generate
    from scoring.tally import StageScoring

    data = fileio.dump(generate("fiim", players=30, rounds=3, seed=7))
    data["tournament"] = {"name": "Scored once", "standings_hidden": False}
    data["params"] = {"ci_rate": 0.4}
    tournament = import_file(data, "scored-once")
    bump(tournament.pk)
    counted: list[str] = []
    real = StageScoring.first_kills

    def first_kills(self: StageScoring, stage: Any) -> Any:
        if stage.id not in self._first_kills:
            counted.append(stage.id)
        return real(self, stage)

    monkeypatch.setattr(StageScoring, "first_kills", first_kills)
    players = list(tournament.participants.order_by("ext_id").values_list("ext_id", flat=True)[:5])
    assert client.get(f"/p/scored-once/players/{players[0]}/").status_code == 200
    first = len(counted)  # the ranking's own and the page's scoring
    assert first
    for player in players[1:]:
        assert client.get(f"/p/scored-once/players/{player}/").status_code == 200
    assert len(counted) == first  # no page after the first counts them again


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
@pytest.mark.parametrize("moment", ["done", "live"])
def test_the_standings_score_the_awards_only_once_they_are_shown(client: Any, import_file: Any, monkeypatch: Any,
                                                                 ruleset: str, moment: str) -> None:
    """The awards' candidates read tallies that score every seat of the tournament: the standings page computes them
    only once the results are final (when it shows the awards), not with the final's last round in play."""
    from public.snapshot import Snapshot
    from tests.site.page_matrix_world import source_data, with_round_in_play

    data = source_data("example", ruleset)
    if moment == "live":
        data, _in_play = with_round_in_play(data)
    tournament = import_file(data, "awards-shown", standings_hidden=False)
    tallied: list[int] = []
    real = snapshots.award_tallies
    monkeypatch.setattr(snapshots, "award_tallies", lambda model: tallied.append(1) or real(model))
    final = Snapshot(tournament).final_over
    assert final == (moment == "done")
    page = client.get("/p/awards-shown/standings/").content.decode()
    assert bool(tallied) == final
    assert ('id="awards"' in page) == (final and bool(Snapshot(tournament).awards))
