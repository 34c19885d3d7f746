"""Live pages: ETags answer 304 while nothing changes, a committed change of results gives a new
ETag and fresh content (the model is kept per results version: ``public.model_cache``); htmx gets the
fragment alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from games.models import Game
from tests.worlds import kept_fiim_fixtures

pytestmark = pytest.mark.django_db
# the fiim example, imported once for this module's tests (tests/worlds.py)
organizer, fiim = kept_fiim_fixtures()

SLUG = "fiim-open"
LIVE = [
    reverse("public:seating", args=[SLUG]),
    reverse("public:round_seating", args=[SLUG, "final", 4]),
    reverse("public:standings", args=[SLUG]),
    reverse("public:stage_standings", args=[SLUG, "qualifying"]),
    reverse("public:player", args=[SLUG, "p001"]),
    reverse("public:home", args=[SLUG]),
    reverse("public:where", args=[SLUG]) + "?q=p",
    f"/api/tournaments/{SLUG}/standings/",
    f"/api/tournaments/{SLUG}/rounds/final/4/seating/",
]


@pytest.mark.parametrize("url", LIVE)
def test_unchanged_page_answers_304_after_one_query(client: Any, fiim: Any, url: str,
                                                    django_assert_num_queries: Any) -> None:
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    # shared by every anonymous reader: the proxy may keep it 2 s, a browser revalidates it each time
    assert first["Cache-Control"] == "public, max-age=0, s-maxage=2, stale-while-revalidate=2"
    with django_assert_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content


def final_game() -> Game:
    return Game.objects.get(table__round__stage__ext_id="final", table__round__number=4)


def test_a_changed_result_changes_the_etag_and_the_page(client: Any, fiim: Any,
                                                        django_capture_on_commit_callbacks: Any) -> None:
    url = reverse("public:stage_standings", args=[SLUG, "final"])
    first = client.get(url)
    fragment = client.get(url, HTTP_HX_REQUEST="true").content
    game = final_game()
    flipped = "black" if game.winner == "red" else "red"
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game.winner = flipped
        game.save()
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true").content != fragment  # fresh, not the old version's
    api = client.get(f"/api/tournaments/{SLUG}/standings/?stage=final").json()
    assert client.get(url, HTTP_IF_NONE_MATCH=second["ETag"]).status_code == 304
    assert api["winners"]


def test_without_the_version_bump_the_kept_model_is_served(client: Any, fiim: Any) -> None:
    """The model kept is what makes repeated views cheap; the bump is what names a new one."""
    url = reverse("public:stage_standings", args=[SLUG, "final"])
    first = client.get(url, HTTP_HX_REQUEST="true").content
    game = final_game()
    game.winner = "black" if game.winner == "red" else "red"
    game.save()  # inside the test's transaction: no commit, no bump
    assert client.get(url, HTTP_HX_REQUEST="true").content == first


def test_publishing_a_round_bumps_the_version(client: Any, fiim: Any, organizer: Any,
                                              django_capture_on_commit_callbacks: Any) -> None:
    from running.services.seating import publish_round
    from tournaments.models import Round, RoundState

    Round.objects.filter(stage__ext_id="final", number=4).update(state=RoundState.DRAFT)
    url = reverse("public:seating", args=[SLUG])
    first = client.get(url)
    assert "final · 4" not in first.content.decode().lower()
    with django_capture_on_commit_callbacks(execute=True):
        publish_round(Round.objects.get(stage__ext_id="final", number=4), organizer)
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200
    assert reverse("public:round_seating", args=[SLUG, "final", 4]) in second.content.decode()


def test_htmx_polls_get_the_fragment_alone(client: Any, fiim: Any) -> None:
    url = reverse("public:round_seating", args=[SLUG, "final", 1])
    page = client.get(url).content.decode()
    assert f'data-hx-get="{url}"' in page and 'data-hx-trigger="every' in page and "<html" in page
    fragment = client.get(url, HTTP_HX_REQUEST="true")
    assert "<html" not in fragment.content.decode() and 'id="by-table"' in fragment.content.decode()
    assert "HX-Request" in fragment["Vary"]
    assert fragment["ETag"] != client.get(url)["ETag"]


def test_cache_keys_differ_for_a_recreated_tournament_with_the_same_id_and_version() -> None:
    """A database restored or recreated beside the same Redis repeats ids and versions; the
    creation time in every key keeps it from being served the old tournament's pages."""
    import datetime as dt
    from types import SimpleNamespace

    from public.model_cache import cache_scope

    def tournament(created: dt.datetime) -> Any:
        return SimpleNamespace(pk=1, created=created, results_version=SimpleNamespace(version=3))

    first = tournament(dt.datetime(2026, 5, 1, 10, 0, 0, 1, tzinfo=dt.UTC))
    again = tournament(dt.datetime(2026, 5, 1, 10, 0, 0, 2, tzinfo=dt.UTC))
    assert cache_scope(first) != cache_scope(again)
    assert cache_scope(first) == cache_scope(tournament(first.created))
    assert cache_scope(first).endswith(":3")


def test_a_final_with_a_table_still_in_play_is_not_over(fiim: Any) -> None:
    """The model holds only the games with a result: a final round whose last table is still in play (a protocol
    not submitted) is not finished, so no page says "Final results" while a final table plays."""
    from games.models import GameState
    from public.snapshot import Snapshot
    from public.versioning import bump
    from tournaments.models import Tournament

    bump(fiim.pk)  # as the import's commit does outside the test's transaction
    loaded = Tournament.objects.select_related("results_version").get(slug=SLUG)
    assert Snapshot(loaded).final_over
    game = final_game()
    game.state = GameState.DRAFT
    game.save()
    bump(fiim.pk)  # as sending it back to its judge does
    snapshot = Snapshot(Tournament.objects.select_related("results_version").get(slug=SLUG))
    last = snapshot.rounds[-1]
    assert last.in_play and not last.finished
    assert not snapshot.final_over and snapshot.results_title() != "Final results"
