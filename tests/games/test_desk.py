"""The chief judge's desk: a round's tables as cards with their states and counts, the waiting ones
first (oldest submission first); a one-tap confirmation of exactly the version looked at (a newer one is refused,
saying so); "send back with a comment" (a draft again, the comment shown to the judge); the round chooser."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameState, Protest
from games.permissions import staff_of
from games.services import desk
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from judges.services import staff
from tests.helpers import ROLES, table
from tournaments.models import Round, RoundState, Table

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates


def played(facts: ProtocolFacts) -> None:
    for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
        seat.role = role
    facts.winner = "red"


def submitted(round_: Any, number: int, user: Any, at: dt.datetime | None = None) -> Game:
    game = service.open_protocol(table(round_, number), user)
    game = service.change(game, user, game.version, played)
    game = service.submit(game, user, game.version)
    if at is not None:
        Game.objects.filter(pk=game.pk).update(submitted_at=at)
        game.refresh_from_db()
    return game


@pytest.fixture
def day(make_round: Any, make_user: Any) -> dict[str, Any]:
    """Six tables: 1 submitted late, 2 not started, 3 in play, 4 submitted early, 5 confirmed, 6 protested."""
    round_ = make_round("fiim", tables=6)
    tournament = round_.stage.tournament
    chief = make_user("chief")
    staff.add_judge(tournament, chief, chief=True)
    organizer = tournament.organizers.get()
    now = timezone.now()
    submitted(round_, 1, organizer, now - dt.timedelta(minutes=2))
    service.open_protocol(table(round_, 3), organizer)
    submitted(round_, 4, organizer, now - dt.timedelta(minutes=9))
    five = submitted(round_, 5, organizer)
    service.confirm(five, staff_of(chief, tournament), chief, five.version)
    six = submitted(round_, 6, organizer)
    Protest.objects.create(game=six, seat=3, text="no speech")
    decided = submitted(round_, 2, organizer)  # a decided protest leaves the card as it is
    Protest.objects.create(game=decided, seat=1, text="x", decision="rejected")
    Game.objects.filter(pk=decided.pk).delete()  # then table 2 has not started after all
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(chief)
    return {"round": round_, "t": tournament, "chief": chief, "organizer": organizer, "client": client,
            "url": reverse("games:desk", args=[tournament.slug])}


def test_the_cards_the_waiting_first_and_the_counts(day: dict[str, Any]) -> None:
    cards = desk.cards(day["round"])
    assert [(c.number, c.state) for c in cards] == [
        (4, "submitted"), (1, "submitted"), (6, "protested"), (3, "in_play"), (2, "not_started"), (5, "confirmed")]
    assert dict((s, n) for s, _label, n in desk.counts(cards)) == {
        "submitted": 2, "protested": 1, "in_play": 1, "not_started": 1, "confirmed": 1}


def test_the_page_shows_the_cards_in_that_order(day: dict[str, Any], django_assert_max_num_queries: Any) -> None:
    response = day["client"].get(day["url"])
    html = response.content.decode()
    assert response.status_code == 200
    order = [html.index(f'id="table-{n}"') for n in (4, 1, 6, 3, 2, 5)]
    assert order == sorted(order)
    assert 'data-hx-trigger="every 10s, visible-again"' in html and html.count('value="confirm"') == 2
    assert '<span class="count">2</span>' in html
    for number in range(1, 7):
        assert reverse("games:protocol", args=[day["t"].slug, table(day["round"], number).pk]) in html
    # htmx polls get the cards alone, in a fixed number of queries
    with django_assert_max_num_queries(14):
        fragment = day["client"].get(day["url"], HTTP_HX_REQUEST="true").content.decode()
    assert fragment.startswith('\n<div id="desk"') or fragment.lstrip().startswith('<div id="desk"')
    assert "<html" not in fragment


def test_one_tap_confirms_the_version_looked_at(day: dict[str, Any]) -> None:
    four = Game.objects.get(table=table(day["round"], 4))
    url = reverse("games:desk_action", args=[day["t"].slug, four.table_id])
    response = day["client"].post(url, {"action": "confirm", "version": four.version})
    assert response.status_code == 302 and response["Location"].endswith(f"?round={day['round'].pk}#table-4")
    four.refresh_from_db()
    assert four.state == GameState.CONFIRMED and four.confirmed_by == day["chief"]


def test_a_newer_version_is_not_confirmed(day: dict[str, Any]) -> None:
    one = Game.objects.get(table=table(day["round"], 1))
    looked_at = one.version
    service.change(one, day["organizer"], one.version, lambda f: setattr(f, "notes", "a note"))  # meanwhile
    url = reverse("games:desk_action", args=[day["t"].slug, one.table_id])
    response = day["client"].post(url, {"action": "confirm", "version": looked_at}, follow=True)
    one.refresh_from_db()
    assert one.state == GameState.SUBMITTED
    text = response.content.decode()
    assert f"Table 1: The protocol was changed meanwhile (version {one.version}" in text
    assert f"based on version {looked_at} and was not saved" in text


def test_send_back_with_a_comment(day: dict[str, Any]) -> None:
    one = Game.objects.get(table=table(day["round"], 1))
    url = reverse("games:desk_action", args=[day["t"].slug, one.table_id])
    refused = day["client"].post(url, {"action": "send_back", "version": one.version, "comment": "  "}, follow=True)
    assert "the comment is empty" in refused.content.decode()
    day["client"].post(url, {"action": "send_back", "version": one.version, "comment": "Seat 3's foul is missing"})
    one.refresh_from_db()
    assert one.state == GameState.DRAFT and one.sent_back_comment == "Seat 3's foul is missing"
    assert one.submitted_at is None and one.history.first().history_change_reason == \
        "sent back: Seat 3's foul is missing"
    # the judge sees the comment on the protocol and the list
    judge_client = Client(HTTP_ACCEPT_LANGUAGE="en")
    judge_client.force_login(day["organizer"])
    page = judge_client.get(reverse("games:protocol", args=[day["t"].slug, one.table_id])).content.decode()
    assert 'id="sent-back"' in page and "Seat 3&#x27;s foul is missing" in page
    assert "Seat 3&#x27;s foul is missing" in judge_client.get(
        reverse("games:protocols", args=[day["t"].slug])).content.decode()
    # a draft is not sent back again; submitting again clears the comment
    with pytest.raises(service.ProtocolError):
        service.send_back(one, staff_of(day["chief"], day["t"]), day["chief"], one.version, "again")
    one = service.submit(one, day["organizer"], one.version)
    assert one.state == GameState.SUBMITTED and one.sent_back_comment == ""


def test_send_back_rules(day: dict[str, Any], make_user: Any) -> None:
    one = Game.objects.get(table=table(day["round"], 1))
    chief = staff_of(day["chief"], day["t"])
    with pytest.raises(service.VersionConflict):
        service.send_back(one, chief, day["chief"], one.version - 1, "look again")
    five = Game.objects.get(table=table(day["round"], 5))
    with pytest.raises(service.ProtocolError, match="Only a submitted protocol"):
        service.send_back(five, chief, day["chief"], five.version, "confirmed already")
    version = one.version  # the desk's field limits the comment to 2,000 characters: refused, never cut
    with pytest.raises(service.ProtocolError, match="The comment: At most 2000 characters; this text has 2001"):
        service.send_back(one, chief, day["chief"], one.version, "ы" * 2001)
    one.refresh_from_db()
    assert one.version == version and one.state == GameState.SUBMITTED
    user = make_user("a-judge")
    staff.add_judge(day["t"], user)
    with pytest.raises(service.ProtocolError, match="Only the chief judge or an organizer"):
        service.send_back(one, staff_of(user, day["t"]), user, one.version, "not mine to send")


def test_sending_back_takes_it_out_of_the_public_standings(day: dict[str, Any],
                                                           django_capture_on_commit_callbacks: Any) -> None:
    from public.models import ResultsVersion

    def version() -> int:
        return ResultsVersion.objects.filter(tournament=day["t"]).values_list("version", flat=True).first() or 0

    one = Game.objects.get(table=table(day["round"], 1))
    before = version()
    with django_capture_on_commit_callbacks(execute=True):
        service.send_back(one, staff_of(day["chief"], day["t"]), day["chief"], one.version, "a seat is wrong")
    assert version() > before


def test_the_round_chooser_and_who_may(day: dict[str, Any], make_user: Any) -> None:
    old = day["round"]
    new = Round.objects.create(stage=old.stage, number=2, seating="random", state=RoundState.PUBLISHED)
    Table.objects.create(round=new, number=1)
    Round.objects.create(stage=old.stage, number=3, seating="random", state=RoundState.DRAFT)  # not on the desk
    response = day["client"].get(day["url"])
    assert response.context["round"] == new and len(response.context["cards"]) == 1
    response = day["client"].get(day["url"], {"round": old.pk})
    assert response.context["round"] == old and 'id="desk-past"' in response.content.decode()
    assert day["client"].get(day["url"], {"round": "nope"}).status_code == 404
    judge = make_user("a-judge")
    staff.add_judge(day["t"], judge)
    client = Client()
    client.force_login(judge)
    assert client.get(day["url"]).status_code == 403
    one = Game.objects.get(table=table(old, 1))
    response = client.post(reverse("games:desk_action", args=[day["t"].slug, one.table_id]),
                           {"action": "confirm", "version": one.version})
    assert response.status_code == 403
    organizer = Client()
    organizer.force_login(day["organizer"])
    assert organizer.get(day["url"]).status_code == 200


def test_four_eyes_says_who_may_not_confirm(day: dict[str, Any]) -> None:
    staff.set_four_eyes(day["t"], True)
    organizer = Client(HTTP_ACCEPT_LANGUAGE="en")
    organizer.force_login(day["organizer"])  # who submitted every protocol here
    html = organizer.get(day["url"]).content.decode()
    assert 'value="confirm"' not in html and "Four-eyes confirmation: you submitted" in html
    assert day["client"].get(day["url"]).content.decode().count('value="confirm"') == 2


def test_a_card_says_what_the_protocol_holds_and_confirms_it_without_a_version_number(day: dict[str, Any]) -> None:
    four = Game.objects.get(table=table(day["round"], 4))
    rows = {row.seat.number: row for row in four.seats.select_related("seat")}
    rows[2].fouls, rows[7].left, rows[7].left_number, rows[5].best = 2, "killed", 1, True
    for n in (2, 5, 7):
        rows[n].save()
    Game.objects.filter(pk=four.pk).update(best_move=[3, 1])  # seat 7, killed first, named seats 3 and 1
    judge = four.submitted_by
    judge.first_name, judge.last_name = "Ирина", "Кузнецова"
    judge.save()
    day["client"].cookies["django_language"] = "ru"
    html = day["client"].get(day["url"]).content.decode()
    card = html.split('id="table-4"', 1)[1].split('id="table-', 1)[0]
    assert "Победитель" in card and "красные" in card.lower()
    assert "Фолы" in card and "2: 2" in card
    assert "Покинули стол" in card and "7 (убит" in card
    # what adds points beyond the win: the first killed's best move and who was named best
    assert "Лучший ход: назван чёрным" in card and "1, 3" in card and "Назван лучшим" in card
    assert "Ирина Кузнецова" in card and judge.get_username() not in card  # the judge by name, not by login
    assert "Утвердить этот протокол" in card and "версию" not in card and "version" not in card.lower().replace(
        'name="version"', "")


def test_a_chief_judge_lands_on_the_desk_at_login(day: dict[str, Any], make_user: Any) -> None:
    client = Client()
    client.force_login(day["chief"])
    response = client.get(reverse("site:start"))
    assert response.status_code == 302 and response["Location"] == day["url"]
    judge = make_user("plain-judge")
    staff.add_judge(day["t"], judge)
    client.force_login(judge)
    assert client.get(reverse("site:start"))["Location"] != day["url"]  # a judge is not sent to the desk
