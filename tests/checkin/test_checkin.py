"""Check-in at the venue (docs/check-in.md): ticks and unticks, idempotent and concurrent; the missing marked absent
from a round through the existing absences and undone, under every regulation; the pages' permissions and query
counts; the volunteer's link and the door's QR page allow only what they should."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from checkin import services as checkin
from checkin.models import CheckIn, CheckInMark, CheckInState, MarkSource, NoShow
from running.services import no_shows, planning
from tournaments.errors import SeatingError
from tournaments.models import Round, RoundState, Stage

pytestmark = pytest.mark.django_db

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


@pytest.fixture
def day(tournament: Any, organizer: Any, add_participants: Any) -> CheckIn:
    add_participants(tournament, 20)
    return checkin.open_check_in(tournament, organizer)


def test_tick_untick_and_the_same_tick_twice(day: CheckIn, organizer: Any) -> None:
    first, second = checkin.expected(day)[:2]
    checkin.tick(day, first.pk, True, by=organizer, source=MarkSource.ORGANIZER)
    mark = checkin.tick(day, first.pk, True, by=None, source=MarkSource.SELF)  # again: nothing changes
    assert (mark.present, mark.by, mark.source) == (True, organizer, MarkSource.ORGANIZER)
    checkin.tick(day, second.pk, True, by=organizer, source=MarkSource.ORGANIZER)
    checkin.tick(day, first.pk, False, by=organizer, source=MarkSource.ORGANIZER)
    roll = checkin.roll(day)
    assert (roll.present, roll.total, len(roll.missing)) == (1, 20, 19)
    assert roll.rows[-1].participant == second  # the missing come first
    assert CheckInMark.objects.filter(check_in=day).count() == 2


def test_a_closed_session_takes_no_tick_and_reopens(day: CheckIn, organizer: Any) -> None:
    player = checkin.expected(day)[0]
    checkin.close_check_in(day, organizer)
    with pytest.raises(checkin.CheckInError):
        checkin.tick(day, player.pk, True, by=organizer, source=MarkSource.ORGANIZER)
    with pytest.raises(checkin.CheckInError):
        checkin.close_check_in(day, organizer)
    checkin.reopen_check_in(day)
    assert checkin.tick(day, player.pk, True, by=organizer, source=MarkSource.ORGANIZER).present
    assert checkin.open_check_in(day.tournament, organizer) == day  # one open session for the day


def test_someone_not_on_the_list_is_refused(day: CheckIn, organizer: Any, make_tournament: Any,
                                            add_participants: Any) -> None:
    theirs = add_participants(make_tournament("fiim", slug="theirs"), 1, start=50)[0]
    with pytest.raises(checkin.CheckInError):
        checkin.tick(day, theirs.pk, True, by=organizer, source=MarkSource.ORGANIZER)


def test_a_row_made_by_the_other_phone_meanwhile_is_updated(day: CheckIn, organizer: Any, monkeypatch: Any) -> None:
    """The race on SQLite too: the other phone inserts the player's row between this tick's look and its insert;
    the insert fails on the unique constraint and this tick updates that row instead."""
    from django.db.models.query import QuerySet
    from django.utils import timezone

    player = checkin.expected(day)[0]
    CheckInMark.objects.create(check_in=day, participant=player, present=False, at=timezone.now(),
                               source=MarkSource.VOLUNTEER)  # the other phone's row...
    first = QuerySet.first

    def not_seen_yet(self: Any) -> Any:  # ...not there yet when this tick looked
        monkeypatch.setattr(QuerySet, "first", first)
        return None

    monkeypatch.setattr(QuerySet, "first", not_seen_yet)
    mark = checkin.tick(day, player.pk, True, by=organizer, source=MarkSource.ORGANIZER)
    assert mark.present and CheckInMark.objects.get().present


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers need PostgreSQL (DATABASE_URL)")
def test_two_phones_at_once_lose_nothing(tournament: Any, organizer: Any, add_participants: Any) -> None:
    """Two threads (two connections) tick ten players each, and the same player both: every tick stays, one row
    a player."""
    add_participants(tournament, 20)
    session = checkin.open_check_in(tournament, organizer)
    people = [p.pk for p in checkin.expected(session)]
    errors: list[BaseException] = []

    def phone(mine: list[int]) -> None:
        try:
            for pk in mine:
                checkin.tick(session, pk, True, by=organizer, source=MarkSource.VOLUNTEER)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=phone, args=([*people[:10], people[19]],)),
               threading.Thread(target=phone, args=(people[10:],))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert CheckInMark.objects.filter(check_in=session, present=True).count() == 20


def seat_draft(tournament: Any, organizer: Any) -> Round:
    """The next round of the tournament's first stage with rounds to come, seated as a draft."""
    stage = Stage.objects.filter(tournament=tournament).order_by("order").first()
    assert stage is not None
    return planning.generate_next_round(stage, seed=3)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_missing_marked_absent_and_back_under_every_regulation(ruleset: str, generated: Any, organizer: Any,
                                                               client: Any) -> None:
    tournament = generated(f"{ruleset}-day", players=24 if ruleset == "tomsk" else 20, rounds=1, ruleset=ruleset)
    round_ = seat_draft(tournament, organizer)
    session = checkin.open_check_in(tournament, organizer, stage=round_.stage, round_number=round_.number)
    players = checkin.expected(session)
    for participant in players[2:]:
        checkin.tick(session, participant.pk, True, by=organizer, source=MarkSource.ORGANIZER)
    url = reverse("running:round", kwargs={"slug": tournament.slug, "stage": round_.stage.ext_id,
                                           "number": round_.number})
    client.force_login(organizer)
    page = client.get(url).content.decode()
    assert 'id="mark-missing"' in page and players[0].player.full_name in page
    assert client.post(url, {"action": "no_shows"}).status_code == 302
    round_.refresh_from_db()
    away = set(round_.absences.values_list("participant_id", flat=True))
    assert away == {players[0].pk, players[1].pk}
    seated = set(round_.seats.values_list("participant_id", flat=True)) | set(
        round_.byes.values_list("participant_id", flat=True))
    assert not seated & away and seated == {p.pk for p in players[2:]}
    record = NoShow.objects.get(round=round_, participant=players[0])
    assert record.marked_by == organizer and record.restored_at is None
    # the regulation's consequence, as the existing absences: the file carries them for scoring
    assert client.post(url, {"action": "no_shows"}).status_code == 400  # no one is missing now
    assert client.post(url, {"action": "no_shows", "restore": "1"}).status_code == 302
    assert not round_.absences.exists()
    assert round_.seats.filter(participant=players[0]).exists() or round_.byes.filter(participant=players[0]).exists()
    record.refresh_from_db()
    assert record.restored_by == organizer and record.restored_at is not None


