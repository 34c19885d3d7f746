"""The organizer's final standings name the winners as the public page does (``running.final``, one reading for
both): they named nobody (an empty "Status" column, then "Awards · nobody yet") while /p/SLUG/standings/ said
"Winners: …"; tomsk's closed final showed only the best player. Before the final is over neither names them, and
the organizer's page says that is what is pending. All four regulations."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Stage
from tournaments.services import awards as service

pytestmark = pytest.mark.django_db
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]
WINNERS = re.compile(r'id="winners"><strong>[^<]*</strong>\s*([^<]*)</')


def final_of(tournament: Any) -> Stage:
    final = tournament.stages.order_by("order").last()
    assert final is not None
    return final


def organizer_page(client: Any, stage: Stage) -> str:
    response = client.get(reverse("running:standings", args=[stage.tournament.slug, stage.ext_id]))
    assert response.status_code == 200
    return str(response.content.decode())


def public_page(client: Any, stage: Stage) -> str:
    return str(client.get(reverse("public:stage_standings", args=[stage.tournament.slug, stage.ext_id]))
               .content.decode())


def winners_in(html: str) -> list[str]:
    found = WINNERS.search(html)
    return found.group(1).strip().split(", ") if found else []


def marked_winners(html: str) -> list[str]:
    """The names of the rows whose status says "winner"."""
    rows = re.findall(r'<tr class="standing-row[^"]*">(.*?)</tr>', html, re.S)
    return [re.sub(r"<[^>]+>", "", re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)[1]).strip()
            for row in rows if 'class="badge text-bg-success winner"' in row]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_organizers_final_standings_name_the_public_pages_winners(client: Any, organizer: Any,
                                                                      import_file: Any, ruleset: str) -> None:
    tournament = import_file(f"{ruleset}-example.json", f"{ruleset}-f", standings_hidden=False)
    final = final_of(tournament)
    client.cookies["django_language"] = "ru"
    public = winners_in(public_page(client, final))
    assert public  # every example's final is over
    client.force_login(organizer)
    html = organizer_page(client, final)
    assert winners_in(html) == public and marked_winners(html) == public
    assert "Победители:" in html or "Победитель:" in html
    assert "пока никто" not in html and 'id="winners-pending"' not in html


def test_tomsk_closed_final_names_the_winners_beside_the_best_player(client: Any, organizer: Any,
                                                                     import_file: Any) -> None:
    tournament = import_file("tomsk-example.json", "tomsk-closed", standings_hidden=False)
    service.set_given(tournament, organizer, "best_player", True)
    final = final_of(tournament)
    final.closed = True
    final.save()
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = organizer_page(client, final)
    assert "Лучший игрок турнира:" in html and 'id="champion-team"' in html
    assert len(winners_in(html)) == 6 == len(marked_winners(html))  # tomsk 11.6: at most 6, here 6
    assert winners_in(html) == winners_in(public_page(client, final))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_before_the_final_is_over_nobody_is_named_and_the_page_says_why(client: Any, organizer: Any,
                                                                        generated: Any, ruleset: str) -> None:
    tournament = generated(f"on-{ruleset}", players=24, rounds=2, stages=2, ruleset=ruleset, standings_hidden=False)
    final = final_of(tournament)
    final.planned_rounds = 5  # one of five rounds played (the generator gives a stage one): the final goes on
    final.save()
    client.force_login(organizer)
    client.cookies["django_language"] = "ru"
    html = organizer_page(client, final)
    assert winners_in(html) == [] == marked_winners(html) and winners_in(public_page(client, final)) == []
    assert "Победители будут названы, когда финал закончится." in html
    assert "пока никто" not in html
    # tomsk gives its best player (as the figures stand); the others give none unless the organizer adds one
    assert ("В этом турнире награды не вручаются." in html) is (ruleset != "tomsk")
    with CaptureQueriesContext(connection) as before:
        organizer_page(client, final)
    final.planned_rounds = 1  # over: the winners are named, at no query more
    final.save()
    with CaptureQueriesContext(connection) as after:
        html = organizer_page(client, final)
    assert winners_in(html) == winners_in(public_page(client, final)) != []
    assert len(after) == len(before)
