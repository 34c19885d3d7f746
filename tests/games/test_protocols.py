"""Game protocols: stored per table, read by the adapter, and they lock the round's seating."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import IntegrityError, transaction

from exchange.reading import to_model
from games.models import Game, GameSeat
from running.services import seating
from scoring.model import Role, Side

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_round: Any) -> Any:
    round_ = make_round("fiim", tables=1, kind="final")
    table = round_.tables.get()
    game = Game.objects.create(table=table, state="submitted", winner="black", first_killed=3, best_move=[1, 2, 4])
    roles = ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6
    for seat, role in zip(table.seats.order_by("number"), roles, strict=True):
        GameSeat.objects.create(game=game, seat=seat, role=role, extra=Decimal("1") if seat.number == 1 else 0)
    return round_


def test_the_adapter_reads_the_protocol(played: Any) -> None:
    model = to_model(played.stage.tournament)
    game = model.stages[0].rounds[0].games[0]
    assert game.winner is Side.BLACK and game.first_killed == 3 and game.best_move == (1, 2, 4)
    assert [s.role for s in game.seats][:4] == [Role.DON, Role.MAFIA, Role.MAFIA, Role.SHERIFF]
    assert game.seats[0].extra == 1


def test_one_protocol_per_table(played: Any) -> None:
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(table=played.tables.get())


def test_a_round_with_protocols_cannot_go_back_to_draft(played: Any) -> None:
    with pytest.raises(seating.SeatingError):
        seating.unpublish_round(played)
    played.refresh_from_db()
    assert played.is_published


def test_a_save_writes_the_changed_seats_and_fields_only(round_: Any, people: dict[str, Any]) -> None:
    """One UPDATE for the seats, setting only the fields some seat changed; a history row for each changed seat
    (every version stays in the history)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.services import protocol as service
    from tests.helpers import ROLES, table

    judge = people["judge"]
    game = service.open_protocol(table(round_, 1), judge)
    roles = ROLES["fiim"]

    def deal(facts: Any) -> None:
        for seat, role in zip(facts.seats, roles, strict=True):
            seat.role = role

    game = service.change(game, judge, 1, deal)
    before = GameSeat.history.count()

    def foul(facts: Any) -> None:
        facts.seat(3).foul_reasons = ["other"]

    with CaptureQueriesContext(connection) as queries:
        game = service.change(game, judge, 2, foul)
    updates = [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "games_gameseat"')]
    assert len(updates) == 1 and '"fouls"' in updates[0] and '"foul_reasons"' in updates[0]
    assert '"role"' not in updates[0] and '"extra"' not in updates[0]
    assert GameSeat.history.count() == before + 1
    seat = GameSeat.objects.get(game=game, seat__number=3)
    assert (seat.fouls, seat.foul_reasons, seat.role) == (1, ["other"], "mafia")
    assert seat.history.latest("history_id").fouls == 1
    assert list(GameSeat.objects.filter(game=game).order_by("seat__number").values_list("role", flat=True)) == roles
