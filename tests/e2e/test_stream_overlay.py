"""The stream overlay in a transparent window (OBS's browser source, 1920×1080), in Russian, while a judge taps on a
phone: each tap shows within a second, by polling on a site without a channel layer and through the websocket
(uvicorn serving the ASGI application, Channels' layer on Redis) where there is one. Screenshots in
tests/e2e/artifacts/ (the overlay's with a transparent background)."""

from __future__ import annotations

import io
import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis
import uvicorn
from django.db import connection
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, expect

from judges.services.staff import add_judge, assign
from stream.services import live, overlays
from tests.conftest import PASSWORD
from tests.e2e.conftest import PHONE, TIMEOUT_MS
from tests.helpers import ROLES

pytestmark = pytest.mark.django_db(transaction=True)
REDIS_URL = os.environ.get("REDIS_URL", "").strip() or "redis://127.0.0.1:6379/0"
WITHIN_MS = 1500  # "within a second of a tap": the page's poll (1 s) or the socket, and the answer's way back


@pytest.fixture
def lang() -> str:
    return "ru"


def overlay_page(browser: Browser, base_url: str, url: str,
                 sockets: list[str]) -> tuple[BrowserContext, Page, list[str]]:
    context = browser.new_context(base_url=base_url, locale="ru-RU", viewport={"width": 1920, "height": 1080},
                                  extra_http_headers={"Accept-Language": "ru"})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("websocket", lambda ws: sockets.append(ws.url))
    page.goto(url)
    return context, page, errors


def signed_in(browser: Browser, base_url: str, username: str, phone: bool = True) -> tuple[BrowserContext, Page]:
    size = {"viewport": PHONE, "has_touch": True, "is_mobile": True} if phone else {
        "viewport": {"width": 1366, "height": 768}}
    context = browser.new_context(base_url=base_url, locale="ru-RU", extra_http_headers={"Accept-Language": "ru"},
                                  **size)  # type: ignore[arg-type]
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("form [type=submit]")
    return context, page


def tap(page: Page, selector: str) -> None:
    """One tap on the table screen, waiting for its answer to be swapped in."""
    with page.expect_response(lambda answer: answer.url.endswith("/live/") and answer.request.method == "POST"):
        page.click(selector)
    page.wait_for_selector("#screen")


def tap_seat(page: Page, mode: str, seat: int) -> None:
    page.click(f"label[for=mode-{mode}]")
    tap(page, f"#seat-{seat}")


def shown_within(page: Page, script: str) -> float:
    """Seconds from now until ``script`` holds on the overlay."""
    start = time.monotonic()
    page.wait_for_function(script, timeout=WITHIN_MS + 2000)
    return time.monotonic() - start


def transparent_corner(page: Page) -> bool:
    picture = Image.open(io.BytesIO(page.screenshot(omit_background=True))).convert("RGBA")
    return bool(picture.getpixel((960, 700))[3] == 0)  # between the panels: the camera's picture shows through


