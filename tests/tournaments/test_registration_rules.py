"""The smaller registration rules: kostroma's application period and city of residence, a judge who cannot be a
participant (both ways), the participant cap (registration, the CSV list, the file), accepting or rejecting
applications in bulk, and the settings form."""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from exchange.files import export_data, import_text
from judges.services import staff
from scoring.errors import InvalidTournament
from tournaments.models import Participant, ParticipantStatus, Player
from tournaments.services import registration
from tournaments.services.people import add_players, update_participant

pytestmark = pytest.mark.django_db
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


@pytest.fixture(autouse=True)
def english() -> Any:
    with translation.override("en"):
        yield


@pytest.fixture
def client() -> Client:
    return Client(HTTP_ACCEPT_LANGUAGE="en")


def person(surname: str = "Орлов", **fields: Any) -> Player:
    values = {"first_name": "Иван", "city": "Кострома", "birth_date": dt.date(2003, 1, 1), **fields}
    return Player.objects.create(surname=surname, **values)


# --- kostroma: the application period (2.3) and the city of residence (2.1) ---------------------------------


def test_an_application_outside_the_period_is_refused_with_the_moment(make_tournament: Any) -> None:
    now = timezone.now()
    t = make_tournament("kostroma", applications_open=now + dt.timedelta(days=1))
    with pytest.raises(registration.RegistrationError, match="Applications open on"):
        registration.register(t, person())
    t.applications_open, t.applications_close = now - dt.timedelta(days=2), now - dt.timedelta(days=1)
    t.save()
    with pytest.raises(registration.RegistrationError, match="Applications closed on"):
        registration.register(t, person())
    assert not t.participants.exists()
    t.applications_close = now + dt.timedelta(hours=1)
    t.save()
    assert registration.register(t, person()).participant.status == ParticipantStatus.APPLIED


def test_the_period_is_on_the_registration_page(client: Any, organizer: Any, make_tournament: Any) -> None:
    closes = timezone.now() - dt.timedelta(days=1)
    t = make_tournament("kostroma", applications_close=closes)
    client.force_login(organizer)
    url = reverse("tournaments:participants", kwargs={"slug": t.slug})
    page = client.get(url).content.decode()
    assert 'id="application-period"' in page and "Applications are received until" in page
    assert "Applications closed on" in page
    response = client.post(url, {"surname": "Орлов", "city": "Кострома", "birth_date": "2003-01-01"})
    assert response.status_code == 400 and "Applications closed on" in response.content.decode()
    assert not Player.objects.exists()


def test_fiims_70_is_a_cap_the_71st_is_refused_not_made_a_guest(make_tournament: Any, add_participants: Any) -> None:
    # docs/rules/fiim.md "Format": 70 take part at 7 tables of 10, each plays 7 games; no guest, no bye
    t = make_tournament("fiim", participant_cap=70)
    add_participants(t, 70)
    with pytest.raises(registration.RegistrationError,
                       match=r"at most 70 participants; this would make 71, 1 over\. The regulation: 70 take part, "
                             r"7 tables of 10"):
        registration.register(t, person(birth_date=dt.date(2000, 1, 1)))
    with pytest.raises(registration.RegistrationError, match="at most 70"):
        registration.register(t, person(birth_date=dt.date(2000, 1, 1)), guest=True)
    assert t.participants.count() == 70 and not t.participants.filter(guest=True).exists()
    tomsk = make_tournament("tomsk")  # the contrast: Tomsk 4.1 makes the 97th a guest
    add_participants(tomsk, 96)
    assert registration.register(tomsk, person(birth_date=dt.date(2000, 1, 1))).made_guest


@pytest.mark.parametrize("ruleset", ["tomsk", "fiim", "zvezdy"])
def test_other_rulesets_take_no_applications_so_no_period(make_tournament: Any, ruleset: str) -> None:
    t = make_tournament(ruleset, applications_close=timezone.now() - dt.timedelta(days=1))
    assert registration.register(t, person(city="", birth_date=dt.date(1990, 1, 1))).participant.status == "accepted"


def test_kostroma_admits_residents_of_its_city_only(make_tournament: Any) -> None:
    t = make_tournament("kostroma")  # city: Кострома
    with pytest.raises(registration.RegistrationError, match="city of residence is required") as missing:
        registration.register(t, person(city=""))
    assert missing.value.field == "city"
    with pytest.raises(registration.RegistrationError, match="residents of Кострома only; the player lives in "
                                                               "Ярославль") as other:
        registration.register(t, person(city="Ярославль"))
    assert other.value.field == "city"
    assert registration.register(t, person(city=" КОСТРОМА ")).participant.status == "applied"


