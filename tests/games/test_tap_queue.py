"""The phone's queue of taps sent as one batch (``taps``): applied in the order made, each version-checked on the
version the tap before it left; a tap the rules refuse is skipped as it would be alone; a batch made on a version
another device has since changed is refused whole; bad batches are refused with nothing saved."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import Game
from games.services import protocol as service
from tests.games.test_table_screen import HTMX, Screen

pytestmark = pytest.mark.django_db


def batch(screen: Screen, taps: list[dict[str, Any]], first_version: int | None = None) -> tuple[int, str]:
    version = screen.game.version if first_version is None else first_version
    items = [{**tap, "version": str(version) if i == 0 else ""} for i, tap in enumerate(taps)]
    response = screen.client.post(screen.url, {"taps": json.dumps(items)}, **HTMX)
    return response.status_code, response.content.decode()


def refused_of(page: str) -> list[list[Any]]:
    marker = 'data-refused="'
    if marker not in page:
        return []
    raw = page.split(marker, 1)[1].split('"', 1)[0]
    return json.loads(raw.replace("&quot;", '"').replace("&#x27;", "'").replace("&amp;", "&"))


@pytest.fixture
def screen(round_: Any, people: dict[str, Any]) -> Screen:
    return Screen(round_, people["judge"])


def test_a_batch_is_applied_in_order_each_tap_its_own_version(screen: Screen) -> None:
    before = screen.game.version
    status, page = batch(screen, [
        {"action": "foul", "seat": "3", "reason": "gestures"},
        {"action": "nominated", "seat": "5"},
        {"action": "foul", "seat": "3"},
        {"action": "phase", "value": "next"},
        {"action": "killed", "seat": "7"},
    ])
    assert status == 200 and refused_of(page) == []
    game = screen.game
    assert game.version == before + 5  # one saved change (and one history row) per tap
    seat3 = game.seats.get(seat__number=3)
    assert seat3.fouls == 2 and seat3.foul_reasons[0] == "gestures"
    assert [e["kind"] for e in game.log] == ["nominated", "killed"]
    assert game.seats.get(seat__number=7).left == "killed" and game.phase == 2
    assert game.history.count() >= 5


def test_a_refused_tap_is_skipped_and_the_next_goes_on(screen: Screen) -> None:
    before = screen.game.version
    status, page = batch(screen, [
        {"action": "killed", "seat": "2"},  # by day: refused
        {"action": "foul", "seat": "2"},
        {"action": "votes", "seat": "4", "count": "abc"},  # not a number: refused
        {"action": "voted", "seat": "4"},
    ])
    assert status == 200
    refused = refused_of(page)
    assert [index for index, _reason in refused] == [0, 2]
    assert all(reason for _index, reason in refused) and 'id="screen-error"' in page
    game = screen.game
    assert game.version == before + 2
    assert game.seats.get(seat__number=2).fouls == 1 and not game.seats.get(seat__number=2).left
    assert game.seats.get(seat__number=4).left == "voted"


def test_a_batch_made_on_a_changed_protocol_is_refused_whole(screen: Screen, people: dict[str, Any]) -> None:
    stale = screen.game.version
    game = screen.game

    def winner(facts: Any) -> None:
        facts.winner = "black"

    service.change(game, people["chief"], game.version, winner)  # another device, meanwhile
    status, page = batch(screen, [{"action": "foul", "seat": "1"}, {"action": "foul", "seat": "2"}], stale)
    assert status == 200 and [index for index, _ in refused_of(page)] == [0, 1]
    assert "data-conflict" in page
    game = Game.objects.get(pk=game.pk)
    assert game.winner == "black" and game.seats.get(seat__number=1).fouls == 0


@pytest.mark.parametrize("taps", [
    "not json", "{}", "[]", json.dumps([{"action": "roles"}]), json.dumps([{"action": "foul", "seat": "x"}]),
    json.dumps([{"action": "foul", "seat": ["1"]}]), json.dumps([{"action": "foul", "version": "v"}]),
    json.dumps([{"action": "foul", "seat": "1"}] * 201),
])
def test_a_bad_batch_is_refused_and_nothing_is_saved(screen: Screen, taps: str) -> None:
    before = screen.game.version
    response = screen.client.post(screen.url, {"taps": taps}, **HTMX)
    assert response.status_code == 400 and 'id="screen-error"' in response.content.decode()
    assert screen.game.version == before
