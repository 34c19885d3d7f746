"""A file exported in the middle of a round carries the seating of the tables still in play (the extra key
``tables_in_play``); imported into an empty database it gives the judges the same tables to record, and
exported again it is the same file. The pairs kept apart travel as ``keep_apart``. A bad entry of either is
refused with what is wrong, saving nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

from exchange.files import export_data, import_text
from games.models import Game, GameState
from games.services import protocol as service
from scoring.errors import InvalidTournament
from tests.helpers import ROLES, import_played, played_file
from tournaments.models import Round, RoundState, Seat, Table, Tournament

pytestmark = pytest.mark.django_db


def round_in_play(organizer: Any) -> Tournament:
    """30 players: round 1 played; round 2 published with table 1 submitted, table 2 a draft and table 3
    not opened yet."""
    tournament = import_played(organizer, players=30, rounds=1)
    stage = tournament.stages.get(ext_id="qualifying")
    second = Round.objects.create(stage=stage, number=2, seating="random", state=RoundState.PUBLISHED)
    people = list(tournament.participants.order_by("-number"))
    for t in range(3):
        table = Table.objects.create(round=second, number=t + 1)
        Seat.objects.bulk_create(Seat(table=table, round=second, number=n + 1, participant=people[t * 10 + n])
                                 for n in range(10))
    submitted = service.open_protocol(second.tables.get(number=1), organizer)

    def result(facts: Any) -> None:
        for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
            seat.role = role
        facts.winner = "red"

    submitted = service.change(submitted, organizer, submitted.version, result)
    service.submit(submitted, organizer, submitted.version)
    service.open_protocol(second.tables.get(number=2), organizer)  # a draft: not a result yet
    return tournament


def test_a_round_in_play_travels_and_comes_back_the_same(organizer: Any) -> None:
    tournament = round_in_play(organizer)
    data = export_data(tournament)
    in_play = data["tournament"]["tables_in_play"]
    assert [(t["stage"], t["round"], t["table"]) for t in in_play] == [("qualifying", 2, 2), ("qualifying", 2, 3)]
    second = tournament.stages.get(ext_id="qualifying").rounds.get(number=2)
    for entry in in_play:
        expected = [(s.number, s.participant.ext_id)
                    for s in second.tables.get(number=entry["table"]).seats.select_related("participant")
                    .order_by("number")]
        assert [(s["seat"], s["player"]) for s in entry["seats"]] == expected
    games = next(r for r in data["stages"][0]["rounds"] if r["number"] == 2)["games"]
    assert [g["table"] for g in games] == [1]  # the submitted one is a game of the file

    restored = import_text(json.dumps(data), slug="restored", organizers=[organizer])
    round_ = restored.stages.get(ext_id="qualifying").rounds.get(number=2)
    assert round_.state == RoundState.PUBLISHED and round_.seats.count() == 30
    assert not Game.objects.filter(table__round=round_, table__number__in=[2, 3]).exists()
    assert export_data(restored) == data
    opened = service.open_protocol(round_.tables.get(number=3), organizer)  # the judge takes it from here
    assert opened.state == GameState.DRAFT and opened.seats.count() == 10


def test_no_key_when_nothing_is_in_play(organizer: Any) -> None:
    assert "tables_in_play" not in export_data(import_played(organizer, players=20, rounds=1))["tournament"]


@pytest.mark.parametrize("entry, message", [
    ({"stage": "qualifying", "round": 9, "table": 1, "seats": [{"seat": 1, "player": "p001"}]}, "no such round"),
    ({"stage": "qualifying", "round": 1, "table": 1, "seats": [{"seat": 1, "player": "p001"}]}, "listed twice"),
    ({"stage": "qualifying", "round": 1, "table": 3, "seats": [{"seat": 1, "player": "p001"}]}, "seated twice"),
    ({"stage": "qualifying", "round": 1, "table": 3, "seats": [{"seat": 1, "player": "nobody"}]},
     "not in the file's players"),
    ({"stage": "semifinal", "round": 1, "table": 1, "seats": [{"seat": 13, "player": "p001"}]}, "must be a list"),
    ({"stage": "qualifying", "round": 1, "table": 3, "seats": []}, "must be a list"),
])
def test_a_bad_entry_is_refused_and_nothing_is_saved(organizer: Any, entry: dict[str, Any], message: str) -> None:
    data = played_file(20, 1)
    data["tournament"]["tables_in_play"] = [entry]
    with translation.override("en"), pytest.raises(InvalidTournament) as refused:
        import_text(json.dumps(data), organizers=[organizer])
    assert message in str(refused.value) and "tables_in_play" in str(refused.value)
    assert not Tournament.objects.exists()


def test_a_seat_number_used_twice_is_refused(organizer: Any) -> None:
    data = played_file(20, 1)
    data["stages"][0]["rounds"].append({"number": 2, "seating": "random", "games": []})
    data["tournament"]["tables_in_play"] = [{"stage": "qualifying", "round": 2, "table": 1, "seats": [
        {"seat": 1, "player": "p001"}, {"seat": 1, "player": "p002"}]}]
    with translation.override("en"), pytest.raises(InvalidTournament, match="seat number is used twice"):
        import_text(json.dumps(data), organizers=[organizer])


def test_pairs_kept_apart_travel_with_the_file(organizer: Any) -> None:
    from tournaments.models import KeepApart
    from tournaments.services.apart import add_pair

    tournament = import_played(organizer, players=20, rounds=1)
    people = list(tournament.participants.order_by("number"))
    add_pair(tournament, people[5], people[2])
    add_pair(tournament, people[0], people[19])
    data = export_data(tournament)
    assert data["tournament"]["keep_apart"] == [[people[2].ext_id, people[5].ext_id],
                                                [people[0].ext_id, people[19].ext_id]]
    restored = import_text(json.dumps(data), slug="restored", organizers=[organizer])
    pairs = {(p.first.ext_id, p.second.ext_id) for p in KeepApart.objects.filter(tournament=restored)
             .select_related("first", "second")}
    assert pairs == {(people[2].ext_id, people[5].ext_id), (people[0].ext_id, people[19].ext_id)}
    assert export_data(restored) == data


@pytest.mark.parametrize("pairs, message", [
    ([["p001"]], "pairs of player ids"),
    ([["p001", "p001"]], "paired with themselves"),
    ([["p001", "nobody"]], "not in the file's players"),
    ([["p001", "p002"], ["p002", "p001"]], "listed twice"),
])
def test_bad_pairs_are_refused(organizer: Any, pairs: Any, message: str) -> None:
    data = played_file(20, 1)
    data["tournament"]["keep_apart"] = pairs
    with translation.override("en"), pytest.raises(InvalidTournament, match=message):
        import_text(json.dumps(data), organizers=[organizer])
    assert not Tournament.objects.exists()
