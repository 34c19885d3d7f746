"""Protocol fixtures (tests/games, tests/web): a published round; organizer, chief judge, judges."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from games.services import staff
from tournaments.models import Round, RoundState, Seat, Stage, Table

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

ROLES = {
    "fiim": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "kostroma": ["don", "mafia", "mafia", "sheriff", "doctor"] + ["civilian"] * 5,
    "zvezdy": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "tomsk": ["mafia", "mafia", "mafia", "maniac", "sheriff", "doctor"] + ["civilian"] * 6,
}


@pytest.fixture
def make_round(make_tournament: Any, add_participants: Any) -> Any:
    def make(ruleset: str = "fiim", tables: int = 2, kind: str = "qualifying") -> Any:
        tournament = make_tournament(ruleset)
        size = 12 if ruleset == "tomsk" else 10
        players = add_participants(tournament, size * tables)
        stage = Stage.objects.create(tournament=tournament, ext_id="q", kind=kind, order=1)
        round_ = Round.objects.create(stage=stage, number=1, seating="random", state=RoundState.PUBLISHED)
        for t in range(tables):
            row = Table.objects.create(round=round_, number=t + 1)
            Seat.objects.bulk_create(
                Seat(table=row, round=round_, number=n + 1, participant=players[t * size + n]) for n in range(size)
            )
        return round_

    return make


@pytest.fixture
def round_(make_round: Any) -> Any:
    return make_round("fiim")


@pytest.fixture
def people(round_: Any, make_user: Callable[..., User]) -> dict[str, Any]:
    """Users by role; the judge hosts table 1 of the round, the other judge table 2 of the stage."""
    tournament = round_.stage.tournament
    chief, judge, other = make_user("chief"), make_user("judge"), make_user("other")
    staff.add_judge(tournament, chief, chief=True)
    j = staff.add_judge(tournament, judge)
    o = staff.add_judge(tournament, other)
    staff.assign(j, round_.stage, round_, 1)
    staff.assign(o, round_.stage, None, 2)
    return {"chief": chief, "judge": judge, "other": other, "organizer": tournament.organizers.get()}


def table(round_: Any, number: int) -> Any:
    return round_.tables.get(number=number)