def test_the_day_session_speaks_for_a_round_and_a_published_round_is_refused(generated: Any, organizer: Any) -> None:
    tournament = generated("day-cup", players=20, rounds=1)
    round_ = seat_draft(tournament, organizer)
    day_session = checkin.open_check_in(tournament, organizer)
    assert checkin.for_round(round_) == day_session
    own = checkin.open_check_in(tournament, organizer, stage=round_.stage, round_number=round_.number)
    assert checkin.for_round(round_) == own
    Round.objects.filter(pk=round_.pk).update(state=RoundState.PUBLISHED)
    with pytest.raises(SeatingError):
        no_shows.mark_missing_absent(Round.objects.get(pk=round_.pk), own, organizer)


# --- pages --------------------------------------------------------------------------------------------------


def urls(session: CheckIn) -> dict[str, str]:
    slug = session.tournament.slug
    return {
        "list": reverse("running:checkins", kwargs={"slug": slug}),
        "phone": reverse("running:checkin_phone", kwargs={"slug": slug, "pk": session.pk}),
        "door": reverse("running:checkin_door", kwargs={"slug": slug, "pk": session.pk}),
        "volunteer": reverse("running:checkin_volunteer", kwargs={"slug": slug, "token": session.volunteer_token}),
        "self": reverse("running:checkin_self", kwargs={"slug": slug, "token": session.door_token}),
    }


def test_organizer_pages_refuse_anonymous_and_other_organizers(day: CheckIn, make_user: Any) -> None:
    rival = make_user("rival", can_create=True)
    for name in ("list", "phone", "door"):
        url = urls(day)[name]
        assert Client().get(url).status_code == 302
        other = Client()
        other.force_login(rival)
        assert other.get(url).status_code == 403
    participant = checkin.expected(day)[0]
    other = Client()
    other.force_login(rival)
    assert other.post(urls(day)["phone"], {"participant": participant.pk, "present": "1"}).status_code == 403
    assert not CheckInMark.objects.exists()


def test_opening_from_the_list_page(tournament: Any, organizer: Any, client: Any, add_participants: Any) -> None:
    add_participants(tournament, 10)
    stage = Stage.objects.create(tournament=tournament, ext_id="q", kind="qualifying", order=1)
    client.force_login(organizer)
    url = reverse("running:checkins", kwargs={"slug": tournament.slug})
    assert client.post(url, {"action": "open", "stage": "q", "round": "x"}).status_code == 400
    response = client.post(url, {"action": "open", "stage": "q", "round": "2"})
    session = CheckIn.objects.get()
    assert (session.stage, session.round_number, session.opened_by) == (stage, 2, organizer)
    assert response["Location"] == urls(session)["phone"]
    old = session.volunteer_token
    client.post(url, {"action": "links", "session": session.pk})
    assert Client().get(reverse("running:checkin_volunteer", kwargs={"slug": tournament.slug, "token": old})
                        ).status_code == 404
    client.post(url, {"action": "close", "session": session.pk})
    session.refresh_from_db()
    assert session.state == CheckInState.CLOSED and session.closed_by == organizer


