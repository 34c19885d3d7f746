"""Each tournament's places as the series reads them (``series.places``), for the four regulations' examples: the
same places as the final results of the results documents (``paper.results``: one function, ``scoring.places``),
for the same people of the registry; guests and the disqualified without a place; and "over" exactly when the
public pages title the results "Final results"."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.models import Game, GameState
from paper.results import all_tables
from public.snapshot import Snapshot
from series.places import may_be_over, read_places, tournament_places
from tests.helpers import example_text
from tournaments.models import Round, Seat, Stage, Table, Tournament

pytestmark = pytest.mark.django_db

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


def imported(import_file: Any, ruleset: str, **change: Any) -> Tournament:
    data = json.loads(example_text(f"{ruleset}-example.json"))
    data["tournament"]["standings_hidden"] = False
    data["tournament"].update(change)
    return import_file(data, f"{ruleset}-places")  # type: ignore[no-any-return]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_places_of_the_results_documents(import_file: Any, ruleset: str) -> None:
    tournament = imported(import_file, ruleset)
    final, _stages = all_tables(Snapshot(tournament))
    people = dict(tournament.participants.values_list("ext_id", "player_id"))
    expected = {people[row["player"]]: row["place"] for row in final.rows if row["place"] is not None}
    places = read_places(tournament)
    assert places.places == expected
    guests = set(tournament.participants.filter(guest=True).values_list("player_id", flat=True))
    assert not guests & set(places.places)
    assert sorted(places.places.values())[0] == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_over_when_the_public_pages_say_final_results(import_file: Any, ruleset: str) -> None:
    tournament = imported(import_file, ruleset)
    over = read_places(tournament).over
    assert over == Snapshot(tournament).final_over
    assert may_be_over(tournament) or not over  # the rows' quick look never says no where the model says yes
    last = Stage.objects.filter(tournament=tournament).order_by("-order").first()
    assert last is not None
    last.planned_rounds = 99  # the final not over: rounds still to play
    last.save()
    assert not read_places(tournament).over and not Snapshot(tournament).final_over
    assert not may_be_over(tournament)
    last.closed = True  # closed by the organizer: over
    last.save()
    assert read_places(tournament).over and Snapshot(tournament).final_over and may_be_over(tournament)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_not_over_while_a_table_of_the_final_plays(import_file: Any, ruleset: str) -> None:
    """The final's last round with a second table still in play beside the one with its result: not final for
    the series, the notifications or the public pages (each example's final plays at one table, so one is added,
    seated with ten players of the tournament not at the first)."""
    tournament = imported(import_file, ruleset)
    assert read_places(tournament).over
    last_round = Round.objects.filter(stage__tournament=tournament).order_by("-stage__order", "-number").first()
    assert last_round is not None
    seated = set(Seat.objects.filter(round=last_round).values_list("participant_id", flat=True))
    others = [p for p in tournament.participants.order_by("number") if p.pk not in seated][:10]
    table = Table.objects.create(round=last_round, number=last_round.tables.count() + 1)
    Seat.objects.bulk_create(Seat(table=table, round=last_round, number=number, participant=participant)
                             for number, participant in enumerate(others, start=1))
    assert not read_places(tournament).over and not Snapshot(tournament).final_over
    assert not may_be_over(tournament)
    Game.objects.filter(table__round=last_round).update(state=GameState.DRAFT)  # and the first table's back too
    assert not read_places(tournament).over and not may_be_over(tournament)


def test_the_disqualified_get_no_place(import_file: Any) -> None:
    first = read_places(imported(import_file, "kostroma"))
    winner = min(first.places, key=first.places.__getitem__)
    tournament = Tournament.objects.get(slug="kostroma-places")
    ext = tournament.participants.get(player_id=winner).ext_id
    tournament.delete()
    again = imported(import_file, "kostroma", disqualifications=[{"player": ext, "reason": "неспортивное поведение"}])
    places = read_places(again)
    people = dict(again.participants.values_list("ext_id", "player_id"))
    assert people[ext] not in places.places and min(places.places.values()) == 1


def test_a_tournament_without_games_places_nobody(make_tournament: Any) -> None:
    tournament = make_tournament("fiim")
    got = tournament_places([Tournament.objects.select_related("results_version").get(pk=tournament.pk)])
    assert got[tournament.pk].places == {} and not got[tournament.pk].over
