"""The player registry (docs/registry.md): the matching rule, registering a player who played before, the CSV
list's preview marking each row and its confirmation, and the preview's queries bounded whatever the list's length."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.conftest import PASSWORD
from tournaments.models import Participant, Player, Tournament
from tournaments.services.registry import Typed, Verdict, match_many, match_one

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates


@pytest.fixture
def client(organizer: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.login(username=organizer.username, password=PASSWORD)
    return client


@pytest.fixture
def earlier(organizer: Any) -> Tournament:
    """A tournament played before, where Фёдоров Пётр «Ворон» of club Полночь took part."""
    t = Tournament.objects.create(slug="autumn", name="Осенний кубок", ruleset="fiim", starts=dt.date(2024, 10, 1))
    t.organizers.add(organizer)
    player = Player.objects.create(surname="Фёдоров", first_name="Пётр", nickname="Ворон", club="Полночь",
                                   city="Тверь")
    Participant.objects.create(tournament=t, player=player, number=1, ext_id="p001")
    return t


def voron() -> Player:
    """The player of the earlier tournament (the first one with this nickname)."""
    return Player.objects.filter(nickname="Ворон").earliest("pk")


# --- the rule -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "verdict"), [
    # the same name (as compared: case, ё/е, spaces) and the same nickname: the same person
    (Typed("Фёдоров", "Пётр", nickname="Ворон"), Verdict.EXISTING),
    (Typed("федоров", "петр", nickname="ворон"), Verdict.EXISTING),
    (Typed("  ФЕДОРОВ ", "Петр  ", nickname=" ВОРОН"), Verdict.EXISTING),
    # the same name and the same club, another or no nickname: the same person
    (Typed("Федоров", "Пётр", club="полночь"), Verdict.EXISTING),
    (Typed("Федоров", "Пётр", nickname="Сокол", club="Полночь"), Verdict.EXISTING),
    # the same name alone, or with another nickname and club: maybe
    (Typed("Федоров", "Петр"), Verdict.AMBIGUOUS),
    (Typed("Федоров", "Петр", nickname="Сокол", club="Сплин"), Verdict.AMBIGUOUS),
    # the same nickname and club under another name: maybe (a changed surname, a typo)
    (Typed("Фёдорова", "Пётр", nickname="Ворон", club="Полночь"), Verdict.AMBIGUOUS),
    # nothing shared, or a nickname without the club: a new player
    (Typed("Иванов", "Иван", nickname="Ворон"), Verdict.NEW),
    (Typed("Федоров", "Павел", nickname="Ворон", club="Сплин"), Verdict.NEW),
    (Typed("Федоров", "Пётров", nickname="Ворон"), Verdict.NEW),  # another full name
    # the name with a patronymic one of the two left out, and the nickname: maybe (the same person
    # registered himself twice, once without it, and nobody was asked: found walking as a player)
    (Typed("Федоров", "Пётр", "Иванович", nickname="Ворон"), Verdict.AMBIGUOUS),
])
def test_the_rule(earlier: Tournament, typed: Typed, verdict: Verdict) -> None:
    match = match_one(typed)
    assert match.verdict == verdict
    if verdict == Verdict.EXISTING:
        assert match.proposed is not None and match.proposed.player == voron()
        assert match.proposed.played == 1 and match.proposed.last_tournament == "Осенний кубок"


def test_two_namesakes_with_the_same_club_are_ambiguous(earlier: Tournament) -> None:
    Player.objects.create(surname="Федоров", first_name="Петр", club="Полночь")
    match = match_one(Typed("Федоров", "Петр", club="Полночь"))
    assert match.verdict == Verdict.AMBIGUOUS and len(match.exact) == 2 and match.proposed is None


def test_a_participant_of_the_tournament_is_marked(earlier: Tournament) -> None:
    assert match_one(Typed("Фёдоров", "Пётр", nickname="Ворон"), earlier).candidates[0].registered_here
    assert not match_one(Typed("Фёдоров", "Пётр", nickname="Ворон")).candidates[0].registered_here


def test_keys_follow_a_correction_and_bulk_create(earlier: Tournament) -> None:
    player = voron()
    player.surname = "Фёдорова"
    player.save(update_fields=["surname"])
    assert Player.objects.get(pk=player.pk).name_key == "федорова петр"
    [made] = Player.objects.bulk_create([Player(surname="Ёлкин", nickname="Ёж")])
    assert (Player.objects.get(pk=made.pk).name_key, Player.objects.get(pk=made.pk).nickname_key) == ("елкин", "еж")


def test_a_whole_list_is_one_query(earlier: Tournament) -> None:
    people = [Typed(f"Игрок{i}", "Имя", nickname=f"ник{i}") for i in range(300)] + [Typed("Федоров", "Петр")]
    with CaptureQueriesContext(connection) as queries:
        matches = match_many(people)
    assert len(queries) == 1
    assert [m.verdict for m in matches].count(Verdict.NEW) == 300 and matches[-1].verdict == Verdict.AMBIGUOUS


# --- registration one by one -----------------------------------------------------------------------------------

def typed_voron(**extra: Any) -> dict[str, Any]:
    return {"surname": "Федоров", "first_name": "Петр", "nickname": "Ворон", "city": "", "club": "", **extra}


def test_registering_a_player_who_played_before_asks_then_reuses_them(
        client: Client, tournament: Tournament, earlier: Tournament) -> None:
    url = reverse("tournaments:participants", kwargs={"slug": tournament.slug})
    asked = client.post(url, typed_voron(phone="+7 900 000-00-01"))
    assert asked.status_code == 200 and not tournament.participants.exists()
    html = asked.content.decode()
    assert "Is this the same person?" in html and "Осенний кубок" in html
    same = asked.context["same"]
    assert same["selected"] == str(voron().pk)  # the single exact match is proposed, shown
    answered = client.post(url, {**typed_voron(phone="+7 900 000-00-01"), "shown": same["shown"],
                                 "same_person": same["selected"]})
    assert answered.status_code == 302
    participant = tournament.participants.get()
    assert participant.player == voron() and Player.objects.count() == 1
    assert voron().phone == "+7 900 000-00-01" and voron().city == "Тверь"  # empty details filled, others kept


def test_a_new_player_chosen_is_a_new_entry(client: Client, tournament: Tournament, earlier: Tournament) -> None:
    url = reverse("tournaments:participants", kwargs={"slug": tournament.slug})
    same = client.post(url, typed_voron()).context["same"]
    assert client.post(url, {**typed_voron(), "shown": same["shown"], "same_person": "new"}).status_code == 302
    assert Player.objects.count() == 2 and tournament.participants.get().player != voron()


def test_an_answer_to_other_candidates_is_asked_again(
        client: Client, tournament: Tournament, earlier: Tournament) -> None:
    url = reverse("tournaments:participants", kwargs={"slug": tournament.slug})
    response = client.post(url, {**typed_voron(), "shown": "999", "same_person": "999"})
    assert response.status_code == 200 and response.context["same"] and not tournament.participants.exists()


def test_a_player_registered_already_is_refused_by_name(client: Client, earlier: Tournament) -> None:
    url = reverse("tournaments:participants", kwargs={"slug": earlier.slug})
    asked = client.post(url, typed_voron())
    assert asked.context["same"]["registered"] == voron()
    assert "Фёдоров Пётр «Ворон» is registered in this tournament already" in asked.content.decode()
    refused = client.post(url, {**typed_voron(), "shown": asked.context["same"]["shown"],
                                "same_person": str(voron().pk)})
    assert refused.status_code == 400
    assert "Фёдоров Пётр «Ворон» is registered in this tournament already (number 1)." in refused.content.decode()
    assert earlier.participants.count() == 1


def test_a_player_like_nobody_is_registered_at_once(client: Client, tournament: Tournament) -> None:
    url = reverse("tournaments:participants", kwargs={"slug": tournament.slug})
    assert client.post(url, typed_voron()).status_code == 302 and tournament.participants.count() == 1


# --- the CSV list ---------------------------------------------------------------------------------------------

LIST = "surname,first_name,nickname,club\nФедоров,Петр,Ворон,\nФедоров,Петр,,\nИванов,Иван,Сова,\n"


def import_url(tournament: Tournament) -> str:
    return reverse("tournaments:import_players", kwargs={"slug": tournament.slug})


def test_the_preview_marks_each_row(client: Client, tournament: Tournament, earlier: Tournament) -> None:
    preview = client.post(import_url(tournament), {"text": LIST})
    assert preview.status_code == 200 and preview.context["ready"]
    assert [row.match.verdict for row in preview.context["rows"]] == [
        Verdict.EXISTING, Verdict.AMBIGUOUS, Verdict.NEW]
    html = preview.content.decode()
    assert "existing player (Фёдоров Пётр «Ворон»)" in html and "ambiguous: is this the same person?" in html
    assert "new player" in html and preview.context["verdicts"] == {"existing": 1, "ambiguous": 1, "new": 1}
    assert not Participant.objects.filter(tournament=tournament).exists()


def test_an_ambiguous_row_must_be_answered(client: Client, tournament: Tournament, earlier: Tournament) -> None:
    refused = client.post(import_url(tournament), {"text": LIST, "confirm": "1", "player-2": str(voron().pk)})
    assert refused.status_code == 400
    assert "Line 3: choose whether this is one of the players found or a new player." in refused.content.decode()
    assert not tournament.participants.exists() and Player.objects.count() == 1


def test_the_confirmation_applies_the_answers(client: Client, tournament: Tournament, earlier: Tournament) -> None:
    done = client.post(import_url(tournament), {"text": LIST, "confirm": "1", "player-2": str(voron().pk),
                                                "player-3": "new"})
    assert done.status_code == 302
    players = list(tournament.participants.order_by("number").values_list("player_id", flat=True))
    assert players[0] == voron().pk and len(set(players)) == 3 and Player.objects.count() == 3


def test_one_player_on_two_rows_is_refused(client: Client, tournament: Tournament, earlier: Tournament) -> None:
    refused = client.post(import_url(tournament), {"text": LIST, "confirm": "1", "player-2": str(voron().pk),
                                                   "player-3": str(voron().pk)})
    assert refused.status_code == 400 and "Lines 2 and 3 are both Фёдоров Пётр «Ворон»." in refused.content.decode()
    assert not tournament.participants.exists()


def test_a_row_registered_already_is_refused(client: Client, earlier: Tournament) -> None:
    text = "surname,first_name,nickname\nФедоров,Петр,Ворон\n"
    refused = client.post(import_url(earlier), {"text": text, "confirm": "1", "player-2": str(voron().pk)})
    assert refused.status_code == 400
    assert "Line 2: Фёдоров Пётр «Ворон» is registered in this tournament already." in refused.content.decode()
    assert earlier.participants.count() == 1


def csv_of(rows: int) -> str:
    return "surname,first_name,nickname,club,team\n" + "".join(
        f"Фамилия{i},Имя,ник{i},Клуб,{'Команда' if i % 2 else ''}\n" for i in range(rows))


def test_the_preview_s_queries_do_not_grow_with_the_list(
        client: Client, tournament: Tournament, earlier: Tournament, add_participants: Any) -> None:
    add_participants(earlier, 300, start=2)  # a registry of 300 more, each of them a match of the long list
    Player.objects.filter(nickname__startswith="ник").update(club="Клуб")
    for player in Player.objects.filter(nickname__startswith="ник"):
        player.surname = f"Фамилия{player.nickname[3:]}"
        player.first_name = "Имя"
        player.save()
    counts = []
    for rows in (3, 300):
        with CaptureQueriesContext(connection) as queries:
            assert client.post(import_url(tournament), {"text": csv_of(rows)}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
    with CaptureQueriesContext(connection):
        preview = client.post(import_url(tournament), {"text": csv_of(300)})
    assert sum(row.match.verdict == Verdict.EXISTING for row in preview.context["rows"]) == 298  # not ник0, ник1


def test_the_preview_of_300_rows_takes_at_most_a_few_queries(
        client: Client, tournament: Tournament, django_assert_max_num_queries: Any) -> None:
    with django_assert_max_num_queries(12):
        assert client.post(import_url(tournament), {"text": csv_of(300)}).status_code == 200
