"""``to_model`` converts a game again only when a row it is made from changed (``exchange.reading.ConvertedGames``):
a game's seat, its protest, a seated participant's id in the file, the game itself; the model with the kept games is
equal to one converted from scratch after each change, for the four regulations' examples, and the games nothing
touched are the very objects converted before (and only they)."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest
from django.db import connection

from exchange.reading import CONVERTED, to_model
from games.models import Game, GameSeat, Protest
from scoring import model as m
from tests.helpers import example_text
from tournaments.models import Participant, Tournament

pytestmark = pytest.mark.django_db
RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


def games_of(model: m.Tournament) -> dict[tuple[str, int, int], m.Game]:
    return {(stage.id, r.number, g.table): g for stage in model.stages for r in stage.rounds for g in r.games}


def from_scratch(tournament: Tournament) -> m.Tournament:
    CONVERTED.clear()
    return to_model(tournament)


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="the games' digests are PostgreSQL's (on SQLite every game is converted again)")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_only_the_changed_game_converted_again(import_file: Any, ruleset: str) -> None:
    tournament = import_file(json.loads(example_text(f"{ruleset}-example.json")), f"{ruleset}-converted")
    first = from_scratch(tournament)
    game = Game.objects.filter(table__round__stage__tournament=tournament).order_by("id").first()
    assert game is not None
    where = (game.table.round.stage.ext_id, game.table.round.number, game.table.number)
    seat = GameSeat.objects.filter(game=game).order_by("seat__number").first()
    assert seat is not None

    changes = [
        lambda: GameSeat.objects.filter(pk=seat.pk).update(extra=Fraction(seat.extra or 0) + Fraction(1, 2)),
        lambda: Protest.objects.create(game=game, seat=seat.seat.number, text="Голосование"),
        lambda: Participant.objects.filter(pk=seat.seat.participant_id).update(ext_id="renamed-in-the-file"),
        lambda: Game.objects.filter(pk=game.pk).update(notes="Записано судьёй"),
    ]
    before = first  # the games this process holds converted
    for change in changes:
        change()
        kept = to_model(tournament)
        assert games_of(kept)[where] != games_of(before)[where]  # the change is in it
        for key, game_now in games_of(kept).items():  # only what changed converted again (a renamed player: their
            assert (game_now is games_of(before)[key]) == (game_now == games_of(before)[key]), key  # every game)
        assert all(game_now is games_of(kept)[key] for key, game_now in games_of(to_model(tournament)).items())
        before = from_scratch(tournament)
        assert kept == before  # the same model as every game converted again
