"""One path from a protocol's rows to ``scoring``'s model: the standings (``exchange.reading``) and the protocol
pages build each game with the same converter (``games.services.facts``), the standings taking the protocol as
recorded; one ``to_decimal`` (for the multipliers), which refuses what it would have to round. Points are kept
exact whatever they are: tests/exchange/test_exact_points.py."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction

import pytest

from exchange.files import export_data, import_text
from exchange.reading import to_model
from games.models import Game, GameSeat
from games.services.facts import facts_of, scoring_game
from scoring import fileio
from scoring.errors import InvalidTournament
from scoring.numbers import to_decimal
from tests.helpers import played_file
from tournaments.rules import ruleset_for

pytestmark = pytest.mark.django_db


def test_the_standings_read_each_game_as_the_protocol_pages_build_it() -> None:
    tournament = import_text(json.dumps(played_file(20, 2)), slug="one-path")
    model = to_model(tournament)
    ruleset = ruleset_for(tournament)
    for game in Game.objects.filter(table__round__stage__tournament=tournament).select_related("table__round"):
        rows = list(GameSeat.objects.filter(game=game).select_related("seat__participant").order_by("seat__number"))
        facts = facts_of(game, rows, player=lambda row: row.seat.participant.ext_id)
        in_model = next(g for g in model.stage("qualifying").rounds[game.table.round.number - 1].games
                        if g.table == game.table.number)
        as_recorded = scoring_game(facts, table=game.table.number, judge=game.judge, notes=game.notes,
                                   protests=in_model.protests)
        assert as_recorded == in_model
        # the protocol page's reading of the same rows gives the same points
        live = scoring_game(facts, ruleset, table=game.table.number)
        assert [ruleset.seat_points(live, s).total for s in live.seats] == \
            [ruleset.seat_points(in_model, s).total for s in in_model.seats]


def test_a_recorded_seat_with_four_fouls_not_removed_stays_as_the_file_says() -> None:
    """A file may say 4 fouls and not removed; the standings read the protocol as recorded, not re-derived."""
    data = played_file(10, 1)
    seat = data["stages"][0]["rounds"][0]["games"][0]["seats"][0]
    seat["fouls"], seat["removed"] = 4, False
    tournament = import_text(json.dumps(data), slug="four-fouls")
    exported = export_data(tournament)
    assert exported == fileio.dump(fileio.load(data))
    first = exported["stages"][0]["rounds"][0]["games"][0]["seats"][0]
    assert first["fouls"] == 4 and not first.get("removed", False)


def test_a_value_that_would_be_rounded_is_refused_naming_its_place() -> None:
    assert to_decimal(Fraction(5, 2), "x") == Decimal("2.5")
    assert to_decimal(Fraction(1, 8), "x") == Decimal("0.125")
    with pytest.raises(InvalidTournament) as refused:
        to_decimal(Fraction(1, 3), "seat 4: extra")
    assert "seat 4: extra" in str(refused.value.problems[0])