@pytest.fixture(autouse=True)
def own_cache_no_layer(settings: Any) -> None:
    """The live server's thread and the test share a local-memory cache (CI's shared Redis would mix these frames
    with another process's tournament of the same id); a channel layer only where a test starts one."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"stream-e2e-{uuid.uuid4().hex}"}}
    settings.CHANNEL_LAYERS = {}


@pytest.fixture
def streamed_round(make_round: Any, make_user: Callable[..., Any]) -> Any:
    round_ = make_round("kostroma", tables=1)
    judge = make_user("stream-judge")
    assign(add_judge(round_.stage.tournament, judge), round_.stage, round_, 1)
    return round_


def run_the_table(browser: Browser, base_url: str, round_: Any, shot: Callable[[Page, str], Any],
                  sockets: list[str]) -> list[float]:
    """The judge enters the roles and taps; the overlay follows. Returns how long each tap took to show."""
    tournament = round_.stage.tournament
    overlay = overlays.overlay_of(tournament)
    assert overlay is not None
    context, page, errors = overlay_page(browser, base_url, f"/t/{tournament.slug}/stream/{overlay.token}/1/?lang=ru",
                                         sockets)
    expect(page.locator("#so-seats li")).to_have_count(10)
    expect(page.locator("#so-note")).to_have_text("Игра ещё не началась.")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    phone, judge = signed_in(browser, base_url, "stream-judge")
    judge.goto(f"/t/{tournament.slug}/tables/{round_.tables.get(number=1).pk}/live/")
    for n, role in enumerate(ROLES["kostroma"], start=1):
        judge.select_option(f"select[name=s{n}_role]", role)
    judge.click("#roles-form [type=submit]")
    expect(judge.locator("#on-stream")).to_be_visible()
    waits = []
    tap_seat(judge, "speaking", 3)
    waits.append(shown_within(page, "() => document.querySelector('#so-seat-3').classList.contains('speaking')"))
    expect(page.locator("#so-seat-3 .so-status")).to_have_text("говорит")
    expect(judge.locator("#seat-3 .speaking-badge")).to_have_text("говорит")
    expect(judge.locator("[data-timer-display]")).to_have_text(re.compile(r"0:5\d"))  # the same tap started the speech
    shot(judge, "judge")
    tap_seat(judge, "foul", 3)
    waits.append(shown_within(page, "() => document.querySelector('#so-seat-3 .so-fouls').textContent === '●'"))
    tap_seat(judge, "nominated", 7)
    waits.append(shown_within(page, "() => document.querySelector('#so-vote-seats').textContent.includes('7')"))
    expect(page.locator("#so-vote-label")).to_have_text("На голосовании")
    expect(page.locator("#so-phase")).to_have_text("День 1")
    expect(page.locator("#so-where")).to_have_text("Отборочный · тур 1 · стол 1")
    assert page.locator(".so-role").count() == 0  # the roles are not shown to this stream
    shot(page, "day")
    assert transparent_corner(page)
    tap_seat(judge, "voted", 7)
    waits.append(shown_within(page, "() => document.querySelector('#so-seat-7').classList.contains('out')"))
    expect(page.locator("#so-seat-7 .so-status")).to_have_text("заголосован в день 1")
    tap(judge, "[aria-label='следующая фаза']")
    waits.append(shown_within(page, "() => document.querySelector('#so-phase').textContent === 'Ночь 1'"))
    tap_seat(judge, "sheriff_check", 1)
    time.sleep(1.2)
    assert "шериф" not in page.locator("#so-events").inner_text()  # a check would give the roles away

    def organizer_saves() -> None:  # as the organizer's request would: Playwright's loop in this thread keeps
        try:  # async_to_sync out of it
            overlays.change_settings(overlay, True, "0")
        finally:
            connection.close()  # this thread's own connection: the test database is dropped at the end

    organizer = threading.Thread(target=organizer_saves)
    organizer.start()
    organizer.join()
    waits.append(shown_within(page, "() => document.querySelectorAll('.so-role').length === 10"))
    expect(page.locator("#so-seat-1 .so-role")).to_have_text("дон")
    expect(page.locator("#so-events")).to_contain_text("ночь 1: шериф проверяет место 1: чёрный")
    tap(judge, "#winner-buttons button >> nth=1")  # the black team won
    waits.append(shown_within(page, "() => !document.querySelector('#so-result').hidden"))
    expect(page.locator("#so-result")).to_contain_text("победа")
    shot(page, "result")
    assert not errors, errors
    phone.close()
    context.close()
    return waits


def test_each_tap_shows_within_a_second_by_polling(browser: Browser, live_server: Any, streamed_round: Any,
                                                    shot: Callable[[Page, str], Any]) -> None:
    assert live.live_mode() == "poll"
    tournament = streamed_round.stage.tournament
    laptop, organizer = signed_in(browser, live_server.url, tournament.organizers.get().username, phone=False)
    organizer.goto(f"/t/{tournament.slug}/stream/")
    organizer.click("#stream-open button")
    expect(organizer.locator(".alert-success")).to_contain_text("Оверлей включён")
    expect(organizer.locator("#stream-links li")).to_have_count(1)
    expect(organizer.locator("#stream-live")).to_contain_text("каждую секунду")
    shot(organizer, "tab")
    link = organizer.locator("#stream-links a").get_attribute("href")
    assert link is not None and link.endswith("/1/?lang=ru")
    laptop.close()
    sockets: list[str] = []
    waits = run_the_table(browser, live_server.url, streamed_round, shot, sockets)
    assert max(waits) <= WITHIN_MS / 1000, waits
    assert sockets == []


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def socket_server(settings: Any) -> Iterator[str]:
    """uvicorn serving the ASGI application's websockets in a thread, Channels' layer on the machine's Redis (a
    prefix of its own); the site's pages stay on the live server and point the overlay there."""
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        pytest.fail(f"Redis is needed for the overlay's websocket: {REDIS_URL}: {error}")
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [REDIS_URL], "prefix": f"e2e-{uuid.uuid4().hex}"}}}
    from mafia_tournament.asgi import application

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning",
                                           ws="websockets-sansio", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.started
    settings.STREAM_SOCKET_URL = f"ws://127.0.0.1:{port}"
    yield settings.STREAM_SOCKET_URL
    server.should_exit = True
    thread.join(timeout=10)


def test_each_tap_shows_within_a_second_through_the_websocket(browser: Browser, live_server: Any,
                                                              streamed_round: Any, socket_server: str,
                                                              shot: Callable[[Page, str], Any]) -> None:
    assert live.live_mode() == "socket"
    sockets: list[str] = []
    overlays.open_overlay(streamed_round.stage.tournament)
    waits = run_the_table(browser, live_server.url, streamed_round, shot, sockets)
    assert max(waits) <= WITHIN_MS / 1000, waits
    assert sockets and all(url.startswith(socket_server + "/ws/stream/") for url in sockets)
