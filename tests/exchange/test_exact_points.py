"""Points no decimal writes (a penalty of 1/15, extra points in steps of 1/3) are kept exact by the web app as
by the file and ``scoring``: imported, stored (``tournaments.fields.ExactNumberField``), exported
back as the same fraction strings, scored by the API as the command line scores the file, and saved from a
protocol; a column converted from the old 6-place decimals reads the same numbers."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.test import Client

from exchange.files import export_data, import_text
from games.models import Game, GameSeat
from scoring import fileio
from scoring.standings import compute_standings, standings_json
from tests.helpers import played_file
from tournaments.fields import ExactNumberField, exact_text
from tournaments.models import Penalty

pytestmark = pytest.mark.django_db


def thirds_file() -> dict[str, Any]:
    """A fiim file whose judges give extra points in thirds and whose round 1 has a penalty of 1/15."""
    data = played_file(10, 2)
    data["params"] = {"extra_values_winner": {"min": 0, "max": 1, "step": "1/3"},
                      "extra_values_loser": {"min": 0, "max": 1, "step": "1/3"}}
    for round_ in data["stages"][0]["rounds"]:  # the generated halves are no thirds: none but those set here
        for played in round_["games"]:
            for seat in played["seats"]:
                seat.pop("extra", None)
    game = data["stages"][0]["rounds"][0]["games"][0]
    game["seats"][0]["extra"] = "1/3"
    game["seats"][1]["extra"] = "2/3"
    data["stages"][0]["rounds"][0]["penalties"] = [{"player": game["seats"][2]["player"], "points": "-1/15",
                                                    "reason": "телефон"}]
    return data


def test_fractions_are_imported_stored_and_exported_exactly(client: Client) -> None:
    data = thirds_file()
    tournament = import_text(json.dumps(data), slug="thirds")
    seats = GameSeat.objects.filter(game__table__round__stage__tournament=tournament, seat__number__in=[1, 2],
                                    game__table__round__number=1)
    assert sorted(seat.extra for seat in seats) == [Fraction(1, 3), Fraction(2, 3)]
    penalty = Penalty.objects.get(round__stage__tournament=tournament)
    assert penalty.points == Fraction(-1, 15)
    assert Penalty.objects.filter(pk=penalty.pk).values_list("points", flat=True).get() == Fraction(-1, 15)
    exported = export_data(tournament)
    assert exported == fileio.dump(fileio.load(data))  # the same file back: "1/3", "2/3", "-1/15"
    game = exported["stages"][0]["rounds"][0]["games"][0]
    assert [game["seats"][0]["extra"], game["seats"][1]["extra"]] == ["1/3", "2/3"]
    assert exported["stages"][0]["rounds"][0]["penalties"][0]["points"] == "-1/15"
    tournament.standings_hidden = False
    tournament.save()
    got = client.get("/api/tournaments/thirds/standings/?stage=qualifying").json()
    assert got == standings_json(compute_standings(fileio.loads(json.dumps(data)), "qualifying"))


def test_a_protocol_saves_a_third_exactly(organizer: Any) -> None:
    from games.history import protocol_history
    from games.permissions import Staff
    from games.services import protocol as service

    tournament = import_text(json.dumps(thirds_file()), slug="thirds-protocol", organizers=[organizer])
    game = Game.objects.filter(table__round__stage__tournament=tournament).order_by("table__number").first()
    game = service.reopen(game, Staff(organizer=True, chief=True), organizer, game.version, "исправление")

    def thirds(facts: Any) -> None:  # thirds are allowed to a winner and a loser alike here
        for seat in facts.seats:
            seat.extra = Fraction(0)
        facts.seats[4].extra = Fraction(2, 3)

    game = service.change(game, organizer, game.version, thirds)
    extras = [seat.extra for seat in GameSeat.objects.filter(game=game).order_by("seat__number")]
    assert sorted(extras)[-1] == Fraction(2, 3) and sorted(extras)[:-1] == [0] * 9
    texts = [line for entry in protocol_history(game) for line in entry.what]
    assert any("2/3" in line for line in texts), texts  # exact, as the pages write points
    assert not any(".000000" in line or "666667" in line for line in texts)


@pytest.mark.parametrize(("stored", "number"), [
    ("0.500000", Fraction(1, 2)), ("-3.000000", Fraction(-3)), ("1", Fraction(1)), ("0.25", Fraction(1, 4)),
    ("-1/15", Fraction(-1, 15)),
])
def test_a_converted_decimal_column_reads_the_same_numbers(stored: str, number: Fraction) -> None:
    field = ExactNumberField()
    assert field.from_db_value(stored, None, None) == number


@pytest.mark.parametrize(("value", "text"), [
    (Fraction(1, 2), "0.5"), (Fraction(-3), "-3"), (Fraction(1, 15), "1/15"), (Decimal("2.500000"), "2.5"),
    (Fraction(1, 8), "0.125"), (0, "0"), ("0,5".replace(",", "."), "0.5"),
])
def test_values_are_stored_in_their_shortest_exact_text(value: Any, text: str) -> None:
    assert ExactNumberField().get_prep_value(value) == text
    assert exact_text(Fraction(value)) == text
