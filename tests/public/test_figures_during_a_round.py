"""The public seating figures while a round is played, and what they cost (found by
bench/tournament_day.py: they were computed from the games with a protocol only, so a round in play
counted only its finished tables, and they were computed again, 1.5 s for 1,000 players, for every
result saved)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import transaction

from games.models import Game, GameState
from public import figures
from public.versioning import bump
from tests.public.test_seating_figures import organizer_figures, shown

pytestmark = pytest.mark.django_db


def test_a_round_in_play_counts_every_seated_table(client: Any, generated: Any) -> None:
    generated("fig", players=40, rounds=3, standings_hidden=False)
    in_play = Game.objects.filter(table__round__stage__ext_id="s1", table__round__number=3)
    in_play.filter(table__number=1).update(state=GameState.SUBMITTED)  # one table has handed its protocol in
    in_play.exclude(table__number=1).update(state=GameState.DRAFT)  # the others are playing
    html = client.get("/p/fig/seating/s1/3/").content.decode()
    assert "Figures over 3 rounds of the stage" in html
    assert shown(html) == organizer_figures("s1", 3)


def test_a_saved_result_does_not_compute_them_again(client: Any, generated: Any, monkeypatch: Any,
                                                    django_capture_on_commit_callbacks: Any) -> None:
    tournament = generated("fig", players=40, rounds=3, standings_hidden=False)
    bump(tournament.pk)
    computed = []
    monkeypatch.setattr(figures, "report", lambda *a, **k: computed.append(1) or figures_report(*a, **k))
    first = client.get("/p/fig/seating/s1/3/")
    game = Game.objects.filter(table__round__stage__ext_id="s1", table__round__number=3).first()
    assert game is not None
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        game.winner = "black" if game.winner == "red" else "red"
        game.save()
    second = client.get("/p/fig/seating/s1/3/")
    assert second["ETag"] != first["ETag"]  # the page was built again for the new version
    assert shown(second.content.decode()) == shown(first.content.decode())
    assert len(computed) == 1  # the figures of the same seating were not


def figures_report(*args: Any, **kwargs: Any) -> Any:
    from scoring.seating import report

    return report(*args, **kwargs)
