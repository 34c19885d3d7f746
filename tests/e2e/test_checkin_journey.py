"""Check-in at the venue on a phone (390×844, Russian): the organizer opens a check-in for the next round and gives
a volunteer its link; the volunteer finds players by number and by name and ticks them (the counts follow, the
filter shows the missing), a tick survives a reload; a player checks in at the door by its QR code; the organizer
then marks the two missing absent on the round's page: the round is seated again without them, and "undo" brings
them back. Screenshots in tests/e2e/artifacts/ and /tmp/checkin-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from checkin.models import CheckIn, NoShow
from running.services import planning
from tests.e2e.helpers import login
from tournaments.models import Round

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lang() -> str:
    return "ru"


@pytest.fixture
def draft(generated: Any, organizer: Any) -> Round:
    tournament = generated("checkin-cup", players=20, rounds=1)
    stage = tournament.stages.order_by("order").first()
    return planning.generate_next_round(stage, seed=3)


def tap(page: Page, query: str) -> None:
    page.fill("#checkin-search", query)
    row = page.locator(".checkin-row:not(.d-none)").first
    with page.expect_response(lambda r: r.request.method == "POST"):
        row.locator("button").click()
    expect(row).to_have_class("checkin-row is-present")


def test_a_volunteer_ticks_and_the_organizer_marks_the_missing_absent(open_page: Any, draft: Round, shot: Any,
                                                                       real_workers: Any) -> None:
    """The seating again after the absences runs on the seating queue's worker, as in production: the organizer
    follows the job's page until the round is seated again."""
    tournament = draft.stage.tournament
    organizer = open_page(phone=True)
    login(organizer, tournament.organizers.get().username)
    organizer.goto(f"/t/{tournament.slug}/checkin/")
    organizer.select_option("#checkin-stage", draft.stage.ext_id)
    organizer.fill("#checkin-round", str(draft.number))
    organizer.click("#open-checkin button[type=submit]")
    expect(organizer.locator("#checkin-counts")).to_contain_text("Пришли: 0 из 20, нет: 20")
    session = CheckIn.objects.get()
    organizer.goto(f"/t/{tournament.slug}/checkin/{session.pk}/door/")
    expect(organizer.locator("#door-qr svg")).to_be_visible()
    organizer.screenshot(path="/tmp/checkin-door.png", full_page=True)
    link = organizer.locator("#volunteer-link").get_attribute("href") or ""
    door = organizer.locator("#door-qr + p a").get_attribute("href") or ""

    volunteer = open_page(phone=True)
    volunteer.goto(link)
    players = list(session.tournament.participants.select_related("player").order_by("number"))
    tap(volunteer, "3")  # by number
    tap(volunteer, players[4].player.surname.lower().replace("ё", "е")[:5])  # part of a name, е for ё
    expect(volunteer.locator("#count-present")).to_have_text("2")
    for participant in players[:17]:
        volunteer.fill("#checkin-search", str(participant.number))
        row = volunteer.locator(".checkin-row:not(.d-none)").first
        if "is-present" in (row.get_attribute("class") or ""):
            continue
        with volunteer.expect_response(lambda r: r.request.method == "POST"):
            row.locator("button").click()
    player = open_page(phone=True)  # one player at the door ticks themselves
    player.goto(door)
    expect(player.locator(".checkin-row:not(.d-none)")).to_have_count(0)  # no one listed until one types
    player.fill("#checkin-search", str(players[17].number))
    player.screenshot(path="/tmp/checkin-self.png", full_page=True)
    player.locator(".checkin-row:not(.d-none) button").first.click()
    expect(player.locator("#self-done")).to_contain_text("вы отмечены")
    player.screenshot(path="/tmp/checkin-self-done.png", full_page=True)
    volunteer.reload()
    expect(volunteer.locator("#checkin-counts")).to_contain_text("Пришли: 18 из 20, нет: 2")
    volunteer.select_option("#checkin-filter", "missing")
    expect(volunteer.locator(".checkin-row:not(.d-none)")).to_have_count(2)
    volunteer.screenshot(path="/tmp/checkin-volunteer.png", full_page=False)
    shot(volunteer, "volunteer")
    volunteer.reload()
    expect(volunteer.locator("#count-present")).to_have_text("18")
    assert volunteer.evaluate("document.documentElement.scrollWidth") <= 390  # nothing sideways
    assert not volunteer.js_errors  # type: ignore[attr-defined]

    organizer.goto(f"/t/{tournament.slug}/stages/{draft.stage.ext_id}/rounds/{draft.number}/")
    expect(organizer.locator("#checkin-summary")).to_contain_text("Пришли: 18 из 20, нет: 2")
    expect(organizer.locator("#checkin-missing")).to_contain_text(players[19].player.full_name)
    organizer.screenshot(path="/tmp/checkin-round.png", full_page=True)
    organizer.click("#mark-missing")
    expect(organizer.locator("#no-shows")).to_contain_text(players[18].player.full_name, timeout=30_000)
    organizer.screenshot(path="/tmp/checkin-round-marked.png", full_page=True)
    shot(organizer, "round-marked")
    away = set(draft.absences.values_list("participant_id", flat=True))
    assert away == {players[18].pk, players[19].pk}
    assert not draft.seats.filter(participant_id__in=away).exists() and draft.seats.count() + draft.byes.count() == 18
    organizer.click("#restore-no-shows")
    organizer.wait_for_url("**/seating/**")  # the seating job's page, until the round is seated again
    organizer.wait_for_url(f"**/rounds/{draft.number}/", timeout=30_000)
    expect(organizer.locator("#no-shows")).to_have_count(0)
    assert not draft.absences.exists() and draft.seats.count() + draft.byes.count() == 20
    assert NoShow.objects.filter(restored_by=tournament.organizers.get()).count() == 2
