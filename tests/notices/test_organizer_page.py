"""The organizer's "Notifications" tab: the broadcast to everyone, the players or the judges, and who has been
told; and a judge's page to link Telegram."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from judges.services import staff
from notices.models import Broadcast, Kind, Message
from tests.notices.servers import BOT_NAME, BotServer, SMTPServer
from tests.notices.test_notifications import RULESETS, contacts
from tournaments.models import ParticipantStatus

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_broadcast_and_who_has_been_told(ruleset: str, make_round: Any, make_user: Any, smtp: SMTPServer,
                                             bot: BotServer, django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round(ruleset, tables=1)
    tournament = round_.stage.tournament
    entries = contacts(round_)
    silent = next(iter(entries.values()))
    silent.email, silent.telegram_chat_id = "", None
    silent.save()
    judge = make_user("judge")
    judge.email = "judge@example.org"
    judge.save()
    staff.add_judge(tournament, judge)
    organizer = signed_in(tournament.organizers.get())
    url = f"/t/{tournament.slug}/notices/"
    page = organizer.get(url, HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert page.status_code == 200 and 'id="broadcast-form"' in text and 'id="notices-none"' in text
    assert "1 player has neither e-mail nor Telegram: told nothing" in text and silent.name in text
    assert f"Of {len(entries)} players:" in text
    rejected = next(iter(e for e in entries.values() if e.pk != silent.pk)).participant
    rejected.status = ParticipantStatus.REJECTED  # an application rejected: told nothing, so not counted either
    rejected.save()
    entries = {k: e for k, e in entries.items() if e.participant_id != rejected.pk}
    assert f"Of {len(entries)} players:" in organizer.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    # an empty message is refused, saying why, nothing sent
    refused = organizer.post(url, {"action": "broadcast", "audience": "players", "text": "  "},
                             HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 400 and "Write the message." in refused.content.decode()
    assert not Broadcast.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        answer = organizer.post(url, {"action": "broadcast", "audience": "players",
                                      "text": "The hall opens at 10:00"})
    assert answer.status_code == 302
    reachable = [e for e in entries.values() if e.pk != silent.pk]
    assert Message.objects.filter(kind=Kind.BROADCAST, handed_at__isnull=False).count() == len(reachable)
    assert smtp.to("judge@example.org") == []  # the players only
    for entry in reachable:
        if entry.email:
            (mail,) = smtp.to(entry.email)
            assert "The hall opens at 10:00" in mail.body
            assert mail.subject.endswith(": сообщение организатора" if entry.language == "ru"
                                         else ": a message from the organizer")
        else:
            assert entry.telegram_chat_id is not None
            (said,) = bot.api.to(entry.telegram_chat_id)
            assert "The hall opens at 10:00" in said
    with django_capture_on_commit_callbacks(execute=True):
        organizer.post(url, {"action": "broadcast", "audience": "judges", "text": "Judges' meeting at 9:30"})
    assert [m.body.splitlines()[-1] for m in smtp.to("judge@example.org")] == ["Judges' meeting at 9:30"]
    # who has been told: every message, its channel and when it was handed over
    text = organizer.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    listed = text[text.index('id="notices-list"'):]
    assert listed.count("<tr>") == len(reachable) + 2  # the header, the players, the judge
    assert judge.get_username() in listed and reachable[0].name in listed
    assert f"{len(reachable) + 1} messages: {len(reachable) + 1} handed to the channel, 0 waiting, 0 failed." in text
    ru = organizer.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Кому что сообщено" in ru and "Отправить сообщение" in ru


def test_who_may_open_it(make_round: Any, make_user: Any, stranger: Any, bot: BotServer) -> None:
    round_ = make_round("fiim", tables=1)
    tournament = round_.stage.tournament
    url = f"/t/{tournament.slug}/notices/"
    assert Client().get(url).status_code == 302  # to the login
    assert signed_in(stranger).get(url).status_code == 403
    assert signed_in(stranger).post(url, {"action": "broadcast", "audience": "everyone", "text": "x"}).status_code \
        == 403
    assert not Broadcast.objects.exists()
    judge = make_user("judge")
    staff.add_judge(tournament, judge)
    assert signed_in(judge).get(url).status_code == 403
    # a judge links their Telegram from their own page
    page = signed_in(judge).get(f"/t/{tournament.slug}/notices/telegram/")
    assert page.status_code == 200 and f"https://t.me/{BOT_NAME}?start=" in page.content.decode()
    assert signed_in(stranger).get(f"/t/{tournament.slug}/notices/telegram/").status_code == 403


def test_a_judge_linked_in_telegram_is_told_there(make_round: Any, make_user: Any, bot: BotServer,
                                                  smtp: SMTPServer, django_capture_on_commit_callbacks: Any) -> None:
    from django.core.management import call_command

    from notices.models import JudgeChat

    round_ = make_round("kostroma", tables=1)
    tournament = round_.stage.tournament
    judge = make_user("judge")
    staff.add_judge(tournament, judge)
    signed_in(judge).get(f"/t/{tournament.slug}/notices/telegram/", HTTP_ACCEPT_LANGUAGE="en")
    chat = JudgeChat.objects.get(user=judge)
    bot.api.user_says(4242, f"/start {chat.link_token}")
    call_command("telegram_poll", once=True, stdout=open("/dev/null", "w"))  # noqa: SIM115
    chat.refresh_from_db()
    assert chat.chat_id == 4242 and bot.api.to(4242)[-1].startswith("Linked: ")
    with django_capture_on_commit_callbacks(execute=True):
        signed_in(tournament.organizers.get()).post(f"/t/{tournament.slug}/notices/", {
            "action": "broadcast", "audience": "everyone", "text": "Lunch at 14:00"})
    assert "Lunch at 14:00" in bot.api.to(4242)[-1]


def test_an_unknown_action_is_refused_and_sends_nothing(make_round: Any, bot: BotServer) -> None:
    tournament = make_round("tomsk", tables=1).stage.tournament
    organizer = signed_in(tournament.organizers.get())
    answer = organizer.post(f"/t/{tournament.slug}/notices/", {"action": "shout", "text": "x"},
                            HTTP_ACCEPT_LANGUAGE="en")
    assert answer.status_code == 400 and "Unknown action." in answer.content.decode()
    assert not Broadcast.objects.exists() and not Message.objects.exists()
