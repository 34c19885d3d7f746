"""The test worlds' own promises (tests/worlds.py): a kept world is the same for every test of its module whatever
the tests before did to it, in the database and in memory; quiet saves switch their side effects off for their
block only, and everything is connected again after it, even when the block fails. Pages rendered without the
test runner's record of their templates (tests/helpers.py) are the same pages, and the record is back after."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, transaction

from tests.conftest import new_user
from tests.helpers import templates_unrecorded
from tests.worlds import fresh, kept_world, quiet_saves

pytestmark = pytest.mark.django_db


def build() -> dict[str, Any]:
    from tournaments.models import Tournament

    user = new_user("kept-world-owner")
    tournament = Tournament.objects.create(slug="kept-world", name="Kept", ruleset="fiim", city="Москва",
                                           starts=dt.date(2025, 3, 15), ends=dt.date(2025, 3, 16))
    tournament.organizers.add(user)
    return {"tournament": tournament, "user": user}


@pytest.fixture(scope="module")
def kept(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    with kept_world(django_db_blocker) as run:
        yield run(build)


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_each_test_starts_from_the_world_as_built(kept: dict[str, Any], turn: int) -> None:
    """Three tests change the world; whichever runs later finds it as it was built."""
    from tournaments.models import Tournament

    world = fresh(kept)
    tournament = world["tournament"]
    assert tournament.name == "Kept"  # in memory: the copy, not an object an earlier test changed
    assert Tournament.objects.get(slug="kept-world").name == "Kept"  # in the database: rolled back
    assert list(tournament.organizers.all()) == [world["user"]]
    tournament.name = f"changed by test {turn}"
    tournament.save()
    Tournament.objects.create(slug=f"extra-{turn}", name="Extra", ruleset="fiim", city="Москва",
                              starts=dt.date(2025, 3, 15), ends=dt.date(2025, 3, 16))
    assert Tournament.objects.filter(slug__startswith="extra-").count() == 1


def game_of_a_round(make_round: Any) -> Any:
    from games.models import Game

    round_ = make_round("fiim", tables=1)
    return Game.objects.create(table=round_.tables.get(number=1))


def registered_callbacks() -> int:
    return len(connection.run_on_commit)


def save_in_a_savepoint(game: Any) -> None:
    """A save in a savepoint of its own: the reactions gather a transaction's saves per savepoint level, one
    commit callback each (``base.after_commit.Collector``), so a save at a new level registers theirs anew."""
    with transaction.atomic():
        game.save()


def test_quiet_saves_write_no_history_and_register_nothing_then_all_comes_back(make_round: Any) -> None:
    game = game_of_a_round(make_round)
    game.sent_back_comment = "loud"
    before = registered_callbacks()
    history = game.history.count()
    save_in_a_savepoint(game)
    assert game.history.count() == history + 1  # a history row
    assert registered_callbacks() > before  # the version, the rating's trigger, the overlay wait for the commit

    with quiet_saves():
        before, history = registered_callbacks(), game.history.count()
        game.sent_back_comment = "quiet"
        save_in_a_savepoint(game)
        assert game.history.count() == history
        assert registered_callbacks() == before

    before, history = registered_callbacks(), game.history.count()
    game.sent_back_comment = "loud again"
    save_in_a_savepoint(game)
    assert game.history.count() == history + 1
    assert registered_callbacks() > before


def test_quiet_saves_are_undone_when_the_block_fails(make_round: Any) -> None:
    game = game_of_a_round(make_round)
    with pytest.raises(RuntimeError), quiet_saves():
        raise RuntimeError("a builder failed")
    history = game.history.count()
    game.sent_back_comment = "after the failure"
    game.save()
    assert game.history.count() == history + 1


def test_quiet_saves_one_at_a_time(make_round: Any) -> None:
    """Only what is asked is switched off: history kept, the rest quiet."""
    game = game_of_a_round(make_round)
    with quiet_saves(history=False):
        history = game.history.count()
        game.sent_back_comment = "history only"
        game.save()
        assert game.history.count() == history + 1


@pytest.mark.templates_recorded  # recorded outside the block, to compare
def test_pages_rendered_unrecorded_are_the_same_and_the_record_comes_back(client: Any) -> None:
    def page(response: Any) -> bytes:
        return re.sub(rb"[A-Za-z0-9]{64}", b"", response.content)  # the CSRF tokens, new in every answer

    recorded = client.get("/accounts/login/")
    with templates_unrecorded():
        plain = client.get("/accounts/login/")
    again = client.get("/accounts/login/")
    assert plain.status_code == recorded.status_code == 200
    assert page(plain) == page(recorded)
    assert plain.templates == [] and recorded.templates and again.templates