def test_the_city_is_a_required_field_of_the_kostroma_form_and_the_csv_list(client: Any, organizer: Any,
                                                                             make_tournament: Any) -> None:
    t = make_tournament("kostroma")
    client.force_login(organizer)
    url = reverse("tournaments:participants", kwargs={"slug": t.slug})
    response = client.post(url, {"surname": "Орлов", "city": "Москва", "birth_date": "2003-01-01"})
    assert response.status_code == 400 and "residents of Кострома only" in response.content.decode()
    text = "surname,city,birth_date\nОрлов,Кострома,2003-01-01\nПетров,Москва,2003-01-01\n"
    response = client.post(reverse("tournaments:import_players", kwargs={"slug": t.slug}), {"text": text})
    assert response.status_code == 400 and "the player lives in Москва" in response.content.decode()
    assert not Player.objects.exists()


@pytest.mark.parametrize("ruleset", ["tomsk", "fiim", "zvezdy"])
def test_other_rulesets_do_not_ask_for_the_city(make_tournament: Any, ruleset: str) -> None:
    t = make_tournament(ruleset)
    assert registration.register(t, person(city="", birth_date=dt.date(1990, 1, 1))).participant.pk


# --- a judge is not a participant (kostroma 3.1; every ruleset) ----------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_judge_cannot_register_and_a_participant_cannot_judge(make_tournament: Any, make_user: Any,
                                                                 ruleset: str) -> None:
    t = make_tournament(ruleset)
    judge, player_user = make_user("judge1"), make_user("player1")
    staff.add_judge(t, judge)
    with pytest.raises(registration.RegistrationError, match="Орлов Иван is a judge of this tournament"):
        registration.register(t, person(user=judge))
    assert not t.participants.exists()
    registration.register(t, person("Петров", user=player_user))
    with pytest.raises(staff.StaffError, match="player1 is Петров Иван, a participant of this tournament"):
        staff.add_judge(t, player_user, chief=True)
    assert not t.judges.filter(user=player_user).exists()
    other = make_tournament(ruleset, slug=f"{ruleset}-other")
    assert staff.add_judge(other, player_user).pk  # another tournament: no conflict


def test_a_rejected_applicant_may_judge_and_linking_a_judge_on_edit_is_refused(make_tournament: Any,
                                                                                 make_user: Any) -> None:
    t = make_tournament("kostroma")
    user, judge = make_user("anna"), make_user("judge1")
    applicant = registration.register(t, person(user=user)).participant
    registration.reject(applicant)
    assert staff.add_judge(t, user).pk
    staff.add_judge(t, judge)
    other = registration.register(t, person("Петров")).participant
    with pytest.raises(registration.RegistrationError, match="Петров Иван is a judge") as error:
        update_participant(other, {"user": judge, "birth_date": dt.date(2003, 1, 1)}, team=None, guest=False)
    assert error.value.field == "user"
    other.player.refresh_from_db()
    assert other.player.user is None


def test_the_pages_refuse_a_judge_as_participant_and_back(client: Any, organizer: Any, make_tournament: Any,
                                                          make_user: Any) -> None:
    t = make_tournament("fiim")
    judge, player_user = make_user("judge1"), make_user("player1")
    staff.add_judge(t, judge)
    client.force_login(organizer)
    url = reverse("tournaments:participants", kwargs={"slug": t.slug})
    response = client.post(url, {"surname": "Орлов", "first_name": "Иван", "user": "judge1"})
    assert response.status_code == 400 and "Орлов Иван is a judge of this tournament" in response.content.decode()
    response = client.post(url, {"surname": "Орлов", "user": "nobody"})
    assert response.status_code == 400 and "There is no user with this name." in response.content.decode()
    assert client.post(url, {"surname": "Петров", "first_name": "Пётр", "user": "player1"}).status_code == 302
    assert Participant.objects.get(tournament=t).player.user == player_user
    response = client.post(reverse("games:staff", kwargs={"slug": t.slug}),
                           {"action": "judge", "username": "player1"})
    assert response.status_code == 400
    assert "player1 is Петров Пётр, a participant of this tournament" in response.content.decode()
    assert not t.judges.filter(user=player_user).exists()


# --- the participant cap --------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_registration_stops_at_the_cap(make_tournament: Any, add_participants: Any, ruleset: str) -> None:
    t = make_tournament(ruleset, participant_cap=3)
    add_participants(t, 3)
    over = "at most 3 participants; this would make 4, 1 over"
    if ruleset == "kostroma":  # an application past the cap waits; accepting it is refused
        waiting = registration.register(t, person(birth_date=dt.date(2000, 1, 1))).participant
        assert waiting.status == ParticipantStatus.APPLIED
        with pytest.raises(registration.RegistrationError, match=over):
            registration.accept(waiting)
        waiting.refresh_from_db()
        assert waiting.status == ParticipantStatus.APPLIED
        waiting.delete()
    else:
        with pytest.raises(registration.RegistrationError, match=over):
            registration.register(t, person(birth_date=dt.date(2000, 1, 1)))
    assert t.participants.count() == 3
    t.participant_cap = None
    t.save()
    assert registration.register(t, person(birth_date=dt.date(2000, 1, 1))).participant.pk


