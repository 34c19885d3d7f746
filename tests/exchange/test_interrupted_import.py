"""An import interrupted half-way leaves nothing: the tournament, players, stages and the first
round are written when the second round's game fails, by an exception or by the database connection
being killed under it. Committed-data tests (``transaction=True``), so a rollback is a real one."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import OperationalError, connection
from django.db.utils import InterfaceError

from exchange import writing
from exchange.files import import_text
from games.models import Game
from tests.helpers import played_file
from tournaments.models import Participant, Player, Round, Seat, Stage, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

TEXT = json.dumps(played_file(20, 3))


def nothing_saved() -> bool:
    return not any(model.objects.exists() for model in (Tournament, Player, Participant, Stage, Round, Seat, Game))


def interrupt_at_game(monkeypatch: Any, number: int, interruption: Any) -> list[int]:
    """Lets ``number - 1`` games be saved, then runs ``interruption`` instead of the next one."""
    saved: list[int] = []
    original = writing.save_game

    def save_game(*args: Any, **kwargs: Any) -> None:
        if len(saved) == number - 1:
            interruption()
        original(*args, **kwargs)
        saved.append(1)

    monkeypatch.setattr(writing, "save_game", save_game)
    return saved


class Interrupted(Exception):
    pass


def test_an_error_half_way_leaves_nothing(monkeypatch: Any) -> None:
    def fail() -> None:
        raise Interrupted

    saved = interrupt_at_game(monkeypatch, 4, fail)
    with pytest.raises(Interrupted):
        import_text(TEXT)
    assert len(saved) == 3  # the first round's games were written when it broke
    assert nothing_saved()


def test_ctrl_c_half_way_leaves_nothing(monkeypatch: Any) -> None:
    def interrupt() -> None:
        raise KeyboardInterrupt

    interrupt_at_game(monkeypatch, 3, interrupt)
    with pytest.raises(KeyboardInterrupt):
        import_text(TEXT)
    assert nothing_saved()


@pytest.mark.skipif(connection.vendor != "postgresql", reason="kills a PostgreSQL backend")
def test_the_connection_killed_half_way_leaves_nothing(monkeypatch: Any) -> None:
    def kill_my_backend() -> None:
        import psycopg2

        pid = connection.connection.info.backend_pid  # the import's transaction is open on this connection

        params = connection.get_connection_params()
        other = psycopg2.connect(**params)
        other.autocommit = True
        with other.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        other.close()

    interrupt_at_game(monkeypatch, 4, kill_my_backend)
    with pytest.raises((OperationalError, InterfaceError)):
        import_text(TEXT)
    connection.close()  # the next query connects again
    assert nothing_saved()
    # and the app carries on: the same file imports whole on the new connection
    monkeypatch.undo()
    tournament = import_text(TEXT)
    assert Round.objects.filter(stage__tournament=tournament).count() == 3
