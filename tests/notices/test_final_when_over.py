""""The results are final" is composed once the final's last table has its result, and every confirmation before
it costs two small queries, not the tournament's model and the ranking of its stage (``series.places.may_be_over``),
for every regulation."""

from __future__ import annotations

import json
from typing import Any
from unittest import mock

import pytest

from notices import tasks
from notices.models import Kind, Message
from series import places
from tests.helpers import example_text
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db
RULESETS = ["fiim", "kostroma", "tomsk", "zvezdy"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_final_only_when_the_last_table_has_its_result(import_file: Any, ruleset: str) -> None:
    data = json.loads(example_text(f"{ruleset}-example.json"))
    tournament = import_file(data, f"{ruleset}-final-notice")
    last_round = Round.objects.filter(stage__tournament=tournament).order_by("-stage__order", "-number").first()
    assert last_round is not None
    game = last_round.tables.get(number=1).game
    seated = set(Seat.objects.filter(round=last_round).values_list("participant_id", flat=True))
    others = [p for p in tournament.participants.order_by("number") if p.pk not in seated][:10]
    in_play = Table.objects.create(round=last_round, number=2)
    Seat.objects.bulk_create(Seat(table=in_play, round=last_round, number=number, participant=participant)
                             for number, participant in enumerate(others, start=1))

    with mock.patch.object(places, "read_places", side_effect=AssertionError("the model was read")):
        assert tasks.game_confirmed.call(game.pk) == 0  # table 1 confirmed, table 2 still in play
    assert not Message.objects.filter(tournament=tournament, kind=Kind.FINAL).exists()

    in_play.delete()  # its players sent elsewhere: the final's last table is the one with its result
    with mock.patch.object(places, "read_places", wraps=places.read_places) as read:
        tasks.game_confirmed.call(game.pk)
    assert read.call_count == 1
    assert Message.objects.filter(tournament=tournament, kind=Kind.FINAL).exists()