@pytest.mark.parametrize("ruleset", ["tomsk", "fiim", "zvezdy"])
def test_the_csv_list_is_refused_whole_past_the_cap(client: Any, organizer: Any, make_tournament: Any,
                                                    add_participants: Any, ruleset: str) -> None:
    t = make_tournament(ruleset, participant_cap=4)
    add_participants(t, 2)
    text = "surname,birth_date\n" + "".join(f"Игрок{i},1990-01-01\n" for i in range(5))
    client.force_login(organizer)
    response = client.post(reverse("tournaments:import_players", kwargs={"slug": t.slug}), {"text": text})
    assert response.status_code == 400
    assert "at most 4 participants; this would make 7, 3 over" in response.content.decode()
    with pytest.raises(registration.RegistrationError, match="this would make 7, 3 over"):
        add_players(t, [({"surname": f"Игрок{i}"}, None) for i in range(5)])
    assert t.participants.count() == 2


@pytest.mark.parametrize(("ruleset", "cap"), [("tomsk", None), ("kostroma", None), ("fiim", 70), ("zvezdy", None)])
def test_a_new_tournament_proposes_the_regulations_cap(client: Any, organizer: Any, ruleset: str,
                                                      cap: int | None) -> None:
    client.force_login(organizer)
    response = client.get(reverse("site:new_tournament") + f"?ruleset={ruleset}")
    page = response.content.decode()
    assert 'name="participant_cap"' in page
    assert ('name="participant_cap" value="70"' in page) is (cap == 70)
    assert ('name="applications_open"' in page) is (ruleset == "kostroma")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_file_import_refuses_players_past_its_cap(generated: Any, ruleset: str) -> None:
    with pytest.raises(InvalidTournament, match="the file has 20 players, 2 over the cap of 18"):
        generated(f"{ruleset}-capped", players=20, ruleset=ruleset, participant_cap=18)
    t = generated(f"{ruleset}-fits", players=20, ruleset=ruleset, participant_cap=20)
    assert t.participant_cap == 20


# --- bulk decisions on applications ---------------------------------------------------------------------------


def applications(t: Any, n: int) -> list[Participant]:
    return [registration.register(t, person(f"Игрок{i}")).participant for i in range(n)]


def bulk(client: Any, t: Any, decision: str, rows: list[Participant]) -> Any:
    return client.post(reverse("tournaments:decide_many", kwargs={"slug": t.slug}),
                       {"decision": decision, "ids": [p.pk for p in rows]}, follow=True)


def test_bulk_accept_and_reject_are_recorded_with_who(client: Any, organizer: Any, make_tournament: Any) -> None:
    t = make_tournament("kostroma")
    rows = applications(t, 4)
    client.force_login(organizer)
    page = client.get(reverse("tournaments:participants", kwargs={"slug": t.slug})).content.decode()
    assert page.count('form="bulk-decisions"') == 4 and 'data-select-all="ids"' in page
    assert "3 applications are accepted." in bulk(client, t, "accept", rows[:3]).content.decode()
    assert "1 application is rejected." in bulk(client, t, "reject", rows[3:]).content.decode()
    statuses = dict(t.participants.values_list("pk", "status"))
    assert [statuses[p.pk] for p in rows] == ["accepted"] * 3 + ["rejected"]
    for row in rows:
        assert row.history.latest().history_user == organizer


def test_bulk_decisions_are_all_or_nothing(client: Any, organizer: Any, make_tournament: Any) -> None:
    t = make_tournament("kostroma")
    rows = applications(t, 3)
    registration.accept(rows[0])
    client.force_login(organizer)
    body = bulk(client, t, "reject", rows).content.decode()
    assert "Only a waiting application can be rejected (Игрок0 Иван)." in body
    assert list(t.participants.order_by("number").values_list("status", flat=True)) == [
        "accepted", "applied", "applied"]
    assert "Choose at least one application." in bulk(client, t, "accept", []).content.decode()
    other = make_tournament("kostroma", slug="kostroma-other")
    foreign = registration.register(other, person()).participant
    assert "not of this tournament" in bulk(client, t, "accept", [rows[1], foreign]).content.decode()
    assert Participant.objects.get(pk=foreign.pk).status == "applied"


