"""Bad input on the API: malformed JSON, wrong types, huge and negative numbers, unknown ids,
Unicode and HTML, in bodies, paths and query strings. Always a 4xx with a JSON body saying what is wrong,
never a server error, and a refused change leaves the protocol as it was."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, GameSeat
from games.services import protocol as service
from tests.conftest import new_people, new_round, new_user
from tests.helpers import import_played, table
from tests.worlds import fresh, kept_world, quiet_saves

from .conftest import full_protocol

pytestmark = pytest.mark.django_db

HUGE = 10**30
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.sampled_from([HUGE, -HUGE, 2**63, -1, 0, 1e308, 0.5])
    | st.text(max_size=20) | st.sampled_from(["<script>alert(1)</script>", "Ёж 🎲", "red", "don", ""]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def build_setup() -> dict[str, Any]:
    """A published fiim round with its judges, table 1's protocol opened by its judge (its own names: the module's
    other tests make conftest's ``organizer``)."""
    organizer = new_user("api-director", can_create=True)
    with quiet_saves():  # nothing here reads the builder's history, version, rating or overlay
        round_ = new_round(organizer)
        people = new_people(round_, prefix="api-")
        first = table(round_, 1)
        game = service.open_protocol(first, people["judge"])
    slug = round_.stage.tournament.slug
    return {"game": game, "chief": people["chief"], "slug": slug,
            "url": reverse("api:protocol", args=[slug, first.pk]),
            "submit": reverse("api:submit", args=[slug, first.pk]),
            "confirm": reverse("api:confirm", args=[slug, first.pk])}


