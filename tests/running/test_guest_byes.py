"""Guests never take a seat from a registered player (tomsk 4.1): the byes of a round go to the guests first,
in the web app's seating and in ``python -m scoring seat`` alike."""

from __future__ import annotations

import pytest

from exchange.files import import_text
from running.services.planning import generate_next_round
from scoring import fileio
from scoring.generate import generate
from scoring.model import SeatingMethod
from scoring.round_planning import plan_rounds

pytestmark = pytest.mark.django_db


def tomsk_file(players: int, guests: int) -> str:
    """A tomsk tournament with ``guests`` guests registered last and no round played yet."""
    played = generate("tomsk", players=players, rounds=1, seed=3, guests=guests)
    data = fileio.dump(played)
    for stage in data["stages"]:
        stage["rounds"] = []
    return fileio.dumps(fileio.load(data))


@pytest.mark.parametrize("method", ["random", "balanced"])
def test_the_web_seating_gives_the_byes_to_the_guests(method: str) -> None:
    tournament = import_text(tomsk_file(38, 2), slug=f"guests-{method}")  # 3 tables of 12, 2 byes
    stage = tournament.stages.order_by("order").first()
    assert stage is not None
    round_ = generate_next_round(stage, method=method)
    guests = set(tournament.participants.filter(guest=True).values_list("ext_id", flat=True))
    assert len(guests) == 2
    assert set(round_.byes.values_list("participant__ext_id", flat=True)) == guests
    assert not round_.seats.filter(participant__guest=True).exists()


def test_the_command_line_seating_gives_the_byes_to_the_guests() -> None:
    model = fileio.loads(tomsk_file(38, 2))
    block = plan_rounds(model, model.stages[0].id, SeatingMethod.RANDOM, rounds=2)
    guests = {p.id for p in model.players if p.guest}
    assert [set(r.byes) for r in block.rounds] == [guests, guests]
