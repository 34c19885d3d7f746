"""The rating platforms in the browser and the API (docs/formats.md): each platform's document imports on the
import page as a tournament (a bad one names its problems and saves nothing), the exports page offers every
platform in both languages, the API serves a platform's document only for final, public results, and a game log
imported gives the protocol its departures, as the judge's screen would have recorded them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from exchange.files import import_text
from exchange.platforms import compact
from games.models import GameSeat
from games.services.facts import facts_of
from scoring import fileio
from scoring.formats import PLATFORMS
from tests.scoring.build import game, players, round_, stage, tournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

DATA = Path(__file__).resolve().parents[1] / "scoring" / "data"
NAMES = sorted(PLATFORMS)


def example(ruleset: str) -> str:
    return (DATA / f"{ruleset}-example.json").read_text()


def upload(client: Client, document: str, name: str, ruleset: str = "", language: str = "en") -> Any:
    return client.post(reverse("site:import_tournament"), {
        "file": SimpleUploadedFile("doc.json", document.encode()), "format": name, "ruleset": ruleset},
        HTTP_ACCEPT_LANGUAGE=language)


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
@pytest.mark.parametrize("name", NAMES)
def test_a_platforms_document_imports_as_a_tournament(client: Client, organizer: Any, name: str,
                                                      ruleset: str) -> None:
    platform = PLATFORMS[name]
    ours = fileio.loads(example(ruleset))
    client.force_login(organizer)
    response = upload(client, platform.export(ours).document, name, ruleset)
    assert response.status_code == 302, response.content.decode()[:2000]
    imported = Tournament.objects.get()
    assert imported.ruleset == ruleset and imported.is_organizer(organizer)
    exported = fileio.loads(client.get(reverse("exchange:export", args=[imported.slug])).content.decode())
    kept = platform.kept(ours)
    seats = sorted((s.id, r.number, g.table, seat.seat, seat.role) for s in kept.stages for r in s.rounds
                   for g in r.games for seat in g.seats)
    assert sorted((s.id, r.number, g.table, seat.seat, seat.role) for s in exported.stages for r in s.rounds
                  for g in r.games for seat in g.seats) == seats


@pytest.mark.parametrize("name", NAMES)
def test_a_bad_document_names_its_problem_and_saves_nothing(client: Client, organizer: Any, name: str) -> None:
    client.force_login(organizer)
    document = PLATFORMS[name].export(fileio.loads(example("fiim"))).document
    response = upload(client, document[: len(document) // 2], name, "fiim", language="ru")
    assert response.status_code == 400
    text = response.content.decode()
    assert "Ничего не импортировано" in text and f"не читается как документ {PLATFORMS[name].title}" in text
    assert f"not a {name} document" in text  # the converter's words, naming the place
    assert not Tournament.objects.exists()
    # another platform's document, or our own file, given as this platform's
    response = upload(client, example("fiim"), name, "fiim")
    assert response.status_code == 400 and "cannot be read as one of" in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_unknown_format_or_regulation_is_refused(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    response = upload(client, example("fiim"), "nowhere")
    assert response.status_code == 400 and "Choose one of the formats listed." in response.content.decode()
    response = upload(client, example("fiim"), "file", ruleset="chess")
    assert response.status_code == 400 and "Choose one of the regulations listed." in response.content.decode()
    assert not Tournament.objects.exists()


def test_our_own_file_still_imports_by_default(client: Client, organizer: Any) -> None:
    client.force_login(organizer)
    response = client.post(reverse("site:import_tournament"),
                           {"file": SimpleUploadedFile("t.json", example("zvezdy").encode())})
    assert response.status_code == 302 and Tournament.objects.get().ruleset == "zvezdy"


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_import_page_offers_every_format(client: Client, organizer: Any, language: str) -> None:
    client.force_login(organizer)
    html = client.get(reverse("site:import_tournament"), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for name in NAMES:
        assert f'<option value="{name}" lang="en">{PLATFORMS[name].title}</option>' in html
    assert ("Формат" in html) is (language == "ru")
    ours = ("Файл турнира" if language == "ru" else "Tournament file") + " (mafia-tournament/1, JSON)"
    assert f'<option value="file" selected>{ours}</option>' in html or f'<option value="file">{ours}</option>' in html


@pytest.mark.parametrize("language", ["ru", "en"])
def test_the_exports_page_lists_every_platform_and_what_it_leaves_out(client: Client, organizer: Any,
                                                                      language: str) -> None:
    t = import_text(example("kostroma"), organizers=[organizer])
    client.force_login(organizer)
    html = client.get(reverse("exchange:exports", args=[t.slug]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    model = fileio.loads(client.get(reverse("exchange:export", args=[t.slug])).content.decode())
    for name in NAMES:
        assert f'id="export-{name}"' in html
        said, _more = compact(PLATFORMS[name].export(model).lost)
        for kind in said:
            assert f'<span lang="en">{escape(kind.line)}</span>' in html
    assert ("Скачать" in html) is (language == "ru")


def test_the_api_serves_platform_exports_only_for_final_public_results(organizer: Any) -> None:
    t = import_text(example("fiim"), organizers=[organizer])
    anonymous = Client()
    from public.snapshot import Snapshot

    assert Snapshot(t).final_over
    for name in NAMES:
        url = reverse("api:export", args=[t.slug, name])
        response = anonymous.get(url)
        assert response.status_code == 200
        assert response.content.decode() == PLATFORMS[name].export(Snapshot(t).model).document
        etag = response["ETag"]
        assert anonymous.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    t.standings_hidden = True
    t.save()
    for name in NAMES:
        response = anonymous.get(reverse("api:export", args=[t.slug, name]), HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 403 and "hidden" in response.json()["detail"]
    assert anonymous.get(reverse("api:export", args=[t.slug, "nowhere"])).status_code == 404


def test_the_api_refuses_a_tournament_still_playing(organizer: Any) -> None:
    ten = players(10)
    data = tournament("fiim", [stage("final", [round_(1, [game("fiim", ten, "red")])], kind="final")])
    data["stages"].append(stage("later", [round_(1, [game("fiim", ten, None)])], kind="final"))
    data["stages"][0]["kind"] = "qualifying"
    t = import_text(json.dumps(data), organizers=[organizer])
    for name in NAMES:
        response = Client().get(reverse("api:export", args=[t.slug, name]))  # Russian, the site's language
        assert response.status_code == 403 and "Итоги ещё не окончательные." in response.json()["detail"]


def test_an_imported_game_log_gives_the_protocol_its_departures(organizer: Any) -> None:
    """Seat 3 voted out on day 1, seat 7 killed on night 1, seat 9 removed on day 2, seat 5 killed on night 2:
    the protocol's seats say so, the counter stands at the log's last phase, and the facts derived from them are
    the file's first kill and days survived."""
    ten = players(10)
    log = [{"kind": "nominated", "phase": 1, "seat": 3}, {"kind": "votes", "phase": 1, "seat": 3, "count": 6},
           {"kind": "voted_out", "phase": 1, "seat": 3}, {"kind": "killed", "phase": 2, "seat": 7},
           {"kind": "don_check", "phase": 2, "seat": 4}, {"kind": "sheriff_check", "phase": 2, "seat": 1},
           {"kind": "removed", "phase": 3, "seat": 9}, {"kind": "killed", "phase": 4, "seat": 5},
           {"kind": "voted_out", "phase": 5, "seat": 1}]
    data = tournament("fiim", [stage("qualifying", [round_(1, [game("fiim", ten, "red", first_killed=7, log=log,
                                                                     seats={9: {"fouls": 4, "removed": True}})])])])
    t = import_text(json.dumps(data), organizers=[organizer])
    seats = {s.seat.number: (s.left, s.left_number) for s in GameSeat.objects.select_related("seat")}
    assert seats[3] == ("voted", 1) and seats[7] == ("killed", 1) and seats[9] == ("removed", 2)
    assert seats[5] == ("killed", 2) and seats[1] == ("voted", 3) and seats[2] == ("", None)
    row = t.stages.get().rounds.get().tables.get().game
    assert row.phase == 5
    facts = facts_of(row, list(row.seats.select_related("seat").order_by("seat__number")))
    assert facts.derived_first_killed() == 7
    assert {s.number: facts.derived_days(s) for s in facts.seats} == {
        1: 3, 2: 3, 3: 1, 4: 3, 5: 2, 6: 3, 7: 1, 8: 3, 9: 2, 10: 3}


def test_the_dropped_facts_are_said_compactly() -> None:
    """Lines alike but for their numbers are said once with how many there are; past the most, how many kinds more."""
    from exchange.platforms import Said, compact

    lines = (*(f"games[{i}]: master, version (not held by our game)" for i in range(62)), "award: 3",
             *(f"player p{n:04d}: nickname (not held)" for n in range(1, 1001)))
    assert compact(lines) == ([Said("games[0]: master, version (not held by our game)", 62), Said("award: 3", 1),
                               Said("player p0001: nickname (not held)", 1000)], 0)
    many = tuple(f"key {chr(97 + i)}" for i in range(12))
    said, more = compact(many, most=8)
    assert [s.line for s in said] == list(many[:8]) and more == 4


def test_a_large_tournaments_exports_page_stays_small(client: Client, organizer: Any) -> None:
    """200 players: thousands of lines left out, said in a few dozen."""
    from scoring.generate import generate

    data = fileio.dump(generate("fiim", players=200, rounds=3, seed=2))
    t = import_text(json.dumps(data), organizers=[organizer])
    client.force_login(organizer)
    html = client.get(reverse("exchange:exports", args=[t.slug]), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert html.count("<li>") <= 5 * 31
    assert "таких же" in html
