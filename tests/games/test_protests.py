"""Protests: the kostroma window (absolute), protests on or off per tournament, the final decision, reopening,
history, and the tournament file's round trip."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.utils import timezone, translation

from exchange.files import export_data, import_text
from games.history import protocol_history
from games.models import Game, GameState, Protest, ProtestDecision
from games.permissions import staff_of
from games.services import protests
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from scoring import fileio
from tests.helpers import ROLES, table

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english() -> Any:
    with translation.override("en"):
        yield


@pytest.fixture
def round_(make_round: Any) -> Any:
    return make_round("kostroma")


def played(round_: Any, people: dict[str, Any], *, minutes_ago: float = 0, confirm: bool = False) -> Game:
    """Table 1 played to a red win; ``ended_at`` moved back ``minutes_ago``."""
    judge = people["judge"]
    game = service.open_protocol(table(round_, 1), judge)

    def fill(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES["kostroma"], strict=True):
            seat.role = role
        facts.winner = "red"

    game = service.change(game, judge, game.version, fill)
    game = service.submit(game, judge, game.version)
    if confirm:
        organizer = people["organizer"]
        game = service.confirm(game, staff_of(organizer, round_.stage.tournament), organizer, game.version)
    assert game.ended_at is not None
    Game.objects.filter(pk=game.pk).update(ended_at=game.ended_at - dt.timedelta(minutes=minutes_ago))
    game.refresh_from_db()
    return game


def staff(round_: Any, user: User) -> Any:
    return staff_of(user, round_.stage.tournament)


def test_a_protest_within_the_window_is_recorded_with_seat_text_time_and_author(
    round_: Any, people: dict[str, Any]
) -> None:
    game = played(round_, people, minutes_ago=9)
    judge = people["judge"]
    protest = protests.lodge(game, staff(round_, judge), judge, 4, "  Seat 4 was not allowed a last word. ")
    assert (protest.seat, protest.text, protest.decision) == (4, "Seat 4 was not allowed a last word.", "pending")
    assert protest.recorded_by == judge and protest.late_accepted_by is None
    lodged = dt.datetime.fromisoformat(protest.lodged_at or "")
    assert abs((lodged - timezone.now()).total_seconds()) < 5 and lodged.tzinfo is not None


def test_after_ten_minutes_kostroma_refuses_whoever_enters_it(round_: Any, people: dict[str, Any]) -> None:
    game = played(round_, people, minutes_ago=11)
    closes = timezone.localtime(game.ended_at + dt.timedelta(minutes=10)).strftime("%H:%M:%S")
    for who in ("judge", "organizer", "chief"):
        user = people[who]
        with pytest.raises(service.ProtocolError, match=f"the window closed at {closes}.*not accepted"):
            protests.lodge(game, staff(round_, user), user, 4, "late")
    assert not Protest.objects.exists()


def test_a_game_without_its_end_time_refuses_a_kostroma_protest(round_: Any, people: dict[str, Any]) -> None:
    game = played(round_, people)
    Game.objects.filter(pk=game.pk).update(ended_at=None)
    game.refresh_from_db()
    chief = people["chief"]
    with pytest.raises(service.ProtocolError, match="end time is not recorded"):
        protests.lodge(game, staff(round_, chief), chief, 4, "when?")


@pytest.mark.parametrize(("ruleset", "default_on"), [("tomsk", True), ("kostroma", True), ("fiim", False),
                                                     ("zvezdy", True)])
def test_protests_follow_the_regulation_unless_the_organizer_says(
    make_round: Any, ruleset: str, default_on: bool
) -> None:
    from tournaments.rules import protests_enabled

    round_ = make_round(ruleset)
    tournament = round_.stage.tournament
    organizer = tournament.organizers.get()
    game = service.open_protocol(table(round_, 1), organizer)
    Game.objects.filter(pk=game.pk).update(winner="red", ended_at=timezone.now())
    game.refresh_from_db()
    assert protests_enabled(tournament) is default_on
    for on in (default_on, not default_on):
        tournament.protests_enabled = on
        tournament.save(update_fields=["protests_enabled"])
        game.refresh_from_db()
        if on:
            assert protests.lodge(game, staff(round_, organizer), organizer, 1, "x").seat == 1
        else:
            with pytest.raises(service.ProtocolError, match="takes no protests: the judges' decisions are not "
                                                            "subject to appeal"):
                protests.lodge(game, staff(round_, organizer), organizer, 1, "x")
        Protest.objects.all().delete()


def test_other_rulesets_have_no_window(make_round: Any, make_user: Callable[..., User]) -> None:
    round_ = make_round("fiim")
    round_.stage.tournament.protests_enabled = True  # fiim takes none unless the organizer turns them on
    round_.stage.tournament.save()
    organizer = round_.stage.tournament.organizers.get()
    game = service.open_protocol(table(round_, 1), organizer)
    Game.objects.filter(pk=game.pk).update(winner="red", ended_at=timezone.now() - dt.timedelta(hours=3))
    game.refresh_from_db()
    assert protests.lodge(game, staff(round_, organizer), organizer, 1, "a day later").late_accepted_by is None


def test_bad_protests_save_nothing(round_: Any, people: dict[str, Any], make_user: Callable[..., User]) -> None:
    game = played(round_, people)
    judge = people["judge"]
    with pytest.raises(service.ProtocolError, match="no seat 11"):
        protests.lodge(game, staff(round_, judge), judge, 11, "text")
    with pytest.raises(service.ProtocolError, match="Write what the protest is about"):
        protests.lodge(game, staff(round_, judge), judge, 1, "   ")
    stranger = make_user("passer-by")
    with pytest.raises(service.ProtocolError, match="Only the table's judge"):
        protests.lodge(game, staff(round_, stranger), stranger, 1, "text")
    assert not Protest.objects.exists()


def test_only_the_chief_judge_decides_once_with_a_reason(round_: Any, people: dict[str, Any]) -> None:
    game = played(round_, people)
    chief = people["chief"]
    protest = protests.lodge(game, staff(round_, people["judge"]), people["judge"], 2, "text")
    for who in ("judge", "organizer", "other"):
        with pytest.raises(service.ProtocolError, match="Only the chief judge decides"):
            protests.decide(protest, staff(round_, people[who]), people[who], "rejected", "no")
    with pytest.raises(service.ProtocolError, match="reason"):
        protests.decide(protest, staff(round_, chief), chief, "rejected", " ")
    with pytest.raises(service.ProtocolError, match="upheld or rejected"):
        protests.decide(protest, staff(round_, chief), chief, "pending", "why")
    chief.first_name, chief.last_name = "Олег", "Главный"  # the decision names the chief judge as the lists do
    protest = protests.decide(protest, staff(round_, chief), chief, "rejected", "The host's call stands.")
    assert (protest.decision, protest.decided_by, protest.decider, protest.reason) == (
        "rejected", "Олег Главный", chief, "The host's call stands.")
    with pytest.raises(service.ProtocolError, match="already rejected; the decision is final"):
        protests.decide(protest, staff(round_, chief), chief, "upheld", "changed my mind")
    protest.refresh_from_db()
    assert protest.decision == "rejected"
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED


def test_an_upheld_protest_reopens_a_confirmed_protocol_with_the_protest_as_reason(
    round_: Any, people: dict[str, Any]
) -> None:
    game = played(round_, people, confirm=True)
    chief = people["chief"]
    protest = protests.lodge(game, staff(round_, chief), chief, 7, "Seat 7 was the sheriff, not seat 4.")
    protests.decide(protest, staff(round_, chief), chief, "upheld", "The roles were swapped.")
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED
    assert game.reopen_reason == "Protest of seat 7 upheld: The roles were swapped."
    reasons = [h.history_change_reason for h in game.history.all()]
    assert "Protest of seat 7 upheld: The roles were swapped." in reasons
    lines = [line for entry in protocol_history(game) for line in [*entry.what, entry.reason]]
    assert "Protest of seat 7 recorded: Seat 7 was the sheriff, not seat 4." in lines
    assert "Protest of seat 7 upheld" in lines and "The roles were swapped." in lines


def test_protests_round_trip_through_the_tournament_file(round_: Any, people: dict[str, Any]) -> None:
    game = played(round_, people)
    chief = people["chief"]
    protest = protests.lodge(game, staff(round_, chief), chief, 3, "Заявляю протест")
    protests.decide(protest, staff(round_, chief), chief, "upheld", "Голосование переиграно")
    exported = export_data(round_.stage.tournament)
    [written] = exported["stages"][0]["rounds"][0]["games"][0]["protests"]
    assert written == {"seat": 3, "text": "Заявляю протест", "lodged_at": protest.lodged_at, "decision": "upheld",
                       "decided_by": "chief", "reason": "Голосование переиграно"}
    again = import_text(json.dumps(exported))
    assert Protest.objects.get(game__table__round__stage__tournament=again).reason == "Голосование переиграно"
    assert json.dumps(export_data(again), sort_keys=True) == json.dumps(exported, sort_keys=True)


def test_a_file_with_every_kind_of_protest_imports_and_exports_the_same() -> None:
    examples = Path("/work/shared/examples")
    path = Path(__file__).resolve().parents[3] / "shared" / "examples" / "kostroma-example.json"
    data = json.loads((path if path.exists() else examples / "kostroma-example.json").read_text(encoding="utf-8"))
    game = data["stages"][0]["rounds"][0]["games"][0]
    game["protests"] = [
        {"seat": 1, "text": "a"},
        {"seat": 2, "text": "b", "lodged_at": "2025-03-15T12:04:05+03:00", "decision": "pending"},
        {"seat": 3, "text": "c", "decision": "rejected", "decided_by": "Главный судья", "reason": "нет",
         "note": {"k": 1}},
        {"seat": 4, "text": "d", "decision": "upheld", "reason": 5},
    ]
    text = json.dumps(data, ensure_ascii=False)
    exported = export_data(import_text(text))
    assert json.dumps(exported, sort_keys=True) == json.dumps(fileio.dump(fileio.loads(text)), sort_keys=True)
    assert exported["stages"][0]["rounds"][0]["games"][0]["protests"][2]["reason"] == "нет"
    assert Protest.objects.get(seat=3).reason == "нет" and Protest.objects.get(seat=4).other == {"reason": 5}
    assert Protest.objects.filter(decision=ProtestDecision.PENDING).count() == 1
