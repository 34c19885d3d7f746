"""Bad input on the protocol form and the judge's table screen: random field sets and values
(unknown choices, huge and negative numbers, Unicode, HTML, missing and extra fields). Never a server error;
anything but a saved change leaves the protocol exactly as it was."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game, GameSeat
from games.services import protocol as service
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db

NASTY = ["", "0", "-1", "13", "99999999999999999999", "1e9", "NaN", "1.5", "don", "civilian", "red", "black",
         "maniac", "killed", "voted", "removed", "<script>alert(1)</script>", "Ёж 🎲", "\u0000", "x" * 3000,
         "1 2 3 4 5", "2,5,7", "-0.5", "0.5", "1"]
FIELDS = (["version", "winner", "best_move", "last_day", "mafia_missed_three_nights", "notes", "first_killed",
           "circle1_best", "circle1_worst"]
          + [f"s{n}_{f}" for n in (1, 2, 5, 10, 11, 0) for f in
             ("role", "side", "foul1", "foul2", "foul3", "foul4", "removal", "left", "left_number", "extra",
              "best", "days_survived", "subjective")])
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def snapshot(game: Game) -> Any:
    game.refresh_from_db()
    seats = list(GameSeat.objects.filter(game=game).order_by("pk").values())
    return game.version, game.state, game.winner, seats


@pytest.fixture
def setup(round_: Any, people: dict[str, Any]) -> dict[str, Any]:
    first = table(round_, 1)
    game = service.open_protocol(first, people["judge"])
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people["judge"])
    slug = round_.stage.tournament.slug
    return {"game": game, "client": client, "form": reverse("games:protocol", args=[slug, first.pk]),
            "screen": reverse("games:table", args=[slug, first.pk])}


def valid_form(game: Game) -> dict[str, str]:
    data = {"version": str(game.version), "winner": "red", "last_day": "3"}
    data.update({f"s{n}_role": role for n, role in enumerate(ROLES["fiim"], start=1)})
    return data


@SETTINGS
@given(fields=st.dictionaries(st.sampled_from(FIELDS), st.sampled_from(NASTY) | st.text(max_size=20), max_size=12),
       base=st.booleans())
def test_protocol_form(setup: dict[str, Any], fields: dict[str, str], base: bool) -> None:
    game = setup["game"]
    data = {**(valid_form(game) if base else {}), **fields}
    before = snapshot(game)
    response = setup["client"].post(setup["form"], data)
    assert response.status_code in {302, 400, 409}
    if response.status_code != 302:
        assert snapshot(game) == before
        assert "<script>alert(1)</script>" not in response.content.decode()


@SETTINGS
@given(action=st.sampled_from(["foul", "unfoul", "voted", "killed", "remove", "back", "best_move", "best",
                               "extra", "winner", "missed", "phase", "roles", "mark", "", "nope"]),
       seat=st.sampled_from(NASTY), value=st.sampled_from(NASTY), version=st.sampled_from(["", "1", "2", "-1",
       "99999999999999999999", "x"]), circle=st.sampled_from(["", "0", "1", "-1", "99999999999999999999", "x"]),
       htmx=st.booleans())
def test_table_screen_taps(setup: dict[str, Any], action: str, seat: str, value: str, version: str,
                           circle: str, htmx: bool) -> None:
    game = setup["game"]
    before = snapshot(game)
    data = {"action": action, "seat": seat, "value": value, "version": version, "circle": circle,
            "reason": value, "removal": value, "s1_role": value}
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    response = setup["client"].post(setup["screen"], data, **headers)
    assert response.status_code in {200, 302, 400, 409}
    after = snapshot(game)
    if after[0] == before[0]:
        assert after == before  # no new version: nothing changed
    assert "<script>alert(1)</script>" not in response.content.decode()
