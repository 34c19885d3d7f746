"""Notifications end to end (docs/notifications.md): the events queue tasks after their commit, the notices
queue's worker composes the messages and hands them to a real SMTP server on loopback and a local Bot API; each
player receives what concerns them, in their language, for every regulation."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from entries.models import Entry
from entries.services import registering
from games.models import Game, Protest
from games.permissions import staff_of
from games.services import protests
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from judges.services import staff
from notices.models import Channel, Kind, Message
from running.services.seating import publish_round, swap_seats, unpublish_round
from tests.helpers import ROLES, table
from tests.notices.servers import BOT_NAME, BotServer, SMTPServer
from tournaments.models import Round, Seat, Stage

pytestmark = pytest.mark.django_db
RULESETS = ["fiim", "kostroma", "tomsk", "zvezdy"]


def contacts(round_: Round) -> dict[int, Entry]:
    """Every player of the round reachable: the odd seats by e-mail, the even by Telegram; table 1 in English,
    table 2 in Russian. By seat's participant id."""
    registering.ensure_entries(round_.stage.tournament)
    out = {}
    for seat in Seat.objects.filter(round=round_).select_related("table"):
        entry = Entry.objects.get(participant_id=seat.participant_id)
        code = f"{seat.table.number}-{seat.number}"
        if seat.number % 2:
            entry.email = f"p{code}@example.org"
        else:
            entry.telegram_chat_id = 9000 + seat.table.number * 100 + seat.number
        entry.language = "en" if seat.table.number == 1 else "ru"
        entry.save()
        out[seat.participant_id] = entry
    return out


def received(entry: Entry, smtp: SMTPServer, bot: BotServer) -> list[str]:
    if entry.email:
        return [f"{m.subject}\n{m.body}" for m in smtp.to(entry.email)]
    assert entry.telegram_chat_id is not None
    return bot.api.to(entry.telegram_chat_id)


def publish(round_: Round, capture: Any) -> None:
    with capture(execute=True):
        publish_round(round_, round_.stage.tournament.organizers.get())


