"""The stream overlay: the organizer's tab, the secret links, the frames the judge's taps make (roles only when
shown, the night's checks with them), who is speaking, the delay, the table followed from round to round, and the
websocket that carries the frames (docs/stream-overlay.md)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from typing import Any
from unittest import mock

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.core.cache import cache
from django.test import Client
from django.urls import path, reverse

from games.models import Game
from games.services import stream as table_side
from scoring.model import EXTRA_CHARACTERS
from stream.consumers import EXPIRED, REFUSED, StreamConsumer
from stream.models import StreamOverlay
from stream.services import delay, frames, live, overlays, triggers
from tests.games.test_table_screen import HTMX, Screen
from tests.helpers import ROLES, table
from tournaments.models import Round, RoundState, Seat, Table

pytestmark = pytest.mark.django_db
IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def own_cache_no_layer(settings: Any) -> None:
    """A local-memory cache of this test (CI sets ``REDIS_URL``: another process's tournaments share ids with
    these) and no channel layer (polling) unless a test sets one."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"stream-{time.monotonic_ns()}"}}
    settings.CHANNEL_LAYERS = {}
    cache.clear()


def labels(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="overlay-labels" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    return dict(json.loads(found.group(1)))


def turn_on(round_: Any, **settings: Any) -> StreamOverlay:
    overlay = overlays.open_overlay(round_.stage.tournament)
    for name, value in settings.items():
        setattr(overlay, name, value)
    overlay.save()
    for number in (1, 2):  # as if an overlay page showed them: their frames are kept
        delay.watch(overlay, number)
    return overlay


def state(overlay: StreamOverlay, number: int = 1) -> dict[str, Any]:
    url = reverse("games:overlay_state", args=[overlay.tournament.slug, overlay.token, number])
    response = Client().get(url)
    assert response.status_code == 200
    return dict(response.json())


def streamed_screen(round_: Any, user: Any, ruleset: str, capture: Any) -> Screen:
    with capture(execute=True):
        return Screen(round_, user, ruleset)


def tap(screen: Screen, capture: Any, action: str, **data: Any) -> str:
    with capture(execute=True):
        return screen.tap(action, **data)


def test_the_organizer_turns_it_on_and_gets_a_link_a_table(round_: Any, people: dict[str, Any],
                                                            stranger: Any) -> None:
    slug = round_.stage.tournament.slug
    url = reverse("games:stream", args=[slug])
    assert Client().get(url).status_code == 302  # to the login page
    outsider = Client()
    outsider.force_login(stranger)
    assert outsider.get(url).status_code == 403
    judge = Client()
    judge.force_login(people["judge"])
    assert judge.get(url).status_code == 403
    organizer = Client()
    organizer.force_login(people["organizer"])
    assert "stream-open" in organizer.get(url).content.decode()
    assert organizer.post(url, {"action": "open"}).status_code == 302
    overlay = StreamOverlay.objects.get(tournament=round_.stage.tournament)
    page = organizer.get(url).content.decode()
    for n in (1, 2):  # the round has two tables
        assert f"/t/{slug}/stream/{overlay.token}/{n}/?lang=" in page
    old = overlay.token
    organizer.post(url, {"action": "new_link"})
    overlay.refresh_from_db()
    assert overlay.token != old
    assert Client().get(reverse("games:overlay", args=[slug, old, 1])).status_code == 404
    assert Client().get(reverse("games:overlay", args=[slug, overlay.token, 1])).status_code == 200
    assert Client().get(reverse("games:overlay_state", args=[slug, old, 1])).status_code == 404


@pytest.mark.parametrize("delay, message", [("soon", "целое число секунд"), ("901", "от 0 до 900"),
                                            ("-5", "от 0 до 900")])
def test_a_delay_it_cannot_take_is_refused_and_nothing_saved(round_: Any, people: dict[str, Any], delay: str,
                                                             message: str) -> None:
    overlay = turn_on(round_, delay_seconds=20)
    organizer = Client()
    organizer.force_login(people["organizer"])
    response = organizer.post(reverse("games:stream", args=[round_.stage.tournament.slug]),
                              {"action": "settings", "delay_seconds": delay, "show_roles": "on"})
    assert response.status_code == 400
    assert message in response.content.decode()
    overlay.refresh_from_db()
    assert (overlay.delay_seconds, overlay.show_roles) == (20, False)


def test_the_overlay_page_is_transparent_and_speaks_its_language(round_: Any) -> None:
    overlay = turn_on(round_)
    url = reverse("games:overlay", args=[overlay.tournament.slug, overlay.token, 1])
    russian = Client().get(url + "?lang=ru").content.decode()
    assert 'lang="ru"' in russian and "stream-overlay.css" in russian and "bootstrap" not in russian
    words = labels(russian)
    assert words["nominated"] == "На голосовании" and words["day"] == "День %(n)s"
    assert words["out"]["killed"] == "убит в ночь %(n)s" and words["roles"]["sheriff"] == "шериф"
    assert labels(Client().get(url + "?lang=en").content.decode())["nominated"] == "On the vote"
    assert Client().get(reverse("games:overlay", args=[overlay.tournament.slug, "guess", 1])).status_code == 404


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_judges_taps_make_the_frame_roles_only_when_shown(make_round: Any, ruleset: str,
                                                              django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round(ruleset, tables=1)
    overlay = turn_on(round_)
    screen = streamed_screen(round_, round_.stage.tournament.organizers.get(), ruleset,
                             django_capture_on_commit_callbacks)
    size = len(ROLES[ruleset])
    tap(screen, django_capture_on_commit_callbacks, "foul", seat=2, reason="")
    civilian = size  # the last seat is a civilian under every regulation
    tap(screen, django_capture_on_commit_callbacks, "nominated", seat=civilian)
    tap(screen, django_capture_on_commit_callbacks, "votes", seat=civilian, count="6")
    frame = state(overlay)["frame"]
    assert [s["n"] for s in frame["seats"]] == list(range(1, size + 1))
    assert frame["seats"][1]["fouls"] == 1 and frame["started"] and frame["phase"] == 1
    assert frame["nominated"] == [civilian] and frame["votes"] == [{"seat": civilian, "count": 6}]
    assert all("role" not in seat for seat in frame["seats"]) and not frame["roles"]
    tap(screen, django_capture_on_commit_callbacks, "voted", seat=civilian)
    tap(screen, django_capture_on_commit_callbacks, "phase", value="next")
    sheriff = ROLES[ruleset].index("sheriff") + 1
    tap(screen, django_capture_on_commit_callbacks, "sheriff_check", seat=1)
    frame = state(overlay)["frame"]
    assert frame["seats"][civilian - 1]["out"] == "voted" and frame["seats"][civilian - 1]["when"] == 1
    assert frame["nominated"] == [] and frame["phase"] == 2  # the day's vote is over at night
    assert "sheriff_check" not in [e["kind"] for e in frame["events"]]  # a check would give the roles away

    with django_capture_on_commit_callbacks(execute=True):
        overlays.change_settings(overlay, True, "0")
    frame = state(overlay)["frame"]
    assert frame["roles"] and frame["seats"][sheriff - 1]["role"] == "sheriff"
    check = [e for e in frame["events"] if e["kind"] == "sheriff_check"]
    expected = "black" if ROLES[ruleset][0] in ("don", "mafia") else "red"
    assert check == [{"kind": "sheriff_check", "phase": 2, "seat": 1, "found": expected}]


def test_who_is_speaking_the_judge_marks_by_day(round_: Any, people: dict[str, Any],
                                                django_capture_on_commit_callbacks: Any) -> None:
    plain = Screen(round_, people["judge"])
    assert 'value="speaking"' not in plain.client.get(plain.url).content.decode()  # not streamed: no such button
    overlay = turn_on(round_)
    screen = Screen(round_, people["judge"])
    page = screen.client.get(screen.url).content.decode()
    assert 'value="speaking"' in page and 'id="on-stream"' in page
    said = screen.tap("speaking", seat=3)
    assert "Говорит место 3." in said and "speaking-badge" in said and 'data-speech="start"' in said
    assert state(overlay)["frame"]["speaking"] == 3
    screen.tap("speaking", seat=4)
    assert state(overlay)["frame"]["speaking"] == 4
    unmarked = screen.tap("speaking", seat=4)
    assert "Никто не отмечен говорящим." in unmarked and 'data-speech="stop"' in unmarked
    assert state(overlay)["frame"]["speaking"] is None
    version = screen.game.version
    screen.tap("speaking", seat=6)
    assert screen.game.version == version  # not a change of the protocol: no version, no history row
    tap(screen, django_capture_on_commit_callbacks, "phase", value="next")
    assert state(overlay)["frame"]["speaking"] is None
    refused = screen.tap("speaking", seat=6)
    assert "Игроки говорят днём" in refused and "data-speech" not in refused  # no timer started either
    tap(screen, django_capture_on_commit_callbacks, "phase", value="next")
    assert state(overlay)["frame"]["speaking"] is None  # yesterday's speaker is forgotten
    screen.tap("speaking", seat=7)
    tap(screen, django_capture_on_commit_callbacks, "voted", seat=7)
    assert state(overlay)["frame"]["speaking"] is None  # voted out after the mark: no longer speaking
    screen.tap("speaking", seat=7)
    assert state(overlay)["frame"]["speaking"] == 7  # marked after leaving: their last word
    assert "За этим столом нет места 99." in screen.tap("speaking", seat=99)
    assert state(overlay)["frame"]["speaking"] == 7


def test_the_delay_holds_every_frame_back(round_: Any) -> None:
    overlay = turn_on(round_, delay_seconds=30)
    tournament_id = overlay.tournament_id
    start = 1_000_000.0
    first = frames.build_frame(frames.current_table(tournament_id, 1), overlay)
    assert delay.record(tournament_id, 1, first, 30, start)
    assert not delay.record(tournament_id, 1, first, 30, start + 1)  # the same frame is not kept twice
    later = dict(first or {}, phase=2)
    delay.record(tournament_id, 1, later, 30, start + 10)
    assert delay.frame_as_of(overlay, 1, now=start + 29) == (False, None, None)  # nothing is 30 s old yet
    assert delay.frame_as_of(overlay, 1, now=start + 30) == (True, first, start)
    assert delay.frame_as_of(overlay, 1, now=start + 39) == (True, first, start)
    assert delay.frame_as_of(overlay, 1, now=start + 40) == (True, later, start + 10)
    delay.record(tournament_id, 1, dict(later, phase=3), 30, start + 200)  # the first is no longer needed
    kept = cache.get(delay.FRAMES.format(tournament=tournament_id, number=1))
    assert [when for when, _frame in kept] == [start + 10, start + 200]
    delay.record(tournament_id, 1, dict(later, phase=4), 30, start + 150)  # written late by another process
    assert [when for when, _frame in delay.kept(tournament_id, 1)] == [start + 10, start + 150, start + 200]
    assert delay.frame_as_of(overlay, 1, now=start + 230)[1]["phase"] == 3  # the newest moment, not the last written


def test_raising_the_delay_up_to_two_minutes_leaves_no_gap(round_: Any) -> None:
    overlay = turn_on(round_)
    start = 1_000_000.0
    frame = frames.build_frame(frames.current_table(overlay.tournament_id, 1), overlay)
    delay.record(overlay.tournament_id, 1, frame, 0, start)
    delay.record(overlay.tournament_id, 1, dict(frame or {}, phase=2), 0, start + 100)
    overlay.delay_seconds = 90
    assert delay.frame_as_of(overlay, 1, now=start + 150) == (True, frame, start)


@pytest.mark.parametrize("roles", [True, False])
def test_raising_the_delay_past_the_frames_kept_keeps_the_frame_shown(round_: Any, roles: bool,
                                                                     django_capture_on_commit_callbacks: Any) -> None:
    """The delay raised from 0 to 15 minutes while roles are shown left the state empty ("frame": null)
    for the length of the delay. Now the stream stays on the frame it showed, then goes on with the later ones
    once they are old enough; never blank, never back in time."""
    overlay = turn_on(round_, show_roles=roles)
    tournament_id = overlay.tournament_id
    now = time.time()
    shown = frames.build_frame(frames.current_table(tournament_id, 1), overlay)
    delay.record(tournament_id, 1, shown, 0, now - 10)
    assert delay.frame_as_of(overlay, 1, now=now)[1] == shown
    with django_capture_on_commit_callbacks(execute=True):
        overlays.change_settings(overlay, roles, "900")
    overlay.refresh_from_db()
    assert state(overlay)["frame"] == shown  # not null: what the stream showed when the delay was raised
    later = dict(shown or {}, phase=5)
    delay.record(tournament_id, 1, later, 900, now + 5)
    assert delay.frame_as_of(overlay, 1, now=now + 100)[1] == shown  # the later frame is not 15 minutes old
    assert delay.frame_as_of(overlay, 1, now=now + 906)[1] == later


def test_with_a_delay_the_state_shows_the_past(round_: Any, people: dict[str, Any],
                                               django_capture_on_commit_callbacks: Any) -> None:
    overlay = turn_on(round_, delay_seconds=60)
    screen = streamed_screen(round_, people["judge"], "fiim", django_capture_on_commit_callbacks)
    tap(screen, django_capture_on_commit_callbacks, "foul", seat=1, reason="")
    answer = state(overlay)
    assert answer == {"known": False, "frame": None, "at": None, "mode": "poll", "ticket": ""}  # the page keeps its own


def test_the_overlay_follows_its_table_number_from_round_to_round(round_: Any, people: dict[str, Any],
                                                                  django_capture_on_commit_callbacks: Any) -> None:
    overlay = turn_on(round_)
    screen = streamed_screen(round_, people["judge"], "fiim", django_capture_on_commit_callbacks)
    tap(screen, django_capture_on_commit_callbacks, "foul", seat=1, reason="")
    second = Round.objects.create(stage=round_.stage, number=2, seating="random", state=RoundState.DRAFT)
    for t in (1, 2):
        row = Table.objects.create(round=second, number=t)
        Seat.objects.bulk_create(Seat(table=row, round=second, number=n, participant=seat.participant)
                                 for n, seat in enumerate(table(round_, 3 - t).seats.order_by("number"), start=1))
    with django_capture_on_commit_callbacks(execute=True):
        second.state = RoundState.PUBLISHED
        second.save()
    assert state(overlay)["frame"]["round"] == 1  # the game at table 1 is still being played
    tap(screen, django_capture_on_commit_callbacks, "winner", value="red")
    frame = state(overlay)["frame"]
    assert frame["round"] == 2 and not frame["started"]  # the game ended: the next line-up
    first = table(second, 1).seats.get(number=1).participant.player
    assert frame["seats"][0]["name"] == first.nickname  # the stream knows players by their nicknames


def test_a_table_no_round_has_yet(round_: Any) -> None:
    overlay = turn_on(round_)
    answer = state(overlay, 7)
    assert (answer["known"], answer["frame"]) == (True, None)


def test_the_state_costs_one_query_once_kept(round_: Any, django_assert_num_queries: Any) -> None:
    overlay = turn_on(round_)
    state(overlay)
    url = reverse("games:overlay_state", args=[overlay.tournament.slug, overlay.token, 1])
    client = Client()
    with django_assert_num_queries(1):
        assert client.get(url).status_code == 200


def test_a_day_without_an_overlay_costs_the_judge_one_query(round_: Any, people: dict[str, Any],
                                                            django_capture_on_commit_callbacks: Any,
                                                            django_assert_num_queries: Any, monkeypatch: Any) -> None:
    """Whether the tournament is streamed (the table screen); after the commit, with no overlay page watching any
    table, nothing (one cache read: no task queued, no query)."""
    cache.delete(delay.ANY_WATCHED)
    screen = Screen(round_, people["judge"])
    with django_capture_on_commit_callbacks() as callbacks:
        screen.tap("foul", seat=2, reason="")
    ours = [callback for callback in callbacks  # the batch of the overlay's reaction (mafia_tournament/reactions.py)
            if getattr(getattr(callback, "__self__", None), "handle", None) is triggers.queue_changed]
    assert ours, "the tap must schedule the stream's publication"
    with django_assert_num_queries(0):
        for callback in ours:
            callback()
    seen: list[bool] = []

    def counted(tournament: Any) -> bool:
        seen.append(True)
        return overlays.is_streamed(tournament)

    monkeypatch.setattr(table_side, "streamed_by", [counted])
    screen.client.get(screen.url)
    assert seen == [True]  # one lookup a screen


def test_publishing_sends_the_frame_to_the_table_numbers_group(round_: Any, settings: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    overlay = turn_on(round_, delay_seconds=5)
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(live.group_name(overlay.tournament_id, 1), channel)
    live.publish(overlay.tournament_id, [1])
    message = async_to_sync(layer.receive)(channel)
    assert message["type"] == "stream.frame" and message["delay"] == 5
    assert message["frame"]["table"] == 1 and len(message["frame"]["seats"]) == 10
    answer = state(overlay)
    assert answer["mode"] == "socket" and live.read_ticket(answer["ticket"])[:2] == (overlay.tournament_id, 1)


def test_a_failing_cache_never_fails_the_judges_tap(round_: Any, people: dict[str, Any], monkeypatch: Any,
                                                   django_capture_on_commit_callbacks: Any) -> None:
    turn_on(round_)
    screen = Screen(round_, people["judge"])

    def broken(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("Redis is gone")

    monkeypatch.setattr(delay.cache, "get", broken)
    with django_capture_on_commit_callbacks(execute=True):
        response = screen.client.post(screen.url, {"action": "foul", "seat": 2, "reason": "",
                                                   "version": Game.objects.get().version}, **HTMX)
    assert response.status_code == 200 and Game.objects.get().seats.get(seat__number=2).fouls == 1


# --- the websocket ---------------------------------------------------------------------------------------------

APPLICATION = URLRouter([path("ws/stream/<str:ticket>/", StreamConsumer.as_asgi())])


def connect(ticket: str) -> WebsocketCommunicator:
    return WebsocketCommunicator(APPLICATION, f"/ws/stream/{ticket}/")


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_socket_sends_each_frame_after_the_delay_in_order(round_: Any, settings: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    overlay = turn_on(round_)
    ticket = live.ticket(overlay, 1)
    group = live.group_name(overlay.tournament_id, 1)

    async def scenario() -> None:
        socket = connect(ticket)
        connected, _code = await socket.connect()
        assert connected
        layer = get_channel_layer()
        now = time.time()
        await layer.group_send(group, {"type": "stream.frame", "frame": {"n": 1}, "at": now, "delay": 0.4})
        await layer.group_send(group, {"type": "stream.frame", "frame": {"n": 2}, "at": now, "delay": 0.4})
        assert await socket.receive_nothing(timeout=0.2)  # held back for the delay
        assert (await socket.receive_json_from(timeout=2))["frame"] == {"n": 1}
        assert time.time() - now >= 0.4
        assert (await socket.receive_json_from(timeout=2))["frame"] == {"n": 2}
        await layer.group_send(live.group_name(overlay.tournament_id, 2),
                               {"type": "stream.frame", "frame": {"n": 3}, "at": now, "delay": 0})
        assert await socket.receive_nothing(timeout=0.2)  # another table's frames never come here
        await socket.disconnect()

    asyncio.run(scenario())


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_forged_or_outdated_ticket_is_refused(round_: Any, settings: Any, monkeypatch: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    overlay = turn_on(round_)

    async def refused(ticket: str) -> int:
        socket = connect(ticket)
        connected, code = await socket.connect()
        assert not connected
        return int(code)

    assert asyncio.run(refused("not-a-ticket")) == REFUSED
    ticket = live.ticket(overlay, 1)
    later = time.time() + live.TICKET_SECONDS + 5
    monkeypatch.setattr(time, "time", lambda: later)
    assert asyncio.run(refused(ticket)) == REFUSED


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_socket_closes_when_its_ticket_runs_out(round_: Any, settings: Any, monkeypatch: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    overlay = turn_on(round_)
    monkeypatch.setattr(live, "read_ticket", lambda value: (overlay.tournament_id, 1, 0.2, 0))

    async def scenario() -> None:
        socket = connect("any")
        assert (await socket.connect())[0]
        output = await socket.receive_output(timeout=3)
        assert output == {"type": "websocket.close", "code": EXPIRED}

    import stream.consumers as consumers

    monkeypatch.setattr(consumers, "read_ticket", live.read_ticket)
    asyncio.run(scenario())


def test_marking_the_speaker_with_the_cache_down_says_so_and_keeps_the_protocol(
        round_: Any, people: dict[str, Any], monkeypatch: Any) -> None:
    turn_on(round_)
    screen = Screen(round_, people["judge"])
    version = screen.game.version

    def broken(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("Redis is gone")

    monkeypatch.setattr(delay.cache, "set", broken)
    said = screen.tap("speaking", seat=2)
    assert "Трансляция сейчас недоступна; протокол это не затрагивает." in said
    assert screen.game.version == version


def test_roles_turned_off_leave_at_once_whatever_the_delay(make_round: Any,
                                                          django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round("kostroma", tables=1)
    overlay = turn_on(round_, show_roles=True, delay_seconds=60)
    screen = streamed_screen(round_, round_.stage.tournament.organizers.get(), "kostroma",
                             django_capture_on_commit_callbacks)
    tap(screen, django_capture_on_commit_callbacks, "phase", value="next")
    for action in ("don_check", "sheriff_check", "heal", "shot"):  # a shot's shooter gives the mafia away too
        tap(screen, django_capture_on_commit_callbacks, action, seat=6)
    held = delay.kept(overlay.tournament_id, 1)
    assert held[-1][1]["roles"] and {e["kind"] for e in held[-1][1]["events"]} == set(frames.CHECKS)
    with django_capture_on_commit_callbacks(execute=True):
        overlays.change_settings(overlay, False, "60")
    for _when, frame in delay.kept(overlay.tournament_id, 1):  # every frame still held back for the delay
        assert frame is None or (not frame["roles"] and not {e["kind"] for e in frame["events"]} & set(frames.CHECKS))
        assert frame is None or all(set(seat) == {"n", "name", "out", "when", "fouls"} for seat in frame["seats"])
    later = delay.frame_as_of(overlay, 1, now=time.time() + 61)[1]
    assert later is not None and not later["roles"] and "role" not in later["seats"][0]


def test_the_sheriff_checking_a_black_extra_character_finds_black(make_round: Any,
                                                                  django_capture_on_commit_callbacks: Any) -> None:
    round_ = make_round("kostroma", tables=1)
    overlay = turn_on(round_, show_roles=True)
    organizer = round_.stage.tournament.organizers.get()
    with django_capture_on_commit_callbacks(execute=True):
        screen = Screen(round_, organizer, "kostroma")
    roles = {f"s{n}_role": role for n, role in enumerate(ROLES["kostroma"], start=1)}
    extra = sorted(str(role) for role in EXTRA_CHARACTERS)[0]  # kostroma's extra characters play a chosen side
    tap(screen, django_capture_on_commit_callbacks, "roles", **{**roles, "s10_role": extra, "s10_side": "black"})
    tap(screen, django_capture_on_commit_callbacks, "phase", value="next")
    said = tap(screen, django_capture_on_commit_callbacks, "sheriff_check", seat=10)
    assert "шериф проверяет место 10: чёрный" in said  # the judge's game log says what the overlay says
    frame = state(overlay)["frame"]
    assert frame["seats"][9]["side"] == "black"
    assert [e["found"] for e in frame["events"] if e["kind"] == "sheriff_check"] == ["black"]


def test_the_organizer_turns_the_overlay_off(round_: Any, people: dict[str, Any]) -> None:
    overlay = turn_on(round_)
    organizer = Client()
    organizer.force_login(people["organizer"])
    organizer.post(reverse("games:stream", args=[round_.stage.tournament.slug]), {"action": "off"})
    assert not StreamOverlay.objects.exists()
    assert Client().get(reverse("games:overlay", args=[overlay.tournament.slug, overlay.token, 1])).status_code == 404
    judge = Screen(round_, people["judge"])
    assert 'value="speaking"' not in judge.client.get(judge.url).content.decode()


def test_a_table_numbered_above_ninety_nine_has_its_link(round_: Any) -> None:
    overlay = turn_on(round_)
    Table.objects.filter(round=round_, number=2).update(number=120)
    assert state(overlay, 120)["frame"]["table"] == 120


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_socket_opened_during_the_delay_gets_what_was_published_before(round_: Any, settings: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    overlay = turn_on(round_, delay_seconds=1)
    now = time.time()
    frame = frames.build_frame(frames.current_table(overlay.tournament_id, 1), overlay)
    delay.record(overlay.tournament_id, 1, dict(frame or {}, phase=5), 1, now - 0.3)  # due in 0.7 s
    ticket = live.ticket(overlay, 1)

    async def scenario() -> None:
        socket = connect(ticket)
        assert (await socket.connect())[0]
        assert await socket.receive_nothing(timeout=0.3)
        got = await socket.receive_json_from(timeout=3)
        assert got["frame"]["phase"] == 5 and got["at"] == pytest.approx(now - 0.3)
        assert time.time() >= now - 0.3 + 1
        await socket.disconnect()

    asyncio.run(scenario())


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_roles_turned_off_leave_the_frames_a_socket_holds_back(round_: Any, settings: Any) -> None:
    settings.CHANNEL_LAYERS = IN_MEMORY
    overlay = turn_on(round_, show_roles=True, delay_seconds=1)
    ticket = live.ticket(overlay, 1)
    group = live.group_name(overlay.tournament_id, 1)
    held = {"roles": True, "seats": [{"n": 1, "role": "don", "side": "black"}],
            "events": [{"kind": "don_check", "phase": 2, "seat": 4}, {"kind": "killed", "phase": 2, "seat": 5}]}

    async def scenario() -> None:
        socket = connect(ticket)
        assert (await socket.connect())[0]
        layer = get_channel_layer()
        await layer.group_send(group, {"type": "stream.frame", "frame": held, "at": time.time(), "delay": 1})
        await layer.group_send(group, {"type": "stream.hide_roles"})
        got = (await socket.receive_json_from(timeout=3))["frame"]
        assert got == {"roles": False, "seats": [{"n": 1}], "events": [{"kind": "killed", "phase": 2, "seat": 5}]}
        await socket.disconnect()

    asyncio.run(scenario())


def test_a_table_no_overlay_shows_costs_its_judge_no_frame(round_: Any, people: dict[str, Any],
                                                           django_capture_on_commit_callbacks: Any) -> None:
    overlay = overlays.open_overlay(round_.stage.tournament)  # on, but no page has shown table 1
    screen = streamed_screen(round_, people["judge"], "fiim", django_capture_on_commit_callbacks)
    tap(screen, django_capture_on_commit_callbacks, "foul", seat=1, reason="")
    assert delay.kept(overlay.tournament_id, 1) == []
    assert state(overlay)["frame"]["seats"][0]["fouls"] == 1  # the first page built it, and watches from now on
    tap(screen, django_capture_on_commit_callbacks, "foul", seat=1, reason="")
    assert [frame["seats"][0]["fouls"] for _at, frame in delay.kept(overlay.tournament_id, 1)] == [1, 2]


def test_frames_are_queued_after_the_commit_only_while_an_overlay_watches(
        round_: Any, people: dict[str, Any], django_capture_on_commit_callbacks: Any, settings: Any) -> None:
    """The judge's answer queues the frames (a row of the stream queue) instead of building them; nothing is
    queued while no overlay page of any tournament watches a table."""
    from django_tasks_db.models import DBTaskResult

    from tests.conftest import TASKS_IN_DATABASE

    settings.TASKS = TASKS_IN_DATABASE
    screen = streamed_screen(round_, people["judge"], "fiim", django_capture_on_commit_callbacks)
    cache.delete(delay.ANY_WATCHED)
    tap(screen, django_capture_on_commit_callbacks, "foul", seat=1, reason="")
    assert not DBTaskResult.objects.exists()
    overlay = overlays.open_overlay(round_.stage.tournament)
    delay.watch(overlay, 1)
    tap(screen, django_capture_on_commit_callbacks, "foul", seat=2, reason="")
    queued = DBTaskResult.objects.get()
    assert queued.task_path == "stream.tasks.publish_changes" and queued.queue_name == "stream"
    assert queued.status == "READY" and delay.kept(overlay.tournament_id, 1) == []  # built by the worker, not here


@pytest.mark.django_db(transaction=True)
def test_the_stream_worker_sends_the_frames_in_the_order_of_the_commits(real_workers: Any) -> None:
    from django_tasks_db.models import DBTaskResult

    from stream import tasks

    done: list[int] = []
    with mock.patch.object(triggers, "safely_publish_changed", lambda games, rounds: done.extend(games)):
        for n in range(5):
            tasks.publish_changes.enqueue([n], [])
        deadline = time.monotonic() + 10
        while len(done) < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
    assert done == [0, 1, 2, 3, 4]
    # the stream's done rows go at once: the worker deletes each when its task has finished, a moment after the last
    # frame was sent (the frame is sent inside the task), so the check waits for that moment, not for a poll
    finished = time.monotonic() + 5
    while DBTaskResult.objects.filter(status="SUCCESSFUL").exists() and time.monotonic() < finished:
        time.sleep(0.02)
    assert not DBTaskResult.objects.filter(status="SUCCESSFUL").exists()
