"""The venue's Wi-Fi drops mid-game: the judge's taps made offline are kept on the phone, the screen
says how many wait, and they are sent in order once the connection is back: nothing lost, nothing twice. A tap
made offline on a protocol that another device changed meanwhile is refused after reconnecting, with the reason,
and overwrites nothing."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from games.models import Game
from games.services import protocol as service
from tests.e2e.helpers import DOUBLE_TAP_MS, login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)


def seat_fouls(table_pk: int) -> dict[int, int]:
    game = Game.objects.get(table_id=table_pk)
    return {row.seat.number: row.fouls for row in game.seats.select_related("seat")}


def changed_elsewhere(table_pk: int, people: dict[str, Any]) -> None:
    """The chief judge records black's win from another device: the taps queued on the phone are on an old version."""
    game = Game.objects.get(table_id=table_pk)

    def winner(facts: Any) -> None:
        facts.winner = "black"

    service.change(game, people["chief"], game.version, winner)


def judge_on_the_screen(page: Page, people: dict[str, Any], round_: Any) -> int:
    login(page, people["judge"].username)
    pk = table(round_, 1).pk
    expect(page).to_have_url(re.compile(rf"/tables/{pk}/live/$"))
    for n, role in enumerate(ROLES["fiim"], start=1):
        page.select_option(f"#screen select[name=s{n}_role]", role)
    page.click("#screen form button[type=submit]")
    expect(page.locator("#seat-1")).to_be_visible()
    return pk


def test_taps_made_offline_are_sent_in_order_when_the_connection_is_back(open_page: Any, shot: Any, round_: Any,
                                                                        people: dict[str, Any]) -> None:
    page = open_page(phone=True)
    pk = judge_on_the_screen(page, people, round_)
    page.locator("#seat-2").click()
    expect(page.locator("#seat-2 .fouls-badge")).to_contain_text("1")
    page.context.set_offline(True)
    for seat in (3, 3, 7):  # seat 3's second foul after the double-tap window (table-screen.js DOUBLE_TAP_MS)
        page.locator(f"#seat-{seat}").click()
        page.wait_for_timeout(DOUBLE_TAP_MS)
    expect(page.locator("#offline-queue [data-count]")).to_contain_text("3")
    page.locator("#offline-toggle").click()  # the dock is one line; the list on demand
    expect(page.locator("#offline-queue [data-pending] li")).to_have_count(3)
    expect(page.locator("#offline-queue [data-pending] li").last).to_be_visible()
    shot(page, "1-offline-waiting")
    assert seat_fouls(pk)[3] == 0  # nothing reached the server
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    expect(page.locator("#offline-queue")).to_be_hidden(timeout=15_000)
    expect(page.locator("#seat-3 .fouls-badge")).to_contain_text("2")
    assert seat_fouls(pk) == {**{n: 0 for n in range(1, 11)}, 2: 1, 3: 2, 7: 1}  # in order, once each
    shot(page, "2-back-online")
    assert page.js_errors == []  # type: ignore[attr-defined]


def test_a_tap_made_offline_on_a_protocol_changed_meanwhile_is_refused(open_page: Any, shot: Any, round_: Any,
                                                                       people: dict[str, Any]) -> None:
    page = open_page(phone=True)
    pk = judge_on_the_screen(page, people, round_)
    page.context.set_offline(True)
    page.locator("#seat-4").click()
    page.locator("#seat-5").click()
    expect(page.locator("#offline-queue [data-pending] li")).to_have_count(2)
    changed_elsewhere(pk, people)  # meanwhile the chief judge changes the protocol from another device
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    refused = page.locator("#offline-queue [data-refused] li")
    expect(refused).to_have_count(2, timeout=15_000)
    shot(page, "3-refused-after-reconnecting")
    fouls = seat_fouls(pk)
    assert fouls[4] == 0 and fouls[5] == 0  # nothing applied on the newer state
    assert Game.objects.get(table_id=pk).winner == "black"  # the other change stands
    page.locator("#seat-6").click()  # a tap saved online: the refusals the judge did not see happen stay listed
    expect(page.locator("#seat-6 .fouls-badge")).to_contain_text("1")
    expect(refused).to_have_count(2)


def test_the_speech_timer_counts_down_warns_at_ten_seconds_and_survives_taps(open_page: Any, round_: Any,
                                                                            people: dict[str, Any]) -> None:
    page = open_page(phone=True)
    page.clock.install()
    judge_on_the_screen(page, people, round_)
    page.click("[data-timer-start='60']")
    page.clock.run_for(49_000)
    display = page.locator("[data-timer-display]")
    expect(display).to_have_text("0:11")
    page.locator("#seat-2").click()  # a tap swaps the screen, not the timer
    expect(page.locator("#seat-2 .fouls-badge")).to_contain_text("1")
    page.clock.run_for(1_000)
    expect(display).to_have_text("0:10")
    expect(display).to_have_class(re.compile("text-warning"))
    page.clock.run_for(10_000)
    expect(display).to_have_text("0:00")
    expect(display).to_have_class(re.compile("text-danger"))


def test_a_tap_failed_without_an_offline_event_is_kept_as_offline(open_page: Any, round_: Any,
                                                                   people: dict[str, Any]) -> None:
    """The venue's Wi-Fi drops without the browser saying so (no «offline» event; the request fails): the tap waits
    as an offline one, and when it is refused after the connection is back (another device changed the protocol)
    the refusal stays listed past the next saved tap, as every refusal the judge did not see happen."""
    page = open_page(phone=True)
    pk = judge_on_the_screen(page, people, round_)
    screen_url = re.compile(r".*/live/$")
    page.route(screen_url, lambda route: route.abort("connectionrefused"))
    page.locator("#seat-4").click()
    expect(page.locator("#offline-queue [data-pending] li")).to_have_count(1)
    changed_elsewhere(pk, people)
    page.unroute(screen_url)
    refused = page.locator("#offline-queue [data-refused] li")
    expect(refused).to_have_count(1, timeout=15_000)  # sent again within 5 s, refused on the newer version
    page.locator("#seat-6").click()
    expect(page.locator("#seat-6 .fouls-badge")).to_contain_text("1")
    expect(refused).to_have_count(1)
    assert seat_fouls(pk)[4] == 0
