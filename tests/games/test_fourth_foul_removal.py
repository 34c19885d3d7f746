"""A removal «за четвёртый фол» is the first reason of the removals' list: a hurried judge picked it for a player with
one foul, and the protocol said so through the desk's confirmation (found walking the judge's screen). Refused now,
naming the seat and the fouls recorded, on the screen and in the full form; the 4th foul itself still removes."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import translation

from games.services import protocol as service
from tests.conftest import new_people
from tests.games.test_full_protocols import Table, roles_of
from tests.helpers import table

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_removal_for_the_fourth_foul_needs_four_fouls(make_round: Any, ruleset: str) -> None:
    round_ = make_round(ruleset)
    people = new_people(round_)
    screen = Table(round_, people["judge"], roles_of(ruleset))
    screen.client.cookies["django_language"] = "ru"
    screen.tap("foul", seat=8, reason="other")
    said = screen.refused("remove", seat=8, removal="fouls4")
    assert "Место 8" in said and "удаление за четвёртый фол, а записан 1 фол" in said, said
    assert not screen.game.seats.get(seat__number=8).removed
    screen.tap("remove", seat=8, removal="other")  # the reason the judge meant
    assert screen.game.seats.get(seat__number=8).removal_reason == "other"

    def fourth_for_two(facts: Any) -> None:  # the full form and the API change the facts the same way
        facts.seats[1].left, facts.seats[1].left_number, facts.seats[1].removal_reason = "removed", 1, "fouls4"
        facts.seats[1].foul_reasons = ["other"] * 2

    game = screen.game
    with translation.override("en"), pytest.raises(service.ProtocolRejected, match="2 fouls are recorded"):
        service.change(game, people["judge"], game.version, fourth_for_two)
    assert table(round_, 1).game.seats.get(seat__number=2).removal_reason == ""
