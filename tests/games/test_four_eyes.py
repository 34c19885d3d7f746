"""Four-eyes confirmation. An organizer can choose, per tournament, that a protocol is confirmed
by someone other than the person who submitted it (or changed it after it was submitted). Enforced in the
confirm service, so on the protocol page and in the API alike; off by default."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.models import Game, GameState
from games.permissions import staff_of
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from tests.helpers import ROLES, table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates

SUBMITTED_IT = "Four-eyes confirmation: you submitted this protocol"
CHANGED_IT = "Four-eyes confirmation: you changed this protocol after it was submitted"


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"


def played(facts: ProtocolFacts) -> None:
    for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
        seat.role = role
    facts.winner = "red"


def submitted_by(round_: Any, user: User, number: int = 1) -> Game:
    game = service.open_protocol(table(round_, number), user)
    game = service.change(game, user, game.version, played)
    return service.submit(game, user, game.version)


def four_eyes(round_: Any, on: bool = True) -> Any:
    tournament = round_.stage.tournament
    tournament.four_eyes = on
    tournament.save(update_fields=["four_eyes"])
    return tournament


def browser(user: User) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def api(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def confirm_as(round_: Any, user: User, game: Game) -> Game:
    return service.confirm(game, staff_of(user, round_.stage.tournament), user, game.version)


def test_off_by_default_the_submitter_confirms(round_: Any, people: dict[str, Any]) -> None:
    assert round_.stage.tournament.four_eyes is False
    game = submitted_by(round_, people["chief"])
    assert confirm_as(round_, people["chief"], game).state == GameState.CONFIRMED


def test_on_the_submitter_cannot_confirm_someone_else_can(round_: Any, people: dict[str, Any]) -> None:
    four_eyes(round_)
    game = submitted_by(round_, people["chief"])
    with pytest.raises(service.ProtocolError, match=SUBMITTED_IT):
        confirm_as(round_, people["chief"], game)
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED and game.confirmed_by is None
    assert confirm_as(round_, people["organizer"], game).confirmed_by == people["organizer"]


def test_on_a_change_after_submission_counts_as_the_changer_s(round_: Any, people: dict[str, Any]) -> None:
    """The judge submits; the chief judge corrects the submitted protocol: the chief may not confirm their
    own correction, the organizer may; after a reopening the reopener may confirm if they changed nothing."""
    four_eyes(round_)
    game = submitted_by(round_, people["judge"])

    def black(facts: ProtocolFacts) -> None:
        facts.winner = "black"

    game = service.change(game, people["chief"], game.version, black)
    with pytest.raises(service.ProtocolError, match=CHANGED_IT):
        confirm_as(round_, people["chief"], game)
    game = confirm_as(round_, people["organizer"], game)
    game = service.reopen(game, staff_of(people["chief"], round_.stage.tournament), people["chief"], game.version,
                          "a protest")
    assert confirm_as(round_, people["chief"], game).state == GameState.CONFIRMED


def test_the_protocol_page_says_why_there_is_no_confirm_button(round_: Any, people: dict[str, Any]) -> None:
    four_eyes(round_)
    game = submitted_by(round_, people["chief"])
    url = reverse("games:protocol", args=[round_.stage.tournament.slug, game.table_id])
    page = browser(people["chief"]).get(url).content.decode()
    assert SUBMITTED_IT in page and 'value="confirm"' not in page
    page = browser(people["organizer"]).get(url).content.decode()
    assert SUBMITTED_IT not in page and 'value="confirm"' in page
    four_eyes(round_, on=False)
    page = browser(people["chief"]).get(url).content.decode()
    assert SUBMITTED_IT not in page and 'value="confirm"' in page


def test_the_web_confirm_is_refused_with_the_reason(round_: Any, people: dict[str, Any]) -> None:
    four_eyes(round_)
    game = submitted_by(round_, people["chief"])
    client = browser(people["chief"])
    state_url = reverse("games:state", args=[round_.stage.tournament.slug, game.table_id])
    response = client.post(state_url, {"action": "confirm", "version": game.version}, follow=True)
    assert any(SUBMITTED_IT in str(m) for m in response.context["messages"])
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED
    response = browser(people["organizer"]).post(state_url, {"action": "confirm", "version": game.version},
                                                 follow=True)
    assert [str(m) for m in response.context["messages"]] == ["The protocol is confirmed and locked."]
    game.refresh_from_db()
    assert game.state == GameState.CONFIRMED


@pytest.mark.parametrize("on", [True, False])
def test_the_api_confirm(round_: Any, people: dict[str, Any], on: bool) -> None:
    four_eyes(round_, on)
    game = submitted_by(round_, people["chief"])
    url = reverse("api:confirm", args=[round_.stage.tournament.slug, game.table_id])
    response = api(people["chief"]).post(url, {"version": game.version}, format="json")
    if not on:
        assert response.status_code == 200 and response.json()["state"] == "confirmed"
        return
    assert response.status_code == 409
    body = response.json()
    assert SUBMITTED_IT in body["detail"] and body["state"] == "submitted" and body["version"] == game.version
    response = api(people["organizer"]).post(url, {"version": game.version}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "confirmed"


def test_the_organizer_switches_it_on_the_judges_page(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    client = browser(people["organizer"])
    url = reverse("games:staff", args=[tournament.slug])
    page = client.get(url).content.decode()
    assert 'name="four_eyes"' in page and "Confirming protocols" in page
    response = client.post(url, {"action": "confirmation", "four_eyes": "on"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Four-eyes confirmation is on: whoever submitted a protocol cannot confirm it."]
    tournament.refresh_from_db()
    assert tournament.four_eyes is True
    response = client.post(url, {"action": "confirmation", "four_eyes": "on"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == [
        "Nothing changed: four-eyes confirmation was already on."]
    response = client.post(url, {"action": "confirmation"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Four-eyes confirmation is off."]
    tournament.refresh_from_db()
    assert tournament.four_eyes is False
    for who in ("chief", "judge"):  # only organizers
        assert browser(people[who]).post(url, {"action": "confirmation", "four_eyes": "on"}).status_code == 403
    tournament.refresh_from_db()
    assert tournament.four_eyes is False
