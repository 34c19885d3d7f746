"""A round being played, in a real browser: the judge of table 1 on a phone records fouls up to a removal
and submits; the chief judge confirms; a spectator finds their seat by name and watches the standings
update by themselves (the page polls; the browser's clock is run forward). With the standings hidden, the
same day shows no figures to the spectator."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.helpers import DOUBLE_TAP_MS, login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)

FINDER = ("Ёлкина", "Злата")  # the spectator: seat 3 of table 1


@pytest.fixture(params=[False, True], ids=["shown", "hidden"])
def hidden(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


@pytest.fixture
def day(round_: Any, people: dict[str, Any], hidden: bool) -> dict[str, Any]:
    tournament = round_.stage.tournament
    tournament.standings_hidden = hidden
    tournament.save()
    seat = table(round_, 1).seats.get(number=3)
    player = seat.participant.player
    player.surname, player.first_name = FINDER
    player.save()
    return {"slug": round_.stage.tournament.slug, "table": table(round_, 1).pk, **people}


def judge_records_and_submits(page: Page, day: dict[str, Any], shot: Any) -> None:
    """The judge's steps, on a phone: the login lands on the table screen (no tap in between), one tap a fact,
    the whole game and its submission on that one screen."""
    login(page, day["judge"].username)
    expect(page).to_have_url(re.compile(rf"/tables/{day['table']}/live/$"))
    # roles first, one select a seat; a refused line-up keeps every role chosen and names the seats
    roles = list(ROLES["fiim"])
    roles[4] = "don"  # two dons: seats 1 and 5
    for n, role in enumerate(roles, start=1):
        page.select_option(f"#screen select[name=s{n}_role]", role)
    page.click("#screen form button[type=submit]")
    expect(page.locator("#lineup-problems")).to_contain_text("1")
    expect(page.locator("#screen select[name=s5_role]")).to_have_class(re.compile("is-invalid"))
    expect(page.locator("#screen select[name=s2_role]")).to_have_value(ROLES["fiim"][1])  # kept
    shot(page, "0-judge-lineup-refused")
    page.select_option("#screen select[name=s5_role]", ROLES["fiim"][4])
    page.click("#screen form button[type=submit]")
    seat = page.locator("#seat-5")
    expect(seat.locator(".fouls-badge")).to_have_count(0)  # no "0 fouls" badge
    # a quick double tap on glass is one foul (table-screen.js); the reason chosen is that foul's only
    page.select_option("#controls select[name=reason]", "gestures")
    page.evaluate("() => { const seat = document.getElementById('seat-6'); seat.click(); seat.click(); }")
    page.wait_for_function("() => (localStorage.getItem('mafia-table-queue:' + location.pathname) || '[]') === '[]'")
    expect(page.locator("#seat-6 .fouls-badge")).to_have_text(re.compile(r"^\D*1\D*$"))  # one, not two
    expect(page.locator("#controls select[name=reason]")).to_have_value("")
    expect(page.locator("#dock-messages")).to_contain_text("6")
    page.wait_for_timeout(DOUBLE_TAP_MS)
    page.locator("#seat-6").click()  # a second foul, tapped deliberately later: counted
    expect(page.locator("#seat-6 .fouls-badge")).to_contain_text("2")
    for k in range(1, 5):  # four fouls on seat 5: the fourth removes the player
        page.wait_for_timeout(DOUBLE_TAP_MS)
        seat.click()
        expect(seat.locator(".fouls-badge")).to_contain_text(str(k))
        if k == 3:
            expect(seat).to_have_class(re.compile("btn-warning"))
    expect(seat).to_have_class(re.compile("btn-secondary"))
    expect(page.locator("#screen-said")).to_contain_text("5")
    shot(page, "1-judge-removal")
    page.click("#winner-red")
    expect(page.locator("#winner-buttons button.btn-success")).to_have_count(1)
    page.click("#submit-ask")
    expect(page.locator("#submit-confirmation")).to_be_visible()
    shot(page, "2-judge-confirm-submit")
    page.click("#submit-yes")
    expect(page.locator("#screen-state .badge.text-bg-primary")).to_be_visible()
    expect(page.locator("#seat-1")).to_be_disabled()  # submitted: no longer the judge's to change
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width  # the whole screen fits the phone's width
    shot(page, "3-judge-submitted")


def chief_confirms(page: Page, day: dict[str, Any], shot: Any) -> None:
    login(page, day["chief"].username)
    page.goto(f"/t/{day['slug']}/protocols/")
    page.locator(f".list-group-item[href$='/tables/{day['table']}/']").click()
    page.click("#protocol-state button[name=action][value=confirm]")
    expect(page.locator("#protocol-state .badge.text-bg-success")).to_be_visible()
    shot(page, "4-chief-confirmed")


def spectator_finds_the_seat(page: Page, day: dict[str, Any], shot: Any) -> None:
    page.goto(f"/p/{day['slug']}/where/")
    page.fill("#where-q", FINDER[0][:4])
    expect(page.locator("#places strong")).to_have_text(re.compile(r"\b1\b\D+\b3\b"))
    expect(page.locator("#places")).to_contain_text(FINDER[0])
    shot(page, "5-spectator-where")


def round_seated(day: dict[str, Any]) -> int:
    from tournaments.models import Seat

    return Seat.objects.filter(round__stage__tournament__slug=day["slug"]).count()


def test_table_day(open_page: Any, shot: Any, day: dict[str, Any], hidden: bool) -> None:
    spectator = open_page(phone=True)
    spectator_finds_the_seat(spectator, day, shot)
    spectator.clock.install()
    spectator.goto(f"/p/{day['slug']}/standings/")
    rows = spectator.locator("#standings tbody tr")
    if hidden:
        expect(rows).to_have_count(0)
        expect(spectator.locator("#standings-hidden")).to_be_visible()
    else:  # the round is in play: every player of the stage is on the standings, with 0 games
        expect(rows.first).to_be_visible()
        games = rows.locator("td:nth-child(4)").all_inner_texts()
        assert len(games) >= round_seated(day) and set(games) == {"0"}, games

    judge_records_and_submits(open_page(phone=True), day, shot)
    chief_confirms(open_page(), day, shot)

    spectator.clock.run_for(21_000)  # the page polls its fragment every 20 s
    if hidden:  # the players in alphabetical order, no points, no ranks, no table of figures
        expect(spectator.locator("#hidden-players li")).to_have_count(20)
        expect(spectator.locator("#standings")).to_have_count(0)
        shot(spectator, "5-spectator-standings-hidden")
        spectator.locator("#hidden-players a", has_text=FINDER[0]).click()
        expect(spectator.locator("main")).to_contain_text(FINDER[0])
        # round, table, seat, role, result: no points column
        expect(spectator.locator("main table thead th")).to_have_count(5)
        shot(spectator, "6-spectator-player-hidden")
        return
    # table 1's result comes with the poll, without a reload: its players lead, every player of the stage still listed
    expect(rows.first.locator("td:nth-child(4)")).to_have_text("1")
    expect(rows).to_have_count(20)
    points = [text.strip() for text in rows.locator("td:nth-child(3)").all_inner_texts()]
    assert points[0] != "0" and points[-1] in {"0", "-0.5", "−0.5", "-1", "−1"}, points
    shot(spectator, "5-spectator-standings")
    assert not spectator.js_errors