def test_accepting_past_the_cap_is_refused_entirely(client: Any, organizer: Any, make_tournament: Any) -> None:
    t = make_tournament("kostroma", participant_cap=2)
    rows = applications(t, 3)
    registration.accept(rows[0])
    client.force_login(organizer)
    body = bulk(client, t, "accept", rows[1:]).content.decode()
    assert "at most 2 participants; this would make 3, 1 over" in body
    assert t.participants.filter(status="accepted").count() == 1
    registration.accept(rows[2])
    with pytest.raises(registration.RegistrationError, match="at most 2 participants; this would make 3, 1 over"):
        registration.accept(rows[1])
    assert t.participants.filter(status="accepted").count() == 2


# --- the settings form and the file ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_settings_form_saves_and_checks(client: Any, organizer: Any, make_tournament: Any,
                                            add_participants: Any, ruleset: str) -> None:
    t = make_tournament(ruleset)
    add_participants(t, 3)
    client.force_login(organizer)
    url = reverse("tournaments:settings", kwargs={"slug": t.slug})
    response = client.post(url, {"protests_enabled": "false", "participant_cap": "2"})
    assert response.status_code == 400 and "3 participants are accepted already" in response.content.decode()
    response = client.post(url, {"protests_enabled": "true", "participant_cap": "40",
                                 "applications_open": "2026-02-15T10:00", "applications_close": "2026-02-01T10:00"})
    if ruleset == "kostroma":
        assert response.status_code == 400 and "cannot close before they open" in response.content.decode()
    assert client.post(url, {"protests_enabled": "true", "participant_cap": "40",
                             "applications_open": "2026-02-15T10:00"}).status_code == 302
    t.refresh_from_db()
    assert (t.protests_enabled, t.participant_cap) == (True, 40)
    assert (t.applications_open is not None) is (ruleset == "kostroma")  # only where applications are taken
    assert client.post(url, {"protests_enabled": "unknown", "participant_cap": ""}).status_code == 302
    t.refresh_from_db()
    assert (t.protests_enabled, t.participant_cap) == (None, None)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_settings_round_trip_through_the_file(generated: Any, ruleset: str) -> None:
    t = generated(f"{ruleset}-set", players=20, ruleset=ruleset)
    assert not {"protests_enabled", "participant_cap", "applications_open"} & set(export_data(t)["tournament"])
    t.protests_enabled, t.participant_cap = ruleset != "fiim", 30
    t.applications_open = dt.datetime(2026, 2, 15, 9, 0, tzinfo=dt.UTC)
    t.applications_close = dt.datetime(2026, 3, 4, 21, 0, tzinfo=dt.UTC)
    t.save()
    exported = export_data(t)
    assert exported["tournament"]["participant_cap"] == 30
    assert exported["tournament"]["protests_enabled"] is (ruleset != "fiim")
    again = import_text(json.dumps(exported), slug=f"{ruleset}-again")
    assert (again.protests_enabled, again.participant_cap, again.applications_open, again.applications_close) == (
        t.protests_enabled, 30, t.applications_open, t.applications_close)
    assert again.info_other == t.info_other
    assert json.dumps(export_data(again), sort_keys=True) == json.dumps(exported, sort_keys=True)


def test_bad_settings_in_the_file_are_named(generated: Any) -> None:
    with pytest.raises(InvalidTournament) as error:
        generated("bad", players=20, protests_enabled="yes", participant_cap=0, applications_open="soon",
                  applications_close="2026-01-01T00:00:00+03:00")
    text = str(error.value)
    for expected in ("tournament.protests_enabled", "true or false", "tournament.participant_cap",
                     "whole number from 1", "tournament.applications_open", "'soon' is not a date"):
        assert expected in text


def test_a_new_kostroma_tournament_saves_its_cap_and_application_period(client: Any, organizer: Any) -> None:
    from tests.tournaments.test_setup_page import create_post
    from tournaments.models import Tournament

    client.force_login(organizer)
    url = reverse("site:new_tournament")
    bad = create_post(participant_cap="60", applications_open="2026-03-04T18:00",
                      applications_close="2026-02-15T10:00")
    response = client.post(url, bad)
    assert response.status_code == 400 and "Applications cannot close before they open." in response.content.decode()
    good = {**bad, "applications_open": "2026-02-15T10:00", "applications_close": "2026-03-04T18:00"}
    assert client.post(url, good).status_code == 302
    t = Tournament.objects.get(slug="kostroma-cup")
    assert t.participant_cap == 60 and t.applications_open is not None
    assert timezone.localtime(t.applications_close).strftime("%d.%m %H:%M") == "04.03 18:00"