@pytest.fixture(scope="module")
def kept(django_db_setup: Any, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """Built once for the module's 50 tests: each then writes in its own savepoint."""
    with kept_world(django_db_blocker) as build:
        yield build(build_setup)


@pytest.fixture
def setup(kept: dict[str, Any], api: Any) -> dict[str, Any]:
    world = fresh(kept)
    return {**world, "client": api(world["chief"])}


def snapshot(game: Game) -> Any:
    game.refresh_from_db()
    return game.version, game.state, list(GameSeat.objects.filter(game=game).order_by("pk").values())


def refused(response: Any) -> None:
    assert 400 <= response.status_code < 500, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    assert response.json().get("detail")


@pytest.mark.parametrize("body", ["", "{", "[]", "null", '"text"', "1e999", "{'version': 1}", "\xff", "[" * 5000,
                                  '{"version": NaN}', '{"version": 1e999}'])
@pytest.mark.parametrize("target", ["url", "submit", "confirm"])
def test_malformed_json(setup: dict[str, Any], body: str, target: str) -> None:
    before = snapshot(setup["game"])
    method = setup["client"].put if target == "url" else setup["client"].post
    refused(method(setup[target], body, content_type="application/json"))
    assert snapshot(setup["game"]) == before


@SETTINGS
@given(patch=st.dictionaries(st.sampled_from(["version", "winner", "seats", "first_killed", "best_move", "notes",
                                              "mafia_missed_three_nights", "circles", "days"]), JSON_VALUES,
                             min_size=1, max_size=4),
       seat_patch=st.dictionaries(st.sampled_from(["seat", "role", "side", "fouls", "removed", "left",
                                                   "left_number", "extra", "best", "days_survived", "subjective"]),
                                  JSON_VALUES, max_size=3))
def test_wrong_types_and_values_in_a_protocol(setup: dict[str, Any], patch: dict[str, Any],
                                              seat_patch: dict[str, Any]) -> None:
    game = setup["game"]
    body = full_protocol(snapshot(game)[0])
    body["seats"][4].update(seat_patch)
    body.update(patch)
    before = snapshot(game)
    response = setup["client"].put(setup["url"], json.dumps(body), content_type="application/json")
    if response.status_code == 200:
        return
    refused(response)
    assert snapshot(game) == before


@SETTINGS
@given(body=JSON_VALUES)
def test_any_json_to_submit_and_confirm(setup: dict[str, Any], body: Any) -> None:
    before = snapshot(setup["game"])
    for target in ("submit", "confirm"):
        response = setup["client"].post(setup[target], json.dumps(body), content_type="application/json")
        refused(response)  # the draft has no result yet: never submitted, never confirmed
    assert snapshot(setup["game"]) == before


@pytest.mark.parametrize("path", [
    "/api/tournaments/nope/", "/api/tournaments/nope/standings/", "/api/tournaments/{slug}/rounds/zz/1/seating/",
    "/api/tournaments/{slug}/rounds/q/99999999999999999999/seating/",
    "/api/tournaments/{slug}/protocols/99999999999999999999/", "/api/tournaments/{slug}/protocols/0/",
    "/api/tournaments/{slug}/standings/?stage=nope", "/api/tournaments/{slug}/standings/?stage=%3Cscript%3E",
    "/api/tournaments/{slug}/standings/?stage=" + "x" * 3000, "/api/tournaments/{slug}/games/?stage=nope",
    "/api/tournaments/{slug}/games/?round=-1", "/api/tournaments/{slug}/games/?round=99999999999999999999",
    "/api/tournaments/{slug}/rounds/?stage=%00",
])
def test_unknown_ids_and_bad_query_strings(setup: dict[str, Any], path: str) -> None:
    response = setup["client"].get(path.format(slug=setup["slug"]))
    assert response.status_code in {200, 400, 404}, response.content[:300]
    assert response["Content-Type"].startswith("application/json")


@pytest.mark.parametrize("body", ["[" * 5000, '{"username": ' * 5000, "{", "[]", '"text"', '{"username": NaN}'])
def test_malformed_json_to_the_token_endpoint(body: str) -> None:
    """Found by tests/fuzz/test_api_writes.py: ``POST /api/token/`` used DRF's own JSON parser (ObtainAuthToken
    names its parsers), so a body nested too deeply raised RecursionError, a 500; it is a 400 like every other
    write of the API."""
    from rest_framework.test import APIClient

    response = APIClient().post(reverse("api:token"), body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("application/json") and response.json()


def test_a_json_body_past_the_bound_is_refused_unread() -> None:
    """DRF reads the body's stream itself, so Django's 2.5 MB bound of every form never applied and the
    anonymous ``POST /api/token/`` parsed a 10 MB JSON body whole; it is refused by its length, naming the bound."""
    from unittest import mock

    from rest_framework.test import APIClient

    body = json.dumps({"username": "x" * 10_000_000, "password": "y"})
    with mock.patch("json.loads") as parsed:
        response = APIClient().post(reverse("api:token"), body, content_type="application/json",
                                    HTTP_ACCEPT_LANGUAGE="en")
    assert parsed.call_count == 0 and response.status_code == 400, response.content[:300]
    # Django refuses it here before DRF reads it; the API's parser refuses a stream DRF would read itself
    from django.test import RequestFactory
    from rest_framework.exceptions import ParseError

    from api.parsers import JSONParser

    request = RequestFactory().post("/api/token/", "{}", content_type="application/json",
                                    CONTENT_LENGTH=str(len(body)))
    with pytest.raises(ParseError) as refused, mock.patch("json.load") as read:
        JSONParser().parse(request, "application/json", {"request": request})
    assert read.call_count == 0
    assert str(refused.value.detail) == f"The body is {len(body)} bytes; the API reads at most 2621440."


# Found by the browser journeys, the permission walk or the bad-input tests.
def test_json_nested_too_deeply_is_a_400(client: Any, organizer: Any) -> None:
    """A body of 5,000 '[' made DRF's JSON parser raise RecursionError: a 500."""
    from judges.services.staff import add_judge

    tournament = import_played(organizer, players=10, rounds=1)
    table = tournament.stages.get(ext_id="qualifying").rounds.get().tables.get()
    add_judge(tournament, organizer, chief=True)
    client.force_login(organizer)
    response = client.put(reverse("api:protocol", args=[tournament.slug, table.pk]), "[" * 5000,
                          content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


# Found by the browser journeys, the permission walk or the bad-input tests.
def test_an_unknown_tournament_in_the_api_is_a_json_404(client: Any) -> None:
    """The read API answered an unknown tournament with Django's HTML 404 page."""
    for name in ("api:tournament", "api:standings", "api:games", "api:rounds", "api:stages"):
        response = client.get(reverse(name, args=["nope"]))
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["detail"]
