"""The judge's game log, optional, one tap an event: nominations and votes by day, departures logged by
themselves, the don's and the sheriff's checks and the doctor's heals by night (the doctor's limits checked); the
first kill and the days survived still come from the departures, never typed twice; the log is on the public game
page after the game and travels in the tournament file."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from exchange.files import export_data, import_text
from games.models import Game
from tests.games.test_table_screen import Screen
from tests.helpers import ROLES

pytestmark = pytest.mark.django_db


def kinds(screen: Screen) -> list[tuple[str, int, int | None]]:
    return [(e["kind"], e["phase"], e.get("seat")) for e in screen.game.log]


def test_a_day_and_a_night_one_tap_an_event(round_: Any, people: dict[str, Any]) -> None:
    screen = Screen(round_, people["judge"])
    screen.tap("nominated", seat=8)
    screen.tap("votes", seat=8, count="6")
    screen.tap("voted", seat=8)  # the departure, logged by itself
    assert 'id="screen-error"' in screen.tap("sheriff_check", seat=2)  # checks are at night
    screen.tap("phase", value="next")  # night 1
    screen.tap("killed", seat=7)
    screen.tap("sheriff_check", seat=2)
    screen.tap("don_check", seat=5)
    assert kinds(screen) == [("nominated", 1, 8), ("votes", 1, 8), ("voted_out", 1, 8), ("killed", 2, 7),
                             ("sheriff_check", 2, 2), ("don_check", 2, 5)]
    assert screen.game.log[1]["count"] == 6
    assert screen.game.first_killed == 7  # from the departures, as before
    page = screen.client.get(screen.url).content.decode()
    log = page.split('id="game-log"', 1)[1].split("</details>", 1)[0]
    assert "голосов за место 8: 6" in log
    assert "шериф проверяет место 2: чёрный" in log and "дон проверяет место 5: не шериф" in log  # 2 is mafia


def test_events_are_checked_and_the_last_can_be_taken_back(round_: Any, people: dict[str, Any]) -> None:
    screen = Screen(round_, people["judge"])
    for action, data in (("don_check", {"seat": 3}), ("votes", {"seat": 3, "count": "11"}),
                         ("votes", {"seat": 3, "count": "many"}), ("heal", {"seat": 3})):
        version = screen.game.version
        if action == "heal":
            screen.tap("phase", value="next")
            version = screen.game.version
        page = screen.tap(action, **data)
        assert 'id="screen-error"' in page and screen.game.version == version, action
    screen.tap("killed", seat=6)
    screen.tap("log_undo")  # the kill taken back: seat 6 is at the table again
    assert screen.game.log == [] and not screen.game.seats.get(seat__number=6).left


def test_the_doctors_limits(make_round: Any, organizer: Any) -> None:
    screen = Screen(make_round("kostroma"), organizer, "kostroma")
    doctor = ROLES["kostroma"].index("doctor") + 1
    screen.tap("phase", value="next")  # night 1
    screen.tap("heal", seat=3)
    screen.tap("phase", value="next")
    screen.tap("phase", value="next")  # night 2
    page = screen.tap("heal", seat=3)
    assert 'id="screen-error"' in page  # not the same player two nights running
    screen.tap("heal", seat=doctor)
    screen.tap("phase", value="next")
    screen.tap("phase", value="next")  # night 3
    screen.tap("heal", seat=3)
    screen.tap("phase", value="next")
    screen.tap("phase", value="next")  # night 4
    assert 'id="screen-error"' in screen.tap("heal", seat=doctor)  # themselves once a game
    assert [e.get("seat") for e in screen.game.log] == [3, doctor, 3]


def test_the_log_travels_in_the_file_and_is_on_the_public_game_page(round_: Any, people: dict[str, Any],
                                                                   client: Client) -> None:
    screen = Screen(round_, people["judge"])
    screen.tap("nominated", seat=4)
    screen.tap("votes", seat=4, count="7")
    screen.tap("voted", seat=4)
    screen.tap("winner", value="red")
    screen.tap("submit")
    tournament = round_.stage.tournament
    tournament.standings_hidden = False
    tournament.save()
    data = export_data(tournament)
    game = next(g for g in data["stages"][0]["rounds"][0]["games"] if g.get("log"))
    assert game["log"] == [{"kind": "nominated", "phase": 1, "seat": 4},
                           {"kind": "votes", "phase": 1, "seat": 4, "count": 7},
                           {"kind": "voted_out", "phase": 1, "seat": 4}]
    copy = import_text(json.dumps(data), slug="copy")
    assert Game.objects.get(table__round__stage__tournament=copy, table__number=game["table"]).log == game["log"]
    client.cookies["django_language"] = "ru"
    html = client.get(f"/p/{tournament.slug}/games/q/1/{game['table']}/").content.decode()
    log = html.split('id="game-log"', 1)[1].split("</ol>", 1)[0]
    assert "день 1: голосов за место 4: 7" in log.lower() and "место 4 заголосовано" in log.lower()
