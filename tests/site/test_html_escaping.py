"""No script injection: HTML in player, team, tournament and stage names, protest texts and
protocol notes is escaped on every page of the app (every URL from the resolver, full pages and htmx
fragments), for the organizer, the chief judge and an anonymous visitor."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from django.test import Client

from exchange.files import import_text
from games.models import Game, Protest
from tests.helpers import played_file
from tests.site.test_permission_walk import EXPECTED, app_urls, client_for, url_of
from tests.site.test_permission_walk import world as world
from tournaments.models import Participant, Team

pytestmark = pytest.mark.django_db

PAYLOAD = '<script>alert("xss")</script><img src=x onerror=alert(1)>'
RAW = ("<script>alert(", "<img src=x")


def inject(tournament: Any) -> None:
    tournament.name = f"Кубок {PAYLOAD}"
    tournament.save()
    stage = tournament.stages.first()
    stage.name = f"этап {PAYLOAD}"
    stage.save()
    team = Team.objects.create(tournament=tournament, ext_id="t1", name=f"команда {PAYLOAD}")
    for participant in Participant.objects.filter(tournament=tournament).select_related("player")[:3]:
        player = participant.player
        player.surname, player.nickname = f"Ёлкина {PAYLOAD}", PAYLOAD
        player.save()
        participant.team = team
        participant.save()


def assert_escaped(client: Client, url: str, who: str) -> int:
    checked = 0
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        response = client.get(url, **headers)
        if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
            continue
        body = response.content.decode()
        for raw in RAW:
            assert raw not in body, f"{who} {url}: {raw!r} unescaped"
        checked += "&lt;script&gt;alert(" in body  # the payload is there, as text
    return checked


def test_every_page_escapes_html_in_names(world: dict[str, Any], round_: Any) -> None:
    tournament = round_.stage.tournament
    inject(tournament)
    game = Game.objects.get(table__round=round_, table__number=1)
    game.notes = PAYLOAD
    game.save()
    Protest.objects.filter(game=game).update(text=PAYLOAD)
    checked = 0
    for name, route in app_urls().items():
        if name not in EXPECTED:
            continue
        url = url_of(name, route, world)
        for who in ("organizer", "chief", "judge", "anonymous"):
            checked += assert_escaped(client_for(world["users"][who]), url, who)
    assert checked > 40  # pages that showed the payload, escaped


def test_public_pages_of_played_games_escape_html(organizer: Any) -> None:
    data = copy.deepcopy(played_file(10, 1))
    data["players"][0]["name"] = f"Ёлкина {PAYLOAD}"
    data["tournament"]["name"] = f"Кубок {PAYLOAD}"
    data["stages"][0]["name"] = f"этап {PAYLOAD}"
    data["stages"][0]["rounds"][0]["games"][0]["judge"] = PAYLOAD
    tournament = import_text(json.dumps(data), organizers=[organizer])
    slug = tournament.slug
    urls = [f"/p/{slug}/", f"/p/{slug}/standings/", f"/p/{slug}/standings/qualifying/", f"/p/{slug}/seating/",
            f"/p/{slug}/seating/qualifying/1/", f"/p/{slug}/players/p001/", f"/p/{slug}/games/qualifying/1/1/",
            f"/p/{slug}/where/?q=%D0%81%D0%BB%D0%BA", f"/p/{slug}/where/?q={PAYLOAD}", "/p/", "/",
            f"/t/{slug}/", f"/t/{slug}/participants/", f"/t/{slug}/stages/qualifying/standings/",
            f"/t/{slug}/stages/qualifying/rounds/1/", f"/t/{slug}/results/"]
    anonymous, owner = Client(), Client()
    owner.force_login(organizer)
    checked = sum(assert_escaped(anonymous, url, "anonymous") + assert_escaped(owner, url, "organizer")
                  for url in urls)
    assert checked > 20  # pages that showed the payload, escaped
