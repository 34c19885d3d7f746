"""The tournament file's players and the player registry (docs/registry.md): the import page shows who is found
before anything is saved and applies the answers after the confirmation; ``import_tournament`` matches only with
``--match-players`` and prints the slug alone either way; the export is the same file."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from exchange.files import export_data
from tests.helpers import played_file
from tournaments.models import Participant, Player, Tournament
from tournaments.services.registry import Verdict

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates


def file_of(**names: tuple[str, str | None]) -> dict[str, Any]:
    """A played fiim file of 10 players, some of them renamed (id → name, nickname)."""
    data = played_file(10, 1)
    for player in data["players"]:
        if player["id"] in names:
            player["name"], nickname = names[player["id"]]
            if nickname:
                player["nickname"] = nickname
    return data


@pytest.fixture
def known() -> dict[str, Player]:
    """The registry before the import: Петров Пётр «Лис» (one of him), and two Сидоров Иван without nicknames."""
    earlier = Tournament.objects.create(slug="earlier", name="Прошлый турнир", ruleset="fiim")
    people = {"fox": Player.objects.create(surname="Петров", first_name="Пётр", nickname="Лис"),
              "sid1": Player.objects.create(surname="Сидоров", first_name="Иван", club="Полночь"),
              "sid2": Player.objects.create(surname="Сидоров", first_name="Иван", club="Сплин")}
    for number, player in enumerate(people.values(), start=1):
        Participant.objects.create(tournament=earlier, player=player, number=number, ext_id=f"p{number:03d}")
    return people


SOURCE = file_of(p001=("петров петр", "лис"), p002=("Сидоров Иван", None))


@pytest.fixture
def client(organizer: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(organizer)
    return client


def upload(client: Client, data: dict[str, Any]) -> Any:
    return client.post(reverse("site:import_tournament"),
                       {"file": SimpleUploadedFile("t.json", json.dumps(data).encode())})


def test_the_matches_are_shown_before_anything_is_saved(client: Client, known: dict[str, Player]) -> None:
    shown = upload(client, SOURCE)
    assert shown.status_code == 200 and Tournament.objects.count() == 1 and Player.objects.count() == 3
    rows = {row.player.id: row for row in shown.context["rows"]}
    assert rows["p001"].match.verdict == Verdict.EXISTING and rows["p001"].selected == str(known["fox"].pk)
    assert rows["p002"].match.verdict == Verdict.AMBIGUOUS and rows["p002"].selected == ""
    assert rows["p003"].match.verdict == Verdict.NEW
    html = shown.content.decode()
    assert "existing player (Петров Пётр «Лис»)" in html and "ambiguous: is this the same person?" in html


def test_the_answers_are_applied_after_the_confirmation(client: Client, known: dict[str, Player]) -> None:
    token = upload(client, SOURCE).context["token"]
    unanswered = client.post(reverse("site:import_tournament"), {"token": token, "player-p001": known["fox"].pk})
    assert unanswered.status_code == 400 and Tournament.objects.count() == 1
    assert "p002 (Сидоров Иван): choose whether" in unanswered.content.decode()
    done = client.post(reverse("site:import_tournament"), {"token": token, "player-p001": known["fox"].pk,
                                                           "player-p002": known["sid2"].pk})
    assert done.status_code == 302
    tournament = Tournament.objects.exclude(slug="earlier").get()
    by_id = {p.ext_id: p.player for p in tournament.participants.select_related("player")}
    assert by_id["p001"] == known["fox"] and by_id["p002"] == known["sid2"]
    assert Player.objects.count() == 3 + 8  # the eight others are new players
    assert known["fox"].participations.count() == 2
    # the file's ids are the participants', unchanged; a player found in the registry is named as it names them
    exported = export_data(tournament)
    assert [p["id"] for p in exported["players"]] == [p["id"] for p in SOURCE["players"]]
    assert exported["players"][0]["name"] == "Петров Пётр" and exported["players"][0]["nickname"] == "Лис"


def test_a_new_player_answer_makes_new_entries(client: Client, known: dict[str, Player]) -> None:
    token = upload(client, SOURCE).context["token"]
    done = client.post(reverse("site:import_tournament"), {"token": token, "player-p001": "new",
                                                           "player-p002": "new"})
    assert done.status_code == 302 and Player.objects.count() == 3 + 10


def test_one_registry_player_for_two_file_players_is_refused(client: Client, known: dict[str, Player]) -> None:
    token = upload(client, file_of(p002=("Сидоров Иван", None), p003=("Сидоров Иван", None))).context["token"]
    refused = client.post(reverse("site:import_tournament"), {"token": token, "player-p002": known["sid1"].pk,
                                                              "player-p003": known["sid1"].pk})
    assert refused.status_code == 400 and Tournament.objects.count() == 1
    assert "p002 (Сидоров Иван) and p003 (Сидоров Иван) are both Сидоров Иван" in refused.content.decode()


def test_a_token_not_kept_is_refused(client: Client, known: dict[str, Player]) -> None:
    refused = client.post(reverse("site:import_tournament"), {"token": "nothing-kept"})
    assert refused.status_code == 400 and "upload it again" in refused.content.decode()


def test_another_user_cannot_use_the_token(client: Client, known: dict[str, Player], make_user: Any) -> None:
    token = upload(client, SOURCE).context["token"]
    other = Client(HTTP_ACCEPT_LANGUAGE="en")
    other.force_login(make_user("other", can_create=True))
    assert other.post(reverse("site:import_tournament"), {"token": token, "player-p001": "new",
                                                          "player-p002": "new"}).status_code == 400
    assert Tournament.objects.count() == 1


def test_a_file_of_new_players_imports_at_once(client: Client, known: dict[str, Player]) -> None:
    assert upload(client, played_file(10, 1)).status_code == 302


def test_the_command_does_not_match_by_default(known: dict[str, Player], tmp_path: Any) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(SOURCE), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), stdout=out, stderr=err)
    slug = out.getvalue().strip()
    assert out.getvalue() == f"{slug}\n" and not err.getvalue()
    assert Player.objects.count() == 3 + 10 and known["fox"].participations.count() == 1


def test_the_command_matches_exact_ones_with_the_option(known: dict[str, Player], tmp_path: Any) -> None:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(SOURCE), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), "--match-players", stdout=out, stderr=err)
    slug = out.getvalue().strip()
    assert out.getvalue() == f"{slug}\n"  # the slug alone, as scripts read it
    tournament = Tournament.objects.get(slug=slug)
    assert tournament.participants.get(ext_id="p001").player == known["fox"]
    assert tournament.participants.get(ext_id="p002").player not in (known["sid1"], known["sid2"])  # ambiguous
    assert Player.objects.count() == 3 + 9
    assert f"p001: the registry's player {known['fox'].pk}" in err.getvalue()
    assert [p["id"] for p in export_data(tournament)["players"]] == [p["id"] for p in SOURCE["players"]]
