"""A player's private page (/p/SLUG/me/TOKEN/) and the organizer's side of it: the seat now and next, games and
points (hidden standings stay hidden), "why am I ranked here", "I am here", protests, a link revoked, badges with
the QR code, the registry's "same person?" left to the organizer; and the calendars, read by the icalendar
library."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from icalendar import Calendar

from checkin import services as checkin
from checkin.models import CheckInMark, MarkSource
from entries.models import Entry
from entries.services import registering
from games.models import Protest
from tests.entries.helpers import open_registration, typed
from tests.helpers import table
from tournaments.models import Player, Round, Seat

pytestmark = pytest.mark.django_db


def entry_of(participant: Any) -> Entry:
    registering.ensure_entries(participant.tournament)
    return Entry.objects.get(participant=participant)


def me_url(entry: Entry) -> str:
    return f"/p/{entry.tournament.slug}/me/{entry.token}/"


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "tomsk", "zvezdy"])
def test_my_seat_now_highlighted_and_the_next_round(ruleset: str, make_round: Any, client: Any) -> None:
    round_ = make_round(ruleset, tables=2)
    starts = timezone.now().replace(microsecond=0) + dt.timedelta(hours=1)
    Round.objects.filter(pk=round_.pk).update(starts_at=starts)
    Round.objects.create(stage=round_.stage, number=2, starts_at=starts + dt.timedelta(hours=2))
    seat = Seat.objects.filter(round=round_, table__number=2).select_related("participant").order_by("number")[3]
    entry = entry_of(seat.participant)
    answer = client.get(me_url(entry))
    assert answer.status_code == 200
    assert "no-store" in answer["Cache-Control"] and answer["Referrer-Policy"] == "same-origin"
    page = answer.content.decode()
    now = page[page.index('id="me-now"'):page.index('id="me-next"')]
    assert "my-seat" in now and "Table 2, seat 4" in now and "round 1" in now and "starts" in now
    later = page[page.index('id="me-next"'):]
    assert "round 2" in later and "not published yet" in later
    other = Seat.objects.filter(round=round_, table__number=1).select_related("participant").first()
    assert other is not None
    assert "Стол 1, место 1" in Client().get(me_url(entry_of(other.participant))).content.decode()  # Russian
    assert seat.participant.player.surname in page


def test_a_new_link_revokes_the_old(make_round: Any, organizer: Any) -> None:
    round_ = make_round("fiim", tables=1)
    seat = Seat.objects.filter(round=round_).first()
    assert seat is not None
    entry = entry_of(seat.participant)
    old = me_url(entry)
    assert Client().get(old).status_code == 200
    assert Client().get(old + "calendar.ics").status_code == 200
    staff = Client(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_login(organizer)
    page = staff.get(f"/t/{entry.tournament.slug}/registration/").content.decode()
    assert old in page  # the organizer's list shows each player's link
    assert staff.post(f"/t/{entry.tournament.slug}/registration/", {"entry": entry.pk, "action": "link"}) \
        .status_code == 302
    entry.refresh_from_db()
    assert Client().get(old).status_code == 404 and Client().get(old + "calendar.ics").status_code == 404
    assert Client().get(me_url(entry)).status_code == 200
    badge = staff.get(f"/t/{entry.tournament.slug}/registration/badges/{entry.pk}/").content.decode()
    assert "<svg" in badge and seat.participant.player.surname in badge
    every = staff.get(f"/t/{entry.tournament.slug}/registration/badges/").content.decode()
    assert every.count('class="badge-card') == round_.stage.tournament.participants.count()
    # another tournament's token opens nothing here
    assert Client().get(f"/p/no-such/me/{entry.token}/").status_code == 404


def test_i_am_here_through_the_check_in_service(make_round: Any, organizer: Any, client: Any) -> None:
    round_ = make_round("fiim", tables=1)
    tournament = round_.stage.tournament
    seat = Seat.objects.filter(round=round_).first()
    assert seat is not None
    entry = entry_of(seat.participant)
    assert "I am here" not in client.get(me_url(entry)).content.decode()
    day = checkin.open_check_in(tournament, organizer)
    assert "I am here" in client.get(me_url(entry)).content.decode()
    answer = client.post(me_url(entry), {"action": "here", "check_in": day.pk})
    assert answer.status_code == 302
    mark = CheckInMark.objects.get(check_in=day, participant=seat.participant)
    assert mark.present and mark.source == MarkSource.SELF
    assert "You are checked in" in client.get(me_url(entry)).content.decode()
    checkin.close_check_in(day, organizer)
    assert client.post(me_url(entry), {"action": "here", "check_in": day.pk}).status_code == 400


def test_my_protests_and_their_decisions(round_: Any, people: dict[str, Any], client: Any) -> None:
    from games.services import protocol

    first = table(round_, 1)
    game = protocol.open_protocol(first, people["judge"])
    mine = Seat.objects.get(table=first, number=3)
    Protest.objects.create(game=game, seat=3, text="Мне не дали слова", decision="upheld",
                           reason="Слово возвращено")
    Protest.objects.create(game=game, seat=4, text="Чужой протест")
    page = client.get(me_url(entry_of(mine.participant))).content.decode()
    section = page[page.index('id="me-protests"'):]
    assert "Мне не дали слова" in section and "Upheld" in section and "Слово возвращено" in section
    assert "Чужой протест" not in page


@pytest.mark.parametrize("hidden", [False, True])
def test_games_and_points_and_why_unless_hidden(hidden: bool, generated: Any, client: Any) -> None:
    tournament = generated("me-games", players=20, rounds=2, standings_hidden=hidden)
    participant = tournament.participants.order_by("number").first()
    page = client.get(me_url(entry_of(participant))).content.decode()
    games = page[page.index('id="me-games"'):]
    assert "player-games" in games
    assert ("Rank " in games) is not hidden
    assert ("/why/" in games) is not hidden
    assert bool(re.search(r"Points</th>", games)) is not hidden


def test_the_same_person_is_left_to_the_organizer(make_tournament: Any, organizer: Any, client: Any) -> None:
    from tests.conftest import new_tournament

    earlier = new_tournament(organizer, "fiim", "earlier-cup")
    known = Player.objects.create(surname="Орлов1", first_name="Павел", nickname="Орёл1", club="Ночь",
                                  phone="+7 900 111-22-33")
    from tournaments.services import registration

    registration.register(earlier, known)
    tournament = make_tournament("zvezdy")
    open_registration(tournament)
    answer = client.post(f"/p/{tournament.slug}/register/", typed(1, patronymic=""))  # the known one's full name
    assert answer.status_code == 302
    mine = client.get(answer["Location"]).content.decode()
    assert "+7 900 111-22-33" not in mine and "earlier-cup" not in mine and "Same person" not in mine
    entry = Entry.objects.get(tournament=tournament)
    assert entry.participant is not None and entry.participant.player_id != known.pk
    made = entry.participant.player_id
    staff = Client(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_login(organizer)
    page = staff.get(f"/t/{tournament.slug}/registration/").content.decode()
    assert "Is this the same person?" in page and earlier.name in page
    answer = staff.post(f"/t/{tournament.slug}/registration/", {"entry": entry.pk, "action": "same",
                                                                "player": known.pk})
    assert answer.status_code == 302
    entry.participant.refresh_from_db()
    assert entry.participant.player_id == known.pk and not Player.objects.filter(pk=made).exists()
    assert "Is this the same person?" not in staff.get(f"/t/{tournament.slug}/registration/").content.decode()


def test_the_organizer_sets_the_times_and_the_names(make_tournament: Any, organizer: Any, stranger: Any) -> None:
    tournament = make_tournament("fiim")
    url = f"/t/{tournament.slug}/registration/"
    assert Client().get(url).status_code == 302
    other = Client()
    other.force_login(stranger)
    assert other.get(url).status_code == 403 and other.post(url, {"action": "settings"}).status_code == 403
    staff = Client(HTTP_ACCEPT_LANGUAGE="en")
    staff.force_login(organizer)
    bad = staff.post(url, {"action": "settings", "opens": "2025-03-10T10:00", "closes": "2025-03-09T10:00",
                           "coming_names": "full"})
    assert bad.status_code == 400 and "cannot close before it opens" in bad.content.decode()
    assert staff.post(url, {"action": "settings", "opens": "2020-03-01T10:00", "closes": "",
                            "coming_names": "nickname"}).status_code == 302
    assert registering.closed_problem(tournament) is None
    Client().post(f"/p/{tournament.slug}/register/", typed(1))
    coming = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/p/{tournament.slug}/coming/").content.decode()
    assert "Орёл1" in coming and "Орлов1" not in coming
    staff.post(url, {"action": "settings", "opens": "2020-03-01T10:00", "coming_names": "count"})
    coming = Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/p/{tournament.slug}/coming/").content.decode()
    assert "Орёл1" not in coming and "1 participant" in coming


def calendar_of(response: Any) -> Calendar:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "tomsk", "zvezdy"])
def test_the_calendars(ruleset: str, make_round: Any) -> None:
    round_ = make_round(ruleset, tables=1)
    tournament = round_.stage.tournament
    tournament.venue = "Клуб «Полночь», ул. Ленина, 1"
    tournament.save()
    starts = dt.datetime(2025, 3, 15, 11, 0, tzinfo=dt.UTC)
    Round.objects.filter(pk=round_.pk).update(starts_at=starts)
    Round.objects.create(stage=round_.stage, number=2, starts_at=starts + dt.timedelta(hours=2))
    cal = calendar_of(Client(HTTP_ACCEPT_LANGUAGE="en").get(f"/p/{tournament.slug}/calendar.ics"))
    events = {str(e["UID"]): e for e in cal.walk("VEVENT")}
    assert len(events) == 4  # the days, the stage, its two rounds
    rounds = sorted((e for e in events.values() if "round" in str(e["SUMMARY"])), key=lambda e: e.start)
    assert [e.start for e in rounds] == [starts, starts + dt.timedelta(hours=2)]
    assert all("Ленина" in str(e["LOCATION"]) for e in events.values())
    days = next(e for e in events.values() if str(e["SUMMARY"]) == tournament.name)
    assert days.start == dt.date(2025, 3, 15) and days.end == dt.date(2025, 3, 17)
    # the stage's event says its rounds and their times («1 тур со временем начала» said nothing usable)
    ru = calendar_of(Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{tournament.slug}/calendar.ics"))
    stage = next(e for e in ru.walk("VEVENT") if "stage-" in str(e["UID"]))
    local = timezone.localtime(starts)
    assert str(stage["DESCRIPTION"]) == (f"2 тура: тур 1 — 15 марта, {local:%H:%M}, "
                                        f"тур 2 — 15 марта, {local + dt.timedelta(hours=2):%H:%M}.")
    seat = Seat.objects.filter(round=round_).select_related("table").order_by("number")[1]
    entry = entry_of(seat.participant)
    mine = calendar_of(Client(HTTP_ACCEPT_LANGUAGE="en").get(me_url(entry) + "calendar.ics"))
    first = next(e for e in mine.walk("VEVENT") if str(e["SUMMARY"]).endswith("round 1: table 1, seat 2"))
    assert me_url(entry) in str(first["DESCRIPTION"])
    # a start time moved: the calendar read again says so, under the same UID
    Round.objects.filter(pk=round_.pk).update(starts_at=starts + dt.timedelta(minutes=30))
    again = calendar_of(Client().get(f"/p/{tournament.slug}/calendar.ics"))
    moved = {str(e["UID"]): e.start for e in again.walk("VEVENT")}
    assert moved[str(rounds[0]["UID"])] == starts + dt.timedelta(minutes=30)


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "tomsk", "zvezdy"])
def test_a_withdrawal_is_said_as_what_was_withdrawn(ruleset: str, make_tournament: Any) -> None:
    """«Заявка отозвана» after a fiim player's withdrawal (found walking as a player): only kostroma takes
    applications; the others' players registered."""
    tournament = make_tournament(ruleset)
    open_registration(tournament)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    assert client.post(f"/p/{tournament.slug}/register/", typed(1)).status_code == 302
    entry = Entry.objects.get(tournament=tournament)
    registering.withdraw(entry)
    page = client.get(me_url(entry)).content.decode()
    said = "Заявка отозвана" if ruleset == "kostroma" else "Регистрация отменена"
    assert said in page and ({"Заявка отозвана", "Регистрация отменена"} - {said}).pop() not in page


@pytest.mark.parametrize("ruleset", ["fiim", "tomsk", "zvezdy"])  # kostroma asks every applicant's patronymic
def test_the_same_person_without_the_patronymic_is_asked_about(ruleset: str, make_tournament: Any,
                                                              organizer: Any) -> None:
    """«Иванов Пётр Сергеевич» «Шмель» registered, then «Иванов Петр» «шмель» without the patronymic: taken as
    someone else, and the organizer was not asked (found walking as a player)."""
    tournament = make_tournament(ruleset)
    open_registration(tournament)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    first = typed(1, surname="Иванов", first_name="Пётр", patronymic="Сергеевич", nickname="Шмель",
                  birth_date="1990-05-05")
    assert client.post(f"/p/{tournament.slug}/register/", first).status_code == 302
    again = {**first, "first_name": "Петр", "patronymic": "", "nickname": "шмель", "email": "petr3@example.org"}
    assert client.post(f"/p/{tournament.slug}/register/", again).status_code == 302
    staff = Client(HTTP_ACCEPT_LANGUAGE="ru")
    staff.force_login(organizer)
    page = staff.get(f"/t/{tournament.slug}/registration/").content.decode()
    assert "Это тот же человек?" in page and "то же имя и ник, у одного нет отчества" in page