def unpublish(round_: Round, capture: Any) -> None:
    with capture(execute=True):
        unpublish_round(round_)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_round_published_then_reseated_then_withdrawn(ruleset: str, make_round: Any, smtp: SMTPServer,
                                                        bot: BotServer, worker: Any,
                                                        django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round(ruleset, tables=2)
    entries = contacts(round_)
    size = 12 if ruleset == "tomsk" else 10
    unpublish(round_, django_capture_on_commit_callbacks)
    publish(round_, django_capture_on_commit_callbacks)
    worker.run()
    # each player: one message, on their channel, in their language, with their table and seat
    for seat in Seat.objects.filter(round=round_).select_related("table"):
        got = received(entries[seat.participant_id], smtp, bot)
        assert len(got) == 1, (seat, got)
        if seat.table.number == 1:
            assert f"your table is 1, your seat {seat.number}." in got[0]
        else:
            assert f"ваш стол 2, ваше место {seat.number}." in got[0]
        assert f"/p/{round_.stage.tournament.slug}/me/{entries[seat.participant_id].token}/" in got[0]
    assert len(smtp.mails) == size and len(bot.api.sent) == size
    assert Message.objects.filter(round=round_, handed_at__isnull=False).count() == 2 * size
    mail = smtp.mails[0]
    assert mail.headers["List-Unsubscribe"].startswith("<https://mafia.example.org/p/")
    # a re-seat of two players within the minute: only they hear of it, nobody hears "withdrawn"
    a = Seat.objects.get(round=round_, table__number=1, number=1)
    b = Seat.objects.get(round=round_, table__number=2, number=2)
    unpublish(round_, django_capture_on_commit_callbacks)
    swap_seats(round_, a.pk, b.pk)
    publish(round_, django_capture_on_commit_callbacks)
    before = Message.objects.count()
    worker.run()
    assert Message.objects.count() - before == 2
    assert "The seating has changed. " in received(entries[a.participant_id], smtp, bot)[-1]  # in English
    assert "your table is 2, your seat 2." in received(entries[a.participant_id], smtp, bot)[-1]
    assert "Рассадка изменилась. " in received(entries[b.participant_id], smtp, bot)[-1]
    assert "ваш стол 1, ваше место 1." in received(entries[b.participant_id], smtp, bot)[-1]
    assert worker.deferred() == 2  # the withdrawals' checks, later: the round is published by then
    worker.later()
    assert Message.objects.count() - before == 2
    # withdrawn and left a draft: everyone told hears it
    unpublish(round_, django_capture_on_commit_callbacks)
    worker.run()
    assert Message.objects.count() - before == 2  # not yet: the organizer may publish again
    worker.later()
    assert Message.objects.filter(kind=Kind.WITHDRAWN).count() == 2 * size
    assert "Round 1 is withdrawn" in received(entries[a.participant_id], smtp, bot)[-1].replace("round 1", "Round 1")
    assert "отменён" in received(entries[b.participant_id], smtp, bot)[-1]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_start_time_moved_tells_everyone_again(ruleset: str, make_round: Any, smtp: SMTPServer, bot: BotServer,
                                                 worker: Any, django_capture_on_commit_callbacks: Any) -> None:
    import datetime as dt

    from django.utils import timezone

    from tournaments.services.schedule import set_round_start

    round_ = make_round(ruleset, tables=1)
    entries = contacts(round_)
    unpublish(round_, django_capture_on_commit_callbacks)
    publish(round_, django_capture_on_commit_callbacks)
    worker.run()
    starts = timezone.localtime(timezone.now() + dt.timedelta(days=1)).replace(hour=15, minute=30)
    with django_capture_on_commit_callbacks(execute=True):
        set_round_start(round_, starts, round_.stage.tournament.organizers.get())
    worker.run()
    entry = next(iter(entries.values()))
    assert "The round starts at" in received(entry, smtp, bot)[-1] and "15:30" in received(entry, smtp, bot)[-1]


def played(ruleset: str) -> Any:
    def change(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES[ruleset], strict=True):
            seat.role = role
            if ruleset == "tomsk":
                seat.subjective = Fraction(0)  # tomsk's protocol needs every seat's SP
        facts.winner = "red"
    return change


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_protest_decided_and_a_protocol_sent_back(ruleset: str, make_round: Any, make_user: Any, smtp: SMTPServer,
                                                    bot: BotServer, worker: Any,
                                                    django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round(ruleset, tables=2)
    tournament = round_.stage.tournament
    entries = contacts(round_)
    chief, judge = make_user("chief"), make_user("judge")
    judge.email = "judge@example.org"
    judge.save()
    staff.add_judge(tournament, chief, chief=True)
    staff.assign(staff.add_judge(tournament, judge), round_.stage, round_, 2)
    game = service.open_protocol(table(round_, 2), judge)
    game = service.change(game, judge, game.version, played(ruleset))
    game = service.submit(game, judge, game.version)
    # sent back: its judge is told by e-mail, with the comment, nobody else
    with django_capture_on_commit_callbacks(execute=True):
        game = service.send_back(game, staff_of(chief, tournament), chief, game.version, "Seat 3's fouls")
    worker.run()
    assert [m.subject for m in smtp.to("judge@example.org")] == [
        f"{tournament.name}: тур 1, стол 2: протокол возвращён"]
    assert "Seat 3's fouls" in smtp.to("judge@example.org")[0].body
    assert f"/t/{tournament.slug}/tables/{game.table_id}/" in smtp.to("judge@example.org")[0].body
    game = service.submit(Game.objects.get(pk=game.pk), judge, game.version)
    # a protest of seat 3 rejected: its player only; seat 4's upheld: the whole table
    filer = Seat.objects.get(table__round=round_, table__number=2, number=3)
    other = Seat.objects.get(table__round=round_, table__number=2, number=4)
    first = Protest.objects.create(game=game, seat=3, text="No word")
    with django_capture_on_commit_callbacks(execute=True):
        protests.decide(first, staff_of(chief, tournament), chief, "rejected", "The word was given")
    worker.run()
    mine = received(entries[filer.participant_id], smtp, bot)
    assert len(mine) == 1 and "отклонён" in mine[0] and "The word was given" in mine[0]
    assert received(entries[other.participant_id], smtp, bot) == []
    second = Protest.objects.create(game=game, seat=4, text="Wrong vote")
    with django_capture_on_commit_callbacks(execute=True):
        protests.decide(second, staff_of(chief, tournament), chief, "upheld", "Vote recounted")
    worker.run()
    assert "удовлетворён" in received(entries[other.participant_id], smtp, bot)[-1]
    assert "seat 4" in received(entries[filer.participant_id], smtp, bot)[-1] or \
        "место 4" in received(entries[filer.participant_id], smtp, bot)[-1]
    table_one = Seat.objects.filter(table__round=round_, table__number=1).values_list("participant_id", flat=True)
    assert all(not Message.objects.filter(entry=entries[p], kind=Kind.PROTEST).exists() for p in table_one)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_results_final_once(ruleset: str, make_round: Any, smtp: SMTPServer, bot: BotServer, worker: Any,
                                django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round(ruleset, tables=1)
    entries = contacts(round_)
    stage = Stage.objects.get(pk=round_.stage_id)
    stage.closed = True
    with django_capture_on_commit_callbacks(execute=True):
        stage.save(update_fields=["closed"])
    worker.run()
    entry = next(e for e in entries.values() if e.language == "en")
    assert any("are final" in text for text in received(entry, smtp, bot))
    count = Message.objects.filter(kind=Kind.FINAL).count()
    assert count == len(entries)
    stage.closed = False
    stage.save(update_fields=["closed"])
    stage.closed = True
    with django_capture_on_commit_callbacks(execute=True):
        stage.save(update_fields=["closed"])
    worker.run()
    assert Message.objects.filter(kind=Kind.FINAL).count() == count  # never twice


def test_telegram_linked_by_the_deep_link_and_stopped(make_round: Any, bot: BotServer, smtp: SMTPServer,
                                                      worker: Any, django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round("fiim", tables=1)
    registering.ensure_entries(round_.stage.tournament)
    entry = Entry.objects.filter(tournament=round_.stage.tournament).first()
    assert entry is not None
    me = f"/p/{entry.tournament.slug}/me/{entry.token}/"
    page = Client().get(me).content.decode()
    assert f'href="{me}telegram/"' in page and 'id="me-unsubscribe"' in page
    answer = Client().get(f"{me}telegram/")
    entry.refresh_from_db()
    assert answer.status_code == 302 and entry.telegram_link_token
    assert answer["Location"] == f"https://t.me/{BOT_NAME}?start={entry.telegram_link_token}"
    assert "getMe" in bot.api.calls
    bot.api.user_says(777, f"/start {entry.telegram_link_token}")
    call_command("telegram_poll", once=True, stdout=open("/dev/null", "w"))  # noqa: SIM115
    entry.refresh_from_db()
    assert entry.telegram_chat_id == 777
    assert bot.api.to(777)[-1].startswith("Привязано")  # the reply, in the entry's language
    call_command("telegram_poll", once=True, stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert len(bot.api.to(777)) == 1  # an update is read once
    unpublish(round_, django_capture_on_commit_callbacks)
    publish(round_, django_capture_on_commit_callbacks)
    worker.run()
    assert "ваш стол 1" in bot.api.to(777)[-1]
    bot.api.user_says(777, "/stop")
    call_command("telegram_poll", once=True, stdout=open("/dev/null", "w"))  # noqa: SIM115
    entry.refresh_from_db()
    assert entry.telegram_chat_id is None and "больше не будет" in bot.api.to(777)[-1]


def test_unsubscribe_in_one_tap(make_round: Any, smtp: SMTPServer, bot: BotServer, worker: Any,
                                django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round("zvezdy", tables=1)
    entries = contacts(round_)
    entry = next(e for e in entries.values() if e.email)
    unpublish(round_, django_capture_on_commit_callbacks)
    publish(round_, django_capture_on_commit_callbacks)
    worker.run()
    link = re.search(r"https://mafia\.example\.org(/p/\S+/unsubscribe/)", smtp.to(entry.email)[0].body)
    assert link is not None
    page = Client().get(link.group(1))
    assert page.status_code == 200 and 'id="unsubscribed"' in page.content.decode()
    entry.refresh_from_db()
    assert entry.unsubscribed_at is not None
    count = len(smtp.to(entry.email))
    with django_capture_on_commit_callbacks(execute=True):
        Round.objects.filter(pk=round_.pk).first().save()  # nothing changed: nothing sent
        unpublish_round(round_)
    worker.later()
    assert len(smtp.to(entry.email)) == count  # unsubscribed: not told of the withdrawal
    # the private page's button subscribes again, and unsubscribes
    me = f"/p/{entry.tournament.slug}/me/{entry.token}/"
    assert Client().post(link.group(1), {"action": "subscribe"})["Location"] == me
    entry.refresh_from_db()
    assert entry.unsubscribed_at is None
    Client().post(link.group(1), {"action": "unsubscribe"})
    entry.refresh_from_db()
    assert entry.unsubscribed_at is not None


def test_failures_are_recorded_and_tried_again(make_round: Any, smtp: SMTPServer, bot: BotServer, worker: Any,
                                               django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round("fiim", tables=1)
    entries = contacts(round_)
    blocked = next(e for e in entries.values() if e.telegram_chat_id)
    assert blocked.telegram_chat_id is not None
    bot.api.blocked.add(blocked.telegram_chat_id)
    refused = next(e for e in entries.values() if e.email)
    smtp.keeper.refuse.add(refused.email)
    unpublish(round_, django_capture_on_commit_callbacks)
    publish(round_, django_capture_on_commit_callbacks)
    worker.run()
    row = Message.objects.get(entry=blocked, channel=Channel.TELEGRAM)
    assert row.handed_at is None and row.given_up and "blocked" in row.error
    row = Message.objects.get(entry=refused, channel=Channel.EMAIL)
    assert row.handed_at is None and row.given_up and "550" in row.error
    assert Message.objects.filter(round=round_, handed_at__isnull=False).count() == len(entries) - 2
    # the SMTP server down: the message waits for another try, which the worker makes later
    smtp.stop()
    other = next(e for e in entries.values() if e.email and e.pk != refused.pk)
    Seat.objects.filter(round=round_, participant=other.participant).update(number=99)
    with django_capture_on_commit_callbacks(execute=True):
        round_.refresh_from_db()
        unpublish_round(round_)
        publish_round(round_, round_.stage.tournament.organizers.get())
    worker.run()
    row = Message.objects.filter(entry=other).latest("pk")
    assert row.handed_at is None and not row.given_up and row.attempts == 1 and "SMTP" in row.error
    assert worker.deferred() >= 1