def test_the_volunteer_link_ticks_only_its_session_while_open(day: CheckIn, organizer: Any, make_tournament: Any
                                                              ) -> None:
    volunteer = Client(HTTP_ACCEPT_LANGUAGE="ru")
    participant = checkin.expected(day)[3]
    page = volunteer.get(urls(day)["volunteer"])
    assert page.status_code == 200 and "Пришли: <strong" in page.content.decode()
    answer = volunteer.post(urls(day)["volunteer"], {"participant": participant.pk, "present": "1"},
                            HTTP_ACCEPT="application/json")
    assert answer.json() == {"participant": participant.pk, "present": True}
    mark = CheckInMark.objects.get()
    assert mark.source == MarkSource.VOLUNTEER and mark.by is None
    # the token opens nothing else: not the organizer's pages, not another tournament's address
    assert volunteer.get(urls(day)["list"]).status_code == 302
    make_tournament("fiim", slug="theirs")
    other = reverse("running:checkin_volunteer", kwargs={"slug": "theirs", "token": day.volunteer_token})
    assert volunteer.get(other).status_code == 404
    assert volunteer.get(reverse("running:checkin_volunteer", kwargs={"slug": day.tournament.slug,
                                                                      "token": day.door_token})).status_code == 404
    checkin.close_check_in(day, organizer)
    assert volunteer.get(urls(day)["volunteer"]).status_code == 404
    assert volunteer.post(urls(day)["volunteer"], {"participant": participant.pk, "present": "0"}).status_code == 404
    assert CheckInMark.objects.get().present


def test_the_door_page_checks_in_one_player_a_phone(day: CheckIn, organizer: Any, client: Any) -> None:
    first, second = checkin.expected(day)[:2]
    player = Client(HTTP_ACCEPT_LANGUAGE="ru")
    page = player.get(urls(day)["self"]).content.decode()
    assert "Я здесь" in page and first.player.full_name in page
    assert player.post(urls(day)["self"], {"participant": first.pk}).status_code == 302
    assert "вы отмечены" in player.get(urls(day)["self"]).content.decode()
    assert player.post(urls(day)["self"], {"participant": second.pk}).status_code == 403  # one a phone
    assert player.post(urls(day)["self"], {"participant": first.pk}).status_code == 302  # the same again: fine
    mark = CheckInMark.objects.get()
    assert (mark.participant, mark.source, mark.present) == (first, MarkSource.SELF, True)
    # the door's token ticks nothing else and takes nothing back
    assert player.post(urls(day)["volunteer"].replace(day.volunteer_token, day.door_token),
                       {"participant": first.pk, "present": "0"}).status_code == 404
    checkin.close_check_in(day, organizer)
    assert Client().get(urls(day)["self"]).status_code == 404
    client.force_login(organizer)
    door = client.get(urls(day)["door"]).content.decode()
    assert "<svg" in door and day.door_token in door


def test_the_door_page_is_rate_limited(day: CheckIn, settings: Any, monkeypatch: Any) -> None:
    from checkin.views import links as views

    monkeypatch.setattr(views, "SELF_LIMIT", 3)
    monkeypatch.setattr(views, "SELF_WINDOW", 86400)  # the counter's window starts at a fixed moment: none inside
    people = checkin.expected(day)[:1]  # the floor (3) is more than twice the expected players here
    monkeypatch.setattr(checkin, "expected", lambda check_in: people)
    statuses = [Client().post(urls(day)["self"], {"participant": people[0].pk}).status_code for _n in range(5)]
    assert statuses == [302, 302, 302, 403, 403]


def test_the_door_bound_grows_with_the_check_in(day: CheckIn, monkeypatch: Any) -> None:
    """A large day behind one Wi-Fi address: twice the expected players may check in from it, past the floor."""
    from checkin.views import links as views

    monkeypatch.setattr(views, "SELF_LIMIT", 3)
    monkeypatch.setattr(views, "SELF_WINDOW", 86400)  # the counter's window starts at a fixed moment: none inside
    people = checkin.expected(day)
    assert len(people) >= 3
    taps = 2 * len(people)
    statuses = [Client().post(urls(day)["self"], {"participant": people[n % len(people)].pk}).status_code
                for n in range(taps + 1)]
    assert statuses == [302] * taps + [403]


def test_query_counts(day: CheckIn, organizer: Any, client: Any, add_participants: Any) -> None:
    """Fixed whatever the number of players or marks."""
    client.force_login(organizer)
    for more in (0, 30):
        add_participants(day.tournament, more, start=100)
        for participant in checkin.expected(day)[: 5 + more]:
            checkin.tick(day, participant.pk, True, by=organizer, source=MarkSource.ORGANIZER)
        counts = {}
        for name in ("list", "phone", "door", "volunteer", "self"):
            anyone = Client() if name in ("volunteer", "self") else client
            with CaptureQueriesContext(connection) as queries:
                assert anyone.get(urls(day)[name]).status_code == 200
            counts[name] = len(queries)
        assert counts == EXPECTED_QUERIES, counts


# the organizer's pages: session, user, tournament, organizer check (+ the page's own); the token pages: the
# tournament, the session, the players, the marks (the door's page: the players only)
EXPECTED_QUERIES = {"list": 8, "phone": 9, "door": 7, "volunteer": 4, "self": 3}
