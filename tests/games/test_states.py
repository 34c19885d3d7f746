"""The protocol's states, the rules through scoring, versions, standings and history."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.utils import translation

from exchange.reading import to_model
from games.models import Game, GameState
from games.permissions import staff_of
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english() -> Any:
    with translation.override("en"):
        yield


def set_roles(ruleset: str) -> Any:
    def mutate(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES[ruleset], strict=True):
            seat.role = role

    return mutate


def finish(winner: str) -> Any:
    def mutate(facts: ProtocolFacts) -> None:
        facts.winner = winner

    return mutate


@pytest.fixture
def game(round_: Any, people: dict[str, Any]) -> Game:
    game = service.open_protocol(table(round_, 1), people["judge"])
    return service.change(game, people["judge"], game.version, set_roles("fiim"))


def test_opened_from_the_published_seating(round_: Any, people: dict[str, Any]) -> None:
    t = table(round_, 1)
    game = service.open_protocol(t, people["judge"])
    assert game.state == GameState.DRAFT and game.version == 1
    assert [(r.seat.number, r.seat.participant_id) for r in game.seats.select_related("seat")] == [
        (s.number, s.participant_id) for s in t.seats.order_by("number")
    ]
    assert service.open_protocol(t, people["chief"]).pk == game.pk


def test_a_draft_has_no_result_in_the_standings(game: Game, round_: Any, people: dict[str, Any]) -> None:
    game = service.change(game, people["judge"], game.version, finish("black"))
    assert to_model(round_.stage.tournament).stages[0].rounds[0].games == ()
    service.submit(game, people["judge"], game.version)
    games = to_model(round_.stage.tournament).stages[0].rounds[0].games
    assert len(games) == 1 and games[0].winner == "black"


def test_rule_violations_are_refused_naming_the_seat_and_nothing_is_saved(game: Game, people: dict[str, Any]) -> None:
    def bad(facts: ProtocolFacts) -> None:
        facts.winner = "red"
        facts.seats[0].extra = Fraction(1)  # seat 1 is the don: a losing player
        facts.notes = "changed"

    with pytest.raises(service.ProtocolRejected) as error:
        service.change(game, people["judge"], game.version, bad)
    assert [(p.location.seat, p.text) for p in error.value.problems] == [
        (1, "a losing player can get 0 or 0.5 extra points under fiim")
    ]
    game.refresh_from_db()
    assert game.winner == "" and game.notes is None and game.version == 2


def test_the_table_composition_is_checked(game: Game, people: dict[str, Any]) -> None:
    def two_dons(facts: ProtocolFacts) -> None:
        facts.seats[1].role = "don"  # refused as soon as the roles are saved, before any result

    with pytest.raises(service.ProtocolRejected) as error:
        service.change(game, people["judge"], game.version, two_dons)
    assert "2 dons at the table; fiim expects 1" in str(error.value)


def test_submit_needs_a_result(game: Game, people: dict[str, Any]) -> None:
    with pytest.raises(service.ProtocolRejected, match="winner is not recorded"):
        service.submit(game, people["judge"], game.version)
    assert Game.objects.get(pk=game.pk).state == GameState.DRAFT


def test_the_state_machine_and_who_did_it(game: Game, round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    judge, chief, organizer = people["judge"], people["chief"], people["organizer"]
    game = service.change(game, judge, game.version, finish("red"))
    game = service.submit(game, judge, game.version)
    assert (game.state, game.submitted_by) == (GameState.SUBMITTED, judge) and game.submitted_at
    with pytest.raises(service.ProtocolError, match="Only the chief judge or an organizer"):
        service.confirm(game, staff_of(judge, tournament), judge, game.version)
    game = service.confirm(game, staff_of(organizer, tournament), organizer, game.version)
    assert (game.state, game.confirmed_by) == (GameState.CONFIRMED, organizer)
    with pytest.raises(service.ProtocolError, match="locked"):
        service.change(game, chief, game.version, finish("black"))
    with pytest.raises(service.ProtocolError, match="Only the chief judge can reopen"):
        service.reopen(game, staff_of(organizer, tournament), organizer, game.version, "typo")
    with pytest.raises(service.ProtocolError, match="reason"):
        service.reopen(game, staff_of(chief, tournament), chief, game.version, "  ")
    game = service.reopen(game, staff_of(chief, tournament), chief, game.version, "seat 3 was the sheriff")
    assert game.state == GameState.SUBMITTED and game.reopen_reason == "seat 3 was the sheriff"
    game = service.change(game, chief, game.version, finish("black"))
    with pytest.raises(service.ProtocolError, match="Only a draft"):
        service.submit(game, judge, game.version)
    reasons = [h.history_change_reason for h in game.history.order_by("history_date")]
    assert reasons.count("submitted") == 1 and "seat 3 was the sheriff" in reasons


def test_an_edit_based_on_an_older_version_is_refused(game: Game, people: dict[str, Any]) -> None:
    old = game.version
    service.change(game, people["chief"], old, finish("red"))
    with pytest.raises(service.VersionConflict) as error:
        service.change(game, people["judge"], old, finish("black"))
    assert "version 3 by chief" in str(error.value) and "based on version 2" in str(error.value)
    assert Game.objects.get(pk=game.pk).winner == "red"
    with pytest.raises(service.VersionConflict):
        service.submit(game, people["judge"], old)


def test_history_keeps_every_version_with_its_author(game: Game, people: dict[str, Any]) -> None:
    service.change(game, people["chief"], game.version, finish("red"))
    records = list(game.history.order_by("history_date"))
    assert [r.version for r in records] == [1, 2, 3]
    assert [r.history_user.username for r in records] == ["judge", "judge", "chief"]
    seat_changes = game.seats.first().history.all()
    assert {r.history_user.username for r in seat_changes} == {"judge"}
