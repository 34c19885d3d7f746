"""The chief judge's desk on a phone (390×844), in English and Russian: two protocols wait, the oldest first; the
chief judge confirms it in one tap, sends the other back with a comment, and the desk refreshes itself when
another one comes in (the browser's clock run forward). The judge of a table sent back, opening the private link
printed as a QR code on the table's sheet, finds the comment on their phone. The organizer allocates the judges
in the grid (a conflict shown) and sees the QR codes on the judges page and the seating sheet."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from judges.models import Judge
from judges.services import links
from tests.e2e.helpers import login
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db(transaction=True)


def played(facts: ProtocolFacts) -> None:
    for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
        seat.role = role
    facts.winner = "red"


@pytest.fixture
def waiting(make_round: Any, make_user: Any) -> dict[str, Any]:
    from django.utils import timezone

    from judges.services import staff

    round_ = make_round("fiim", tables=4)
    tournament = round_.stage.tournament
    chief, judge, other = make_user("chief"), make_user("judge"), make_user("other")
    staff.add_judge(tournament, chief, chief=True)
    for user, number in ((judge, 1), (other, 2)):
        staff.assign(staff.add_judge(tournament, user), round_.stage, round_, number)
    for user, number, minutes in ((judge, 1, 3), (other, 2, 7)):
        game = service.open_protocol(table(round_, number), user)
        game = service.change(game, user, game.version, played)
        game = service.submit(game, user, game.version)
        Game.objects.filter(pk=game.pk).update(submitted_at=timezone.now() - dt.timedelta(minutes=minutes))
    service.open_protocol(table(round_, 3), chief)  # in play
    link = links.issue_link(Judge.objects.get(tournament=tournament, user=other), tournament.organizers.get())
    return {"slug": tournament.slug, "chief": chief, "token": link.token, "round": round_,
            "organizer": tournament.organizers.get()}


def test_the_chief_judge_confirms_in_one_tap(open_page: Any, waiting: dict[str, Any], shot: Any, lang: str) -> None:
    page = open_page(phone=True)
    page.clock.install()
    login(page, waiting["chief"].username)
    page.goto(f"/t/{waiting['slug']}/desk/")
    cards = page.locator(".desk-card")
    expect(cards).to_have_count(4)
    # the waiting ones first, the oldest submission first: table 2 (7 minutes), then table 1
    expect(cards.nth(0)).to_have_attribute("id", "table-2")
    expect(cards.nth(1)).to_have_attribute("id", "table-1")
    expect(page.locator('#desk-counts [data-state="submitted"] .count')).to_have_text("2")
    shot(page, "1-desk-waiting")
    page.locator("#table-2 button[value=confirm]").tap()
    expect(page.locator("#table-2")).to_have_attribute("data-state", "confirmed")
    expect(page.locator('#desk-counts [data-state="confirmed"] .count')).to_have_text("1")
    expect(page.locator("#table-1 button[value=confirm]")).to_be_visible()
    shot(page, "2-desk-confirmed")
    # table 1 goes back to its judge with a comment
    page.locator("#table-1 summary").tap()
    comment = "Место 3: нет фола" if lang == "ru" else "Seat 3: a foul is missing"
    page.locator("#table-1 textarea[name=comment]").fill(comment)
    shot(page, "3-desk-send-back")
    page.locator("#table-1 button[value=send_back]").tap()
    expect(page.locator("#table-1")).to_have_attribute("data-state", "in_play")
    expect(page.locator("#table-1")).to_contain_text(comment)
    # the desk refreshes itself: table 3's judge submits meanwhile, and its card comes first by itself
    game = Game.objects.get(table=table(waiting["round"], 3))
    game = service.change(game, waiting["chief"], game.version, played)
    service.submit(game, waiting["chief"], game.version)
    page.clock.run_for(11_000)
    expect(page.locator(".desk-card").first).to_have_attribute("id", "table-3")
    expect(page.locator('#desk-counts [data-state="submitted"] .count')).to_have_text("1")
    assert page.js_errors == []


def test_the_judge_opens_the_private_link(open_page: Any, waiting: dict[str, Any], shot: Any, lang: str) -> None:
    from games.permissions import staff_of

    game = Game.objects.get(table=table(waiting["round"], 2))
    chief = waiting["chief"]
    comment = "Место 5: лучший ход не записан" if lang == "ru" else "Seat 5: the best move is not recorded"
    service.send_back(game, staff_of(chief, game.table.round.stage.tournament), chief, game.version, comment)
    page = open_page(phone=True)
    page.goto(f"/t/{waiting['slug']}/j/{waiting['token']}/")
    # one table to record: the link opens its live screen, with the chief judge's comment on it
    expect(page).to_have_url(re.compile(rf"/t/{waiting['slug']}/tables/\d+/live/$"))
    expect(page.locator("#sent-back")).to_contain_text(comment)
    shot(page, "1-judge-signed-in-by-link")
    page.goto(f"/t/{waiting['slug']}/protocols/")
    expect(page.locator(".list-group-item")).to_have_count(1)  # the table of this judge only
    expect(page.locator(".list-group-item .sent-back")).to_contain_text(comment)
    shot(page, "2-judge-reads-the-comment")
    assert page.js_errors == []


def test_the_organizer_allocates_and_prints_the_links(open_page: Any, waiting: dict[str, Any], shot: Any) -> None:
    """The judges page on a laptop: the grid of round 1 with a conflict, the QR of a judge's link; the seating
    sheet of table 2 carries the QR code of its judge's link."""
    page = open_page()
    login(page, waiting["organizer"].username)
    page.goto(f"/t/{waiting['slug']}/staff/")
    page.select_option("#grid select[name=table_3]", label="chief")
    page.select_option("#grid select[name=table_4]", label="chief")
    page.click("#allocation button[type=submit]")
    expect(page.locator('#grid tr[data-table="3"] .conflict')).to_have_count(1)
    page.locator(".private-link summary").first.click()
    expect(page.locator(".private-link svg.segno")).to_be_visible()
    shot(page, "1-judges-page")
    page.goto(f"/t/{waiting['slug']}/print/{waiting['round'].stage.ext_id}/1/seating/")
    expect(page.locator(".judge-link svg.segno")).to_have_count(1)
    shot(page, "2-seating-sheet-with-qr")
